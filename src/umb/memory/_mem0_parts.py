"""What the ``mem0`` memory system plugs into the mem0 library: an isolated import, umb's
extractor as mem0's LLM, wordllama as its embedder, and the offline configuration.

mem0 reads ``MEM0_DIR`` and ``MEM0_TELEMETRY`` once, when it is first imported, and writes a
``config.json`` into ``MEM0_DIR`` (``~/.mem0`` by default) right then. :func:`import_mem0` sets
both for the duration of that import only, so the file lands in the run directory and nothing
is ever sent to mem0's telemetry service.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import logging
import os
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np

from umb._errors import EndpointError, MissingDependencyError
from umb.memory._index import embed
from umb.models import GenerateRequest, Message, ModelAPI

#: Where mem0's own clients are pointed when umb replaces them: a closed loopback port, so a
#: request sent there by mistake fails at once and never leaves the machine.
NOWHERE = "http://127.0.0.1:9/v1"
#: Tokens mem0 may spend on one extraction reply (mem0's own default for its LLM config).
MAX_TOKENS = 2000
WORDLLAMA_DIMS = 256


def mem0_available() -> bool:
    """Whether the ``mem0ai`` package can be imported."""
    return importlib.util.find_spec("mem0") is not None


def import_mem0(home: Path) -> Any:
    """Import mem0 with its home folder at ``home`` and telemetry off; return the package.

    If mem0 was imported earlier (by the user's own code), its home folder is already fixed;
    telemetry is switched off all the same.

    Raises:
        MissingDependencyError: ``mem0ai`` is not installed.
    """
    if "mem0" not in sys.modules:
        home.mkdir(parents=True, exist_ok=True)
        saved = {key: os.environ.get(key) for key in ("MEM0_DIR", "MEM0_TELEMETRY")}
        os.environ["MEM0_DIR"] = str(home)
        os.environ["MEM0_TELEMETRY"] = "False"
        try:
            importlib.import_module("mem0")
        except ImportError as e:
            raise MissingDependencyError("mem0ai", "mem0") from e
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
    # The flag is read from these module globals at every call, so clearing them here also
    # silences a mem0 that was imported before with telemetry on.
    for name in ("mem0.memory.telemetry", "mem0.memory.main"):
        module = importlib.import_module(name)
        if hasattr(module, "MEM0_TELEMETRY"):
            setattr(module, "MEM0_TELEMETRY", False)  # noqa: B010 - a module global
    _no_model_downloads()
    for name in _CHATTY_LOGGERS:
        chatty = logging.getLogger(name)
        if not any(isinstance(f, _OncePerMessage) for f in chatty.filters):
            chatty.addFilter(_OncePerMessage())
    return sys.modules["mem0"]


#: mem0 loggers that repeat the same warning for every memory instance (one per dialogue).
_CHATTY_LOGGERS = ("mem0.vector_stores.qdrant", "mem0.utils.spacy_models", "mem0.memory.main")


class _OncePerMessage(logging.Filter):
    """Let each distinct warning through once per process."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR:
            return True
        message = record.getMessage()
        if message in self.seen:
            return False
        self.seen.add(message)
        return True


def _no_model_downloads() -> None:
    # With spaCy installed but its English model missing, mem0 would download the model on
    # first use; mark the load as failed instead (mem0 then skips lemmas and entities, as it
    # does without spaCy).
    if importlib.util.find_spec("spacy") is None or importlib.util.find_spec("en_core_web_sm"):
        return
    models = importlib.import_module("mem0.utils.spacy_models")
    for flag in ("_load_failed_full", "_load_failed_lemma"):
        if hasattr(models, flag):
            setattr(models, flag, True)


class ExtractorLLM:
    """mem0's LLM interface (``generate_response``) answered by umb's extractor model.

    mem0's ``AsyncMemory`` calls its LLM from worker threads; each call is handed back to the
    event loop that runs the extractor, so the extractor's cache, retries, concurrency limit
    and usage accounting apply to mem0's calls like to any other.
    """

    def __init__(self, extractor: ModelAPI, stats: Counter[str]) -> None:
        self.extractor = extractor
        self.stats = stats
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tokens_in = 0
        self.tokens_out = 0

    def tokens(self) -> tuple[int, int]:
        """Input and output tokens of every call so far (a trace reads them per session)."""
        return self.tokens_in, self.tokens_out

    def generate_response(
        self,
        messages: list[dict[str, Any]],
        response_format: dict[str, Any] | None = None,
        tools: Sequence[Any] | None = None,
        tool_choice: str = "auto",
        **kwargs: Any,
    ) -> str:
        """One chat completion; raises :class:`~umb.EndpointError` if the extractor failed."""
        if tools:
            raise NotImplementedError("umb's extractor bridge does not support tool calls")
        if self.loop is None:
            raise RuntimeError("the mem0 memory system has no event loop bound")
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop:  # waiting here would block the loop the call needs
            raise RuntimeError("mem0 called its LLM on the event loop thread")
        request = GenerateRequest(
            messages=tuple(
                Message(cast(Any, m.get("role", "user")), str(m.get("content") or ""))
                for m in messages
            ),
            max_tokens=int(kwargs.get("max_tokens") or MAX_TOKENS),
            temperature=0.0,
            json_mode=bool(response_format and response_format.get("type") == "json_object"),
        )
        future = asyncio.run_coroutine_threadsafe(self.extractor.generate([request]), self.loop)
        (result,) = future.result()
        self.stats["llm_calls"] += 1
        self.tokens_in += result.input_tokens
        self.tokens_out += result.output_tokens
        if result.error is not None:
            self.stats["failed_calls"] += 1
            raise EndpointError(f"extractor {self.extractor.spec} failed: {result.error}")
        return result.text


class WordLlamaEmbedder:
    """mem0's embedder interface (``embed``, ``embed_batch``) over umb's bundled wordllama."""

    dims = WORDLLAMA_DIMS

    def embed(self, text: str, memory_action: str | None = None) -> list[float]:
        """The unit-length embedding of ``text``."""
        return self.embed_batch([text], memory_action)[0]

    def embed_batch(
        self, texts: Sequence[str], memory_action: str | None = None
    ) -> list[list[float]]:
        """Unit-length embeddings of ``texts``, in order."""
        vectors = embed(list(texts))
        # A text with no known word embeds to zeros, which a cosine index cannot normalise:
        # give it a fixed direction instead.
        vectors[np.linalg.norm(vectors, axis=1) == 0, 0] = 1.0
        rows: list[list[float]] = vectors.tolist()
        return rows


def endpoint_dims(base_url: str, model: str, api_key: str) -> int:
    """Length of the vectors an OpenAI-compatible embeddings endpoint returns (one probe call).

    mem0 needs it to size its collection, and passing ``dimensions`` instead is refused by
    endpoints serving models of a fixed size (vLLM, Ollama).
    """
    import openai

    client = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=2, timeout=60)
    try:
        response = client.embeddings.create(model=model, input=["dimension probe"])
    except openai.OpenAIError as e:
        raise EndpointError(f"embedder {model} at {base_url} failed: {e}") from e
    finally:
        client.close()
    return len(response.data[0].embedding)


def close_memory(memory: Any) -> None:
    """Close an ``AsyncMemory``'s history database and its local Qdrant client."""
    memory.close()
    client = getattr(memory.vector_store, "client", None)
    if client is not None:
        client.close()


def mem0_config(folder: Path, dims: int, embedder: dict[str, Any]) -> dict[str, Any]:
    """mem0's configuration: local Qdrant and the history database inside ``folder``.

    The LLM entry only satisfies mem0's validation: :class:`ExtractorLLM` replaces the client
    it builds before any call.
    """
    return {
        "vector_store": {
            "provider": "qdrant",
            "config": {
                "collection_name": "memories",
                "path": str(folder / "qdrant"),
                "embedding_model_dims": dims,
                "on_disk": True,
            },
        },
        "llm": {
            "provider": "openai",
            "config": {"model": "umb-extractor", "api_key": "unused", "openai_base_url": NOWHERE},
        },
        "embedder": embedder,
        "history_db_path": str(folder / "history.db"),
    }
