"""The one interface every model backend implements."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

Role = Literal["answerer", "judge", "extractor", "renderer"]


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message."""

    role: Literal["system", "user", "assistant"]
    content: str


@dataclass(frozen=True)
class GenerateRequest:
    """One chat completion to make.

    ``task`` carries structured context for the non-LLM backends, which cannot read a prompt the
    way an LLM does: the ``offline`` reader gets the family, query and context text it was shown
    (never the world or the gold); the ``oracle`` gets the gold. Remote backends ignore it, and it
    is not part of the cache key.
    """

    messages: tuple[Message, ...]
    max_tokens: int = 1024
    temperature: float = 0.0
    json_mode: bool = True
    json_schema: dict[str, Any] | None = field(default=None, hash=False)
    """The JSON schema the reply must follow, for backends that constrain decoding to one
    (``--structured-output``); None asks for JSON (``json_mode``) without a shape."""
    task: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class GenerateResult:
    """What came back for one request. ``error`` is set (and ``text`` empty) on failure."""

    text: str
    input_tokens: int = 0
    output_tokens: int = 0
    latency_s: float = 0.0
    cached: bool = False
    error: str | None = None


@runtime_checkable
class ModelAPI(Protocol):
    """A model backend. Calls are batched: a list of requests in, a list of results out."""

    spec: str
    """The spec that built it, e.g. ``offline`` or ``openai/gpt-4o-mini``."""

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        """Answer every request, in order; failures come back as results with ``error`` set."""
        ...
