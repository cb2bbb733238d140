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
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import Any, Final

from umb._errors import ConfigError
from umb.bench import Benchmark
from umb.memory import (
    GRANULARITIES,
    Granularity,
    MemoryConfig,
    memory_system_class,
    memory_system_names,
)
from umb.models import (
    PROVIDERS,
    STRUCTURED_OUTPUTS,
    ModelOptions,
    StructuredOutput,
    spec_provider,
    unread_options,
)
from umb.run._options import ExecutorOptions, ScoringOptions
from umb.run._profiles import PROFILE_VERSION
from umb.run._prompts import PROMPT_VERSION
from umb.scoring import (
    AGGREGATE_VERSION,
    JUDGE_PROMPT_VERSION,
    NATIVE_SCORER,
    SCORERS,
    check_scorer,
    peer_scorer_header,
)

RUN_FORMAT: Final = "umb-run"
RUN_FORMAT_VERSION: Final = 1

#: Packages whose versions the header records (those that can change a number).
_PACKAGES: Final = (
    "unifiedmembench", "numpy", "bm25s", "wordllama", "h11", "httpx", "rapidfuzz",
    "llama_cpp_python",
)  # fmt: skip


@dataclass(frozen=True)
class RunConfig:
    """Everything ``umb eval`` needs to know: what to run, and the option groups of each layer.

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
    extractor: str = "offline"
    """The memory systems' own model (``mem0_style``, ``summary``); ``offline`` = rule-based."""
    limit: int | None = None
    """Evaluate only the first N questions of the benchmark (file order)."""
    question_ids: frozenset[str] | None = None
    """Evaluate only these questions (after ``limit``); how an executor hands out one unit."""
    options: ModelOptions = field(default_factory=ModelOptions)
    """Endpoint, key variable, concurrency (dialogues at once, and requests in flight per model),
    timeout and retries of every model. ``cache_path`` None here means ``OUT/cache.sqlite``."""
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    """top-k, granularity and the input-token budget of the memory systems."""
    scoring: ScoringOptions = field(default_factory=ScoringOptions)
    """Scorer, parse policy, judge votes and the bootstrap seed."""
    executor: ExecutorOptions = field(default_factory=ExecutorOptions)
    """Where the (system, dialogue) units run: this process or a Ray cluster."""
    cache: bool = True
    """Use the response cache."""
    max_tokens: int = 1024
    """Answer length limit."""
    retry_errors: bool = False
    """On resume, ask again the questions whose model call failed."""
    trace: bool = True
    """Record every memory operation to ``OUT/traces/<system>.jsonl.gz`` (``--no-trace``: off)."""

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
        check_scorer(self.scoring.scorer, self.judge)
        specs = list(dict.fromkeys(s for s in (self.model, self.judge, self.extractor) if s))
        for name in unread_options(self.options, specs):
            takes = " or ".join(p.form for p in PROVIDERS.values() if name in p.options)
            raise ConfigError(
                f"{name} is an option of {takes or 'no backend'}; none of this run's models "
                f"({', '.join(specs)}) reads it"
            )

    @property
    def resolved_cache_path(self) -> Path | None:
        """Where the response cache lives, or None when caching is off."""
        if not self.cache:
            return None
        path = self.options.cache_path
        return path if path is not None else self.out / "cache.sqlite"

    @property
    def model_options(self) -> ModelOptions:
        """The options every model of the run is loaded with (the cache resolved)."""
        return replace(self.options, cache_path=self.resolved_cache_path)


def parse_systems(text: str) -> tuple[str, ...]:
    """``"a,b , c"`` -> ``("a", "b", "c")``."""
    return tuple(s.strip() for s in text.split(",") if s.strip())


def parse_structured_output(text: str) -> StructuredOutput:
    """Check a ``--structured-output`` value."""
    for mode in STRUCTURED_OUTPUTS:
        if mode == text:
            return mode
    raise ConfigError(
        f"--structured-output must be one of {', '.join(STRUCTURED_OUTPUTS)}, not {text!r}"
    )


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
    base_url = config.options.base_url
    uses_api = any(
        (found := spec_provider(spec)) is not None and found.endpoint
        for spec in (config.model, config.judge, config.extractor)
        if spec
    )
    scoring = config.scoring
    native_judge = bool(config.judge) and scoring.scorer == NATIVE_SCORER
    endpoint: dict[str, Any] = {
        "base_url": public_url(base_url) if uses_api else None,
        "api_key_env": config.options.api_key_env if uses_api else None,
    }
    if uses_api and config.options.replicas:
        endpoint["replicas"] = [public_url(u) for u in config.options.replicas]
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
        "endpoint": endpoint,
        "parameters": {
            "top_k": config.memory.top_k,
            "granularity": config.memory.granularity,
            "max_input_tokens": config.memory.max_input_tokens,
            "policy": scoring.policy,
            "structured_output": config.options.structured_output,
            "max_tokens": config.max_tokens,
            "temperature": 0.0,
            "judge_votes": scoring.judge_votes if native_judge else None,
            "prompt_version": PROMPT_VERSION,
            "judge_prompt_version": JUDGE_PROMPT_VERSION if native_judge else None,
        },
        "scorer": scorer_header(scoring.scorer),
        "scorers": {fam: f"{s.name}@{s.version}" for fam, s in sorted(SCORERS.items())},
        "aggregate_version": AGGREGATE_VERSION,
        "seed": scoring.seed,
        "versions": _versions(),
    }


def _identity(header: dict[str, Any]) -> dict[str, Any]:
    return {
        "format_version": header.get("format_version"),
        "benchmark": (header.get("benchmark") or {}).get("content_hash"),
        "models": header.get("models"),
        # Runs made before --structured-output existed sent no schema.
        "parameters": {"structured_output": "off", **(header.get("parameters") or {})},
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
