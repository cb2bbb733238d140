"""A run's trace read in a streaming pass: counts of its operations, and the trace of a few
dialogues, without the whole trace in memory.

A system's trace of a long run holds every operation of every dialogue; a page that shows
counts and a few pictures needs neither all of it at once nor its graph. :func:`summarize_trace`
counts the operations of each scope's kept attempt (the rule of :mod:`umb.trace._resume`) line by
line; :func:`read_dialogues` keeps only the records of the given dialogues (their dialogue and
question scopes, the values those write, the run's top scope) and builds a
:class:`~umb.trace.Trace` of them with the reader's own code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from umb._errors import DataError
from umb.trace import Trace
from umb.trace._file import RawTrace
from umb.trace._inputs import inputs_of
from umb.trace._reader import _check_format, build_trace
from umb.trace._resume import fill_op, select

#: ``(operation name, category) -> label`` under which :func:`summarize_trace` counts it.
Categorize = Callable[[str, str], str]

# Records that belong to no scope and are kept whatever the dialogues asked for.
_UNSCOPED = frozenset({"open", "close", "src"})


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


#: Bytes read between two calls of a pass's ``advance`` callback.
CHUNK = 1 << 20

Advance = Callable[[int], None]
"""``advance(n)``: ``n`` more bytes of the file read (every :data:`CHUNK` or so, and at the end)."""


def _lines(path: Path, advance: Advance | None) -> Iterator[tuple[int, dict[str, Any] | None]]:
    """``(line number, record)`` per line; the record is None for a torn or unparseable last
    line, as :func:`umb.trace._file.scan_trace` treats it.

    Raises:
        DataError: The file is missing, or a line before the last is not a trace record.
    """
    if not path.exists():
        raise DataError(str(path), None, "missing trace file")
    read = 0
    with path.open("rb") as f:
        lineno, pending = 0, None
        for line in f:
            read += len(line)
            if advance is not None and read >= CHUNK:
                advance(read)
                read = 0
            if pending is not None:  # the bad line was not the last one
                raise DataError(str(path), pending, "bad trace record")
            lineno += 1
            if not line.strip():
                continue
            try:
                rec = orjson.loads(line) if line.endswith(b"\n") else None
            except orjson.JSONDecodeError:
                rec = None
            if not isinstance(rec, dict) or "t" not in rec:
                pending = lineno
                continue
            yield lineno, rec
        if pending is not None:
            yield pending, None
    if advance is not None and read:
        advance(read)


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
    for lineno, rec in _lines(path, advance):
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
    _check_format(raw)
    attempts: dict[str, list[int]] = {}
    for scope, a in per:
        attempts.setdefault(scope, []).append(a)
    for scope, tries in attempts.items():
        done = [a for a in tries if (scope, a) in committed]
        summary.counts.update(per[(scope, max(done or tries))])
    return summary


def read_dialogues(
    path: Path, dialogue_ids: Collection[str], advance: Advance | None = None
) -> Trace:
    """The trace of only ``dialogue_ids`` (two streaming passes over the file; ``advance`` is
    told the bytes read, twice the file's size in all).

    Raises:
        DataError: As :func:`umb.trace.read_trace` does.
    """
    wanted = set(dialogue_ids)
    raw = RawTrace(path)
    scopes: dict[str, bool] = {}  # scope -> kept
    hashes: set[str] = set()
    for lineno, rec in _lines(path, advance):
        if rec is None:
            raw.torn_tail = True
            continue
        t = rec["t"]
        if t == "val":
            continue  # the second pass keeps those the kept records refer to
        if t == "begin":
            owner = (rec.get("attrs") or {}).get("dialogue_id")
            scopes[rec["scope"]] = owner is None or owner in wanted
        elif t == "op":
            fill_op(rec)
        if t not in _UNSCOPED and not scopes.get(str(rec.get("scope")), True):
            continue
        if t == "op":
            hashes.update(w[2] for w in rec["writes"] if len(w) > 2)
        elif t == "src" and rec.get("h"):
            hashes.add(rec["h"])
        raw.records.append((lineno, rec))
    for lineno, rec in _lines(path, advance):
        if rec is not None and rec["t"] == "val" and rec["h"] in hashes:
            raw.records.append((lineno, rec))
    _check_format(raw)
    trace = build_trace(select(raw))
    trace.torn_tail = raw.torn_tail
    if "inputs" in trace.meta:
        trace.inputs = inputs_of(trace.meta, path, sorted(wanted))
    return trace
