"""A run's trace read in a streaming pass: counts of its operations, without the whole trace in
memory.

A system's trace of a long run holds every operation of every dialogue; a page that shows
counts and a few pictures needs neither all of it at once nor its graph. :func:`summarize_trace`
counts the operations of each scope's kept attempt (the rule of :mod:`umb.trace._resume`) line by
line (the trace of a few dialogues is :func:`umb.trace.read_dialogues`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from umb.trace import CHUNK, Advance, RawTrace, check_trace_format, fill_op, iter_records

__all__ = ["CHUNK", "Advance", "TraceSummary", "summarize_trace"]

#: ``(operation name, category) -> label`` under which :func:`summarize_trace` counts it.
Categorize = Callable[[str, str], str]


@dataclass
class TraceSummary:
    """What one streaming pass over a trace file found.

    Attributes:
        counts: Operations of the kept attempts, by label.
        issues: Problems seen without building the graph: replays that diverged, a torn last line.
        dialogues: Dialogue scopes in the file.
    """

    counts: Counter[str] = field(default_factory=Counter)
    issues: list[str] = field(default_factory=list)
    dialogues: int = 0

    @property
    def ops(self) -> int:
        """Operations in all."""
        return sum(self.counts.values())


def summarize_trace(
    path: Path, categorize: Categorize, advance: Advance | None = None
) -> TraceSummary:
    """Count the operations of a trace file by ``categorize(op)``, in one pass (``advance``
    is told the bytes read as it goes).

    Raises:
        DataError: As :func:`umb.trace.read_trace` does.
    """
    per: dict[tuple[str, int], Counter[str]] = {}
    committed: set[tuple[str, int]] = set()
    summary = TraceSummary()
    raw = RawTrace(path)
    for lineno, rec in iter_records(path, advance):
        if rec is None:
            summary.issues.append("the last line is torn (a writer was killed)")
            continue
        t = rec["t"]
        if t == "op":
            fill_op(rec)
            label = categorize(rec["name"], rec.get("cat", "operation"))
            per.setdefault((rec["scope"], rec["a"]), Counter())[label] += 1
        elif t == "begin":
            per.setdefault((rec["scope"], rec.get("a", 1)), Counter())
            summary.dialogues += rec.get("kind") == "dialogue" and rec.get("a", 1) == 1
        elif t == "commit":
            committed.add((rec["scope"], rec.get("a", 1)))
        elif t == "diverged":
            summary.issues.append(f"replay of scope {rec['scope']} diverged: "
                                  f"{rec.get('detail', '')}")  # fmt: skip
        elif t == "open":
            raw.records.append((lineno, rec))
    check_trace_format(raw)
    attempts: dict[str, list[int]] = {}
    for scope, a in per:
        attempts.setdefault(scope, []).append(a)
    for scope, tries in attempts.items():
        done = [a for a in tries if (scope, a) in committed]
        summary.counts.update(per[(scope, max(done or tries))])
    return summary
