"""What one evaluation run is: its options, and the header that pins them in the run directory.

A header's *identity* (benchmark content, models, and every parameter that changes an answer or a
score) must match for a run directory to be resumed. Systems may be added to an existing run;
``--limit``, ``--concurrency`` and cache settings are operational and may change freely.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import urllib.parse
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Final

from umb._errors import ConfigError
from umb.bench import Benchmark
from umb.memory import Granularity, MemoryConfig, memory_system_class, memory_system_names
from umb.memory._api import GRANULARITIES
from umb.run._profiles import PROFILE_VERSION
from umb.run._prompts import PROMPT_VERSION
from umb.scoring._aggregate import AGGREGATE_VERSION
from umb.scoring._judge import JUDGE_PROMPT_VERSION
from umb.scoring._parsing import Policy
from umb.scoring._peer import NATIVE_SCORER, check_scorer, peer_scorer_header
from umb.scoring._record import SCORERS

RUN_FORMAT: Final = "umb-run"
RUN_FORMAT_VERSION: Final = 1

#: Packages whose versions the header records (those that can change a number).
_PACKAGES: Final = ("unifiedmembench", "numpy", "bm25s", "wordllama", "openai", "rapidfuzz")


@dataclass(frozen=True)
class RunConfig:
    """Everything ``umb eval`` needs to know.

    Args mirror the command's options; see docs/evaluation.md.
    """

    bench: Path
    """The benchmark directory."""
    out: Path
    """The run directory (created; resumed if it already holds a run)."""
    systems: tuple[str, ...]
    """Memory systems to evaluate, e.g. ``("full_context", "rag_bm25")``."""
    model: str = "offline"
    """Answerer spec."""
    judge: str | None = None
    """Judge spec: umb's free-text judge, or the judge of a judge scorer; None = rules alone."""
    scorer: str = NATIVE_SCORER
    """``umb`` (the family rules) or a peer answer scorer such as ``locomo_f1``."""
    extractor: str = "offline"
    """The memory systems' own model (``mem0_style``, ``summary``); ``offline`` = rule-based."""
    limit: int | None = None
    """Evaluate only the first N questions of the benchmark (file order)."""
    concurrency: int = 8
    """Dialogues evaluated at once, and requests in flight per model."""
    base_url: str | None = None
    """OpenAI-compatible endpoint for ``openai/…`` specs (default ``$OPENAI_BASE_URL``)."""
    api_key_env: str = "OPENAI_API_KEY"
    """Environment variable holding the key; the key itself is never written anywhere."""
    timeout_s: float = 60.0
    """Per-request timeout of API models."""
    max_retries: int = 5
    """Retries of an API request on HTTP 429, 5xx, connection errors and timeouts."""
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    """top-k, granularity and the input-token budget of the memory systems."""
    cache: bool = True
    """Use the response cache."""
    cache_path: Path | None = None
    """Cache file; default ``OUT/cache.sqlite``."""
    policy: Policy = "strict"
    """JSON parsing policy."""
    max_tokens: int = 1024
    """Answer length limit."""
    judge_votes: int = 3
    """Judge votes per item (median taken)."""
    seed: int = 0
    """Bootstrap seed of the confidence intervals."""
    retry_errors: bool = False
    """On resume, ask again the questions whose model call failed."""
    trace: bool = True
    """Record every memory operation to ``OUT/traces/<system>.jsonl`` (``--no-trace``: off)."""

    def __post_init__(self) -> None:
        if not self.systems:
            raise ConfigError("name at least one memory system with --system")
        if len(set(self.systems)) != len(self.systems):
            raise ConfigError(f"a system is named twice in {','.join(self.systems)}")
        known = set(memory_system_names())
        for name in self.systems:
            if name not in known:

                memory_system_class(name)  # raises with a "did you mean"
        if self.limit is not None and self.limit < 1:
            raise ConfigError(f"--limit must be at least 1, not {self.limit}")
        if self.concurrency < 1:
            raise ConfigError(f"--concurrency must be at least 1, not {self.concurrency}")
        if self.policy not in ("strict", "lenient"):
            raise ConfigError(f"unknown parse policy {self.policy!r}")
        if self.judge_votes < 1:
            raise ConfigError(f"judge votes must be at least 1, not {self.judge_votes}")
        check_scorer(self.scorer, self.judge)

    @property
    def resolved_cache_path(self) -> Path | None:
        """Where the response cache lives, or None when caching is off."""
        if not self.cache:
            return None
        return self.cache_path if self.cache_path is not None else self.out / "cache.sqlite"


def parse_systems(text: str) -> tuple[str, ...]:
    """``"a,b , c"`` -> ``("a", "b", "c")``."""
    return tuple(s.strip() for s in text.split(",") if s.strip())


