"""Inputs the benchmark already holds: a trace refers to them instead of copying their text.

A run's traces would otherwise hold every turn once per memory system, and a RAG system's
units a second time (a unit is the transcript of its turns). From format version 2 a trace
written with ``TraceConfig(inputs=...)`` records a turn it reads by its identity only (no
``src`` or ``val`` record), and a value that is the transcript of some turns as a ``val``
record with their ids (``"turns": [...]``) instead of the text. The header's ``meta["inputs"]``
names the benchmark (its content hash and its path relative to the trace's folder); the reader
fetches the texts from it when a value is asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from umb._errors import DataError
from umb.bench import Benchmark, Dialogue, Turn

TURN_PREFIX = "turn:"
"""Identities of benchmark turns start with this (``turn_var``)."""


def transcript(turns: Iterable[Turn]) -> str:
    """The text of a transcript value: ``speaker: text`` per turn, one per line."""
    return "\n".join(f"{t.speaker}: {t.text}" for t in turns)


@dataclass(frozen=True, slots=True)
class TurnTranscript:
    """A value written as its turns' transcript; a trace with inputs stores only the ids.

    Its content hash is the hash of :attr:`text`, so it equals that of the same text written
    as a plain string.
    """

    turn_ids: tuple[str, ...]
    text: str

    @classmethod
    def of(cls, turns: Sequence[Turn]) -> TurnTranscript:
        """The transcript of ``turns``."""
        return cls(tuple(t.id for t in turns), transcript(turns))


@dataclass(frozen=True)
class InputsRef:
    """Where the inputs of a trace are: written into the header as ``meta["inputs"]``."""

    benchmark: str
    """The benchmark's content hash."""
    path: str
    """The benchmark directory, relative to the trace file's folder (or absolute)."""

    def to_meta(self) -> dict[str, str]:
        """The header entry."""
        return {"benchmark": self.benchmark, "path": self.path}


class BenchmarkTurns:
    """Turns of a benchmark by id, read on first use (only the dialogues asked for).

    Args:
        root: The benchmark directory.
        content_hash: The hash the trace names; a benchmark with another content is refused.
        dialogue_ids: Only keep the turns of these dialogues (``None``: every dialogue).
        source: The trace file, for error messages.
    """

    def __init__(
        self,
        root: Path,
        content_hash: str | None = None,
        dialogue_ids: Iterable[str] | None = None,
        source: str = "",
    ) -> None:
        self.root = root
        self.content_hash = content_hash
        self.dialogue_ids = None if dialogue_ids is None else frozenset(dialogue_ids)
        self.source = source
        self._turns: dict[str, Turn] | None = None

    @classmethod
    def of(cls, dialogues: Iterable[Dialogue]) -> BenchmarkTurns:
        """Turns already loaded (no file is read)."""
        found = cls(Path("."))
        found._turns = {t.id: t for d in dialogues for s in d.sessions for t in s.turns}
        return found

    def get(self, turn_id: str) -> Turn | None:
        """The turn ``turn_id``, or ``None`` when the benchmark has no such turn."""
        turns = self._turns if self._turns is not None else self._load()
        return turns.get(turn_id)

    def _load(self) -> dict[str, Turn]:
        where = self.source or str(self.root)
        try:
            bench = Benchmark.open(self.root)
        except DataError:
            raise DataError(where, None, f"the benchmark it refers to is not at {self.root}; "
                            "read it with read_trace(path, inputs=...)") from None  # fmt: skip
        if self.content_hash is not None and bench.content_hash != self.content_hash:
            raise DataError(where, None, f"{self.root} is not the benchmark this trace was "
                            f"made on (content hash {self.content_hash[:12]}…)")  # fmt: skip
        self._turns = {
            t.id: t
            for d in bench.iter_dialogues(self.dialogue_ids)
            for s in d.sessions
            for t in s.turns
        }
        return self._turns


def inputs_of(meta: dict[str, Any], trace_path: Path, dialogues: Iterable[str]) -> BenchmarkTurns:
    """The benchmark a trace's header names (``meta["inputs"]``), read lazily."""
    ref = meta["inputs"]
    root = Path(str(ref.get("path", "")))
    if not root.is_absolute():
        root = trace_path.parent / root
    return BenchmarkTurns(root, ref.get("benchmark"), dialogues, str(trace_path))
