"""The benchmark directory: records, reading and writing, manifest, validation, stats."""

from umb.bench._io import BENCH_FILES, FORMAT_NAME, FORMAT_VERSION, Benchmark
from umb.bench._records import (
    Dialogue,
    Evidence,
    Fact,
    Interlocutor,
    Question,
    Session,
    Turn,
)

__all__ = [
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
]
