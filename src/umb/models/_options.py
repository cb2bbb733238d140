"""Options shared by every model backend."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

from umb._errors import ConfigError

StructuredOutput = Literal["auto", "on", "off"]
STRUCTURED_OUTPUTS: tuple[StructuredOutput, ...] = ("auto", "on", "off")


def _base_url_from_env() -> str | None:
    return os.environ.get("OPENAI_BASE_URL") or None


BACKEND_OPTIONS: Final = ("device", "allow_download", "n_ctx", "threads", "seed")
"""The :class:`ModelOptions` fields only some backends read; each provider names those it takes
(:attr:`umb.models.Provider.options`), and a run that sets one none of its models reads is
refused (:func:`umb.models.unread_options`)."""


@dataclass(frozen=True)
class ModelOptions:
    """How a model is reached, limited, retried and cached.

    Backends read only the fields that apply to them: ``offline`` and ``oracle`` read none,
    ``hf/…`` reads the generation overrides, ``device`` and ``allow_download``.
    """

    base_url: str | None = field(default_factory=_base_url_from_env)
    """OpenAI-compatible endpoint, e.g. ``http://localhost:8000/v1``; defaults to
    ``$OPENAI_BASE_URL``, then to the official OpenAI endpoint."""
    replicas: tuple[str, ...] = ()
    """More endpoints serving the same model: requests spread over ``base_url`` and these,
    ``concurrency`` in flight at each, and a failed attempt is retried on another replica."""
    api_key_env: str = "OPENAI_API_KEY"
    """Name of the environment variable holding the key. The key itself is never stored."""
    concurrency: int = 8
    """Most requests in flight at once, per loaded model and endpoint."""
    timeout_s: float = 60.0
    """Limit for one HTTP attempt, in seconds."""
    max_retries: int = 5
    """Retries after the first attempt on HTTP 429, 5xx, connection errors and timeouts."""
    backoff_base_s: float = 0.5
    """First backoff; each retry doubles it (with jitter) up to ``backoff_max_s``."""
    backoff_max_s: float = 30.0
    """Longest wait between attempts; also caps a server's Retry-After."""
    cache_path: Path | None = None
    """sqlite response cache; None disables caching."""
    max_tokens: int | None = None
    """Overrides every request's ``max_tokens`` when set."""
    temperature: float | None = None
    """Overrides every request's ``temperature`` when set."""
    device: str | None = None
    """``hf/…`` only: torch device such as ``cpu`` or ``cuda:0``; None picks CUDA if present."""
    allow_download: bool = False
    """``hf/…`` only: allow fetching weights from the Hub (off: local files and cache only)."""
    structured_output: StructuredOutput = "auto"
    """Requests that carry a JSON schema: ``auto`` sends it where the backend takes one (and
    drops it if an endpoint refuses it), ``on`` insists (an endpoint that refuses it fails the
    call; an answerer backend that cannot take one is refused at load), ``off`` never sends it."""
    n_ctx: int | None = None
    """``llamacpp/…`` only: context size in tokens; None takes the model's own."""
    threads: int | None = None
    """``llamacpp/…`` only: CPU threads; None lets llama.cpp choose."""
    seed: int = 0
    """``llamacpp/…`` only: sampling seed, fixed so a rerun gives the same text."""

    def __post_init__(self) -> None:
        if self.concurrency < 1:
            raise ConfigError(f"concurrency must be at least 1, not {self.concurrency}")
        if self.timeout_s <= 0:
            raise ConfigError(f"timeout_s must be positive, not {self.timeout_s}")
        if self.max_retries < 0:
            raise ConfigError(f"max_retries must be 0 or more, not {self.max_retries}")
        if self.backoff_base_s < 0 or self.backoff_max_s < self.backoff_base_s:
            raise ConfigError(
                "backoff needs 0 <= backoff_base_s <= backoff_max_s, "
                f"not {self.backoff_base_s} and {self.backoff_max_s}"
            )
        if self.max_tokens is not None and self.max_tokens < 1:
            raise ConfigError(f"max_tokens must be at least 1, not {self.max_tokens}")
        if self.temperature is not None and self.temperature < 0:
            raise ConfigError(f"temperature must be 0 or more, not {self.temperature}")
        if self.structured_output not in STRUCTURED_OUTPUTS:
            raise ConfigError(
                f"structured output must be one of {', '.join(STRUCTURED_OUTPUTS)}, "
                f"not {self.structured_output!r}"
            )
        if self.n_ctx is not None and self.n_ctx < 16:
            raise ConfigError(f"n_ctx must be at least 16, not {self.n_ctx}")
        if self.threads is not None and self.threads < 1:
            raise ConfigError(f"threads must be at least 1, not {self.threads}")
        if self.replicas and not self.base_url:
            raise ConfigError("replicas need a base_url: give --base-url once per endpoint")
        if not self.api_key_env:
            raise ConfigError("api_key_env must name an environment variable")