def parse_granularity(text: str) -> Granularity:
    """Check a granularity name."""
    for g in GRANULARITIES:
        if g == text:
            return g
    raise ConfigError(f"granularity must be one of {', '.join(GRANULARITIES)}, not {text!r}")


def public_url(url: str | None) -> str | None:
    """``url`` without user info, query or fragment, so no credential reaches a file."""
    if not url:
        return None
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", ""))


def _versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for name in _PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def _relative(path: Path, start: Path) -> str:
    # Outputs hold no absolute paths: the benchmark is named relative to the run directory.
    try:
        return Path(os.path.relpath(path.resolve(), start.resolve())).as_posix()
    except ValueError:  # another drive on Windows
        return path.name


def build_header(config: RunConfig, bench: Benchmark, systems: list[str]) -> dict[str, Any]:
    """The header of a run of ``config`` on ``bench`` covering ``systems``."""
    manifest = bench.manifest
    base_url = config.base_url or os.environ.get("OPENAI_BASE_URL")
    uses_api = any(
        spec is not None and spec.startswith("openai/")
        for spec in (config.model, config.judge, config.extractor)
    )
    native_judge = bool(config.judge) and config.scorer == NATIVE_SCORER
    return {
        "format": RUN_FORMAT,
        "format_version": RUN_FORMAT_VERSION,
        "created_at": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "benchmark": {
            "content_hash": bench.content_hash,
            "path": _relative(bench.root, config.out),
            "generator": manifest.get("generator"),
            "preset": (manifest.get("config") or {}).get("preset"),
            "seed": manifest.get("seed"),
            "questions": (manifest.get("counts") or {}).get("questions"),
        },
        "systems": systems,
        "models": {"answerer": config.model, "judge": config.judge, "extractor": config.extractor},
        "endpoint": {
            "base_url": public_url(base_url) if uses_api else None,
            "api_key_env": config.api_key_env if uses_api else None,
        },
        "parameters": {
            "top_k": config.memory.top_k,
            "granularity": config.memory.granularity,
            "max_input_tokens": config.memory.max_input_tokens,
            "policy": config.policy,
            "max_tokens": config.max_tokens,
            "temperature": 0.0,
            "judge_votes": config.judge_votes if native_judge else None,
            "prompt_version": PROMPT_VERSION,
            "judge_prompt_version": JUDGE_PROMPT_VERSION if native_judge else None,
        },
        "scorer": scorer_header(config.scorer),
        "scorers": {fam: f"{s.name}@{s.version}" for fam, s in sorted(SCORERS.items())},
        "aggregate_version": AGGREGATE_VERSION,
        "seed": config.seed,
        "versions": _versions(),
    }


def _identity(header: dict[str, Any]) -> dict[str, Any]:
    return {
        "format_version": header.get("format_version"),
        "benchmark": (header.get("benchmark") or {}).get("content_hash"),
        "models": header.get("models"),
        "parameters": header.get("parameters"),
        "scorers": header.get("scorers"),
        # Runs made before --scorer existed were scored by umb's rules.
        "scorer": header.get("scorer") or {"name": NATIVE_SCORER},
        "seed": header.get("seed"),
    }


def check_header(existing: dict[str, Any], new: dict[str, Any], run_dir: Path) -> None:
    """Refuse to resume a run made with another benchmark, model or parameters.

    Raises:
        ConfigError: Naming each field that differs, old and new value.
    """
    if existing.get("format") != RUN_FORMAT:
        raise ConfigError(f"{run_dir} holds no umb run (header format {existing.get('format')!r})")
    old, cur = _identity(existing), _identity(new)
    diffs = []
    for key in old:
        a, b = old[key], cur[key]
        if isinstance(a, dict) and isinstance(b, dict):
            diffs += [
                f"{key}.{k}: {a.get(k)!r} -> {b.get(k)!r}"
                for k in sorted(set(a) | set(b))
                if a.get(k) != b.get(k)
            ]
        elif a != b:
            diffs.append(f"{key}: {a!r} -> {b!r}")
    if diffs:
        raise ConfigError(
            f"{run_dir} holds a run with different settings ({'; '.join(diffs)}); "
            "use another --out, or delete it to start over"
        )


def scorer_header(name: str) -> dict[str, Any]:
    """What a run's header pins about its scorer (part of the run's identity)."""
    if name == NATIVE_SCORER:
        return {"name": NATIVE_SCORER}
    head = peer_scorer_header(name)
    return {
        "name": head.pop("name"),
        "version": head.pop("version"),
        "answer_profiles_version": PROFILE_VERSION,
        **head,
    }
