"""umb (UnifiedMemBench): measure memory in LLMs and LLM memory systems.

The verbs::

    bench = umb.generate("bench", preset="demo")        # world -> dialogues -> questions
    outcome = umb.evaluate("bench", out="run", systems="rag_bm25", top_k=3)
    umb.import_benchmark("locomo10.json", "locomo", "locomo")  # source, format, destination
    umb.export_benchmark("bench", "longmemeval", "bench.json")
    umb.score("locomo", "answers.jsonl", "scored", ["locomo_f1", "mem0_f1"])  # outside answers

and the records they read and write (:class:`Benchmark`, :class:`Question`, …). Everything else
lives in the subpackages (docs/architecture.md).
"""

from __future__ import annotations

import typing

from umb._errors import (
    ConfigError,
    DataError,
    EndpointError,
    EndpointTimeout,
    MissingDependencyError,
    RateLimited,
    UmbError,
)
from umb._lazy import lazy_names as _lazy_names
from umb._version import __version__

if typing.TYPE_CHECKING:
    from umb.bench import Benchmark, Dialogue, Evidence, Fact, Question, Session, Turn
    from umb.interop import InteropLog
    from umb.memory import MemoryConfig
    from umb.models import ModelOptions
    from umb.pipeline import GenerateConfig
    from umb.pipeline._api import (
        evaluate,
        export_benchmark,
        generate,
        import_benchmark,
        load_benchmark,
        score,
    )
    from umb.run import RunConfig, RunOutcome, ScoreOutcome

# The verbs and records load on first use, so ``import umb`` (and ``umb --help``) stays fast.
_LAZY: dict[str, str] = {
    **dict.fromkeys(
        ("Benchmark", "Dialogue", "Evidence", "Fact", "Question", "Session", "Turn"), "umb.bench"
    ),
    **dict.fromkeys(
        ("evaluate", "export_benchmark", "generate", "import_benchmark", "load_benchmark", "score"),
        "umb.pipeline._api",
    ),
    "GenerateConfig": "umb.pipeline._generate",
    "InteropLog": "umb.interop",
    "MemoryConfig": "umb.memory",
    "ModelOptions": "umb.models",
    "RunConfig": "umb.run",
    "RunOutcome": "umb.run",
    "ScoreOutcome": "umb.run",
}


__getattr__, __dir__ = _lazy_names("umb", _LAZY, globals())


__all__ = [
    "Benchmark",
    "ConfigError",
    "DataError",
    "Dialogue",
    "EndpointError",
    "EndpointTimeout",
    "Evidence",
    "Fact",
    "GenerateConfig",
    "InteropLog",
    "MemoryConfig",
    "MissingDependencyError",
    "ModelOptions",
    "Question",
    "RateLimited",
    "RunConfig",
    "RunOutcome",
    "ScoreOutcome",
    "Session",
    "Turn",
    "UmbError",
    "__version__",
    "evaluate",
    "export_benchmark",
    "generate",
    "import_benchmark",
    "load_benchmark",
    "score",
]
