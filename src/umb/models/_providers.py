"""The built-in model providers: ``offline``, ``oracle``, ``openai/<model>``, ``hf/<path>``,
``llamacpp/<file.gguf | name>``.

A provider turns the part of a spec after ``<provider>/`` into a backend and the identity its
responses are cached under (``("", "", "")``: not cached). :data:`umb.models.PROVIDERS` loads
each one from here by its entry (``umb.models._providers:OFFLINE``) at its first lookup.
Language-model backends are imported inside their provider so that specs which do not use them
never load them (the offline reader loads numpy).
"""

from __future__ import annotations

from umb.models._api import ModelAPI
from umb.models._options import ModelOptions
from umb.models._provider import CacheIdentity, Provider
from umb.models.oracle import OracleModel


def _offline(name: str, options: ModelOptions) -> tuple[ModelAPI, CacheIdentity]:
    """The deterministic non-LLM reader (a lower bound)."""
    from umb.models.offline import OfflineModel  # its reader loads numpy

    # offline and oracle are instant, and their answers depend on the request's task (which the
    # cache key leaves out), so only language-model backends are cached.
    return OfflineModel(), ("", "", "")


def _oracle(name: str, options: ModelOptions) -> tuple[ModelAPI, CacheIdentity]:
    """Gold answers, for checking scorers."""
    return OracleModel(), ("", "", "")


def _openai(name: str, options: ModelOptions) -> tuple[ModelAPI, CacheIdentity]:
    """Any OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp's server, OpenAI)."""
    from umb.models._openai import OpenAIModel  # httpx takes ~0.1-0.3 s to import

    model = OpenAIModel(name, options)
    return model, ("openai", name, model.base_url)


def _hf(name: str, options: ModelOptions) -> tuple[ModelAPI, CacheIdentity]:
    """Local transformers weights (extra ``hf``)."""
    from umb.models._hf import HFModel  # torch and transformers: extra "hf"

    return HFModel(name, options), ("hf", name, "")


def _llamacpp(name: str, options: ModelOptions) -> tuple[ModelAPI, CacheIdentity]:
    """A GGUF model run in process by llama.cpp (extra ``llamacpp``)."""
    from umb.models._llamacpp import LlamaCppModel  # llama-cpp-python: extra "llamacpp"

    model = LlamaCppModel(name, options)
    # The file's name, not its path: the same model installed elsewhere still hits the cache.
    return model, ("llamacpp", model.path.name, "")


OFFLINE = Provider(
    "offline", _offline, takes_name=False, form="offline", llm=False,
    description="A deterministic rule-based reader (BM25 over sentences and date arithmetic), "
    "not a language model: a heuristic lower bound that a real model should beat "
    "(docs/offline-reader.md).",
)  # fmt: skip
ORACLE = Provider(
    "oracle", _oracle, takes_name=False, form="oracle", llm=False, reads_gold=True,
    description="Answers with the gold answer: a check of the scorers, not a result.",
)  # fmt: skip
OPENAI = Provider(
    "openai", _openai, form="openai/<model>", endpoint=True,
    description="A model behind an OpenAI-compatible endpoint.",
)  # fmt: skip
HF = Provider(
    "hf", _hf, form="hf/<path>", description="A local transformers model.",
    options=("device", "allow_download"),
)  # fmt: skip
LLAMACPP = Provider(
    "llamacpp", _llamacpp, form="llamacpp/<file.gguf | name>",
    description="A GGUF model run in process by llama.cpp.",
    options=("n_ctx", "threads", "seed"),
)  # fmt: skip
