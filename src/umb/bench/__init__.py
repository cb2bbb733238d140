"""The benchmark directory: records, reading and writing, manifest, validation, stats.

The text statistics (``style_stats``) load on first use: they need bm25s, which nothing else
reading a benchmark should pay for.
"""

import importlib
from typing import Any

from umb.bench._io import (
    BENCH_FILES,
    DIALOGUES,
    FACTS,
    FORMAT_NAME,
    FORMAT_VERSION,
    MANIFEST,
    QUESTIONS,
    WORLD,
    Benchmark,
    holds_wanted_id,
)
from umb.bench._records import (
    TEMPLATE,
    Dialogue,
    Evidence,
    Fact,
    Interlocutor,
    Question,
    Session,
    Turn,
)
from umb.bench._stats import benchmark_stats, format_stats
from umb.bench._validate import check
from umb.bench._write import sha256_file, write_benchmark, write_manifest, write_world

_LAZY = {
    "format_style": "umb.bench._style",
    "recall_at_5": "umb.bench._style",
    "style_stats": "umb.bench._style",
}

__all__ = [
    "DIALOGUES",
    "FACTS",
    "MANIFEST",
    "QUESTIONS",
    "TEMPLATE",
    "WORLD",
    "holds_wanted_id",
    "sha256_file",
    "write_benchmark",
    "write_manifest",
    "write_world",
    "BENCH_FILES",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "Benchmark",
    "Dialogue",
    "Evidence",
    "Fact",
    "Interlocutor",
    "Question",
    "Session",
    "Turn",
    "benchmark_stats",
    "check",
    "format_stats",
    "format_style",
    "recall_at_5",
    "style_stats",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'umb.bench' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
