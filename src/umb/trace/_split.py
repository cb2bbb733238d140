"""A trace file read one dialogue at a time, each dialogue handed over once it is complete.

A system's trace holds every dialogue of a run; attribution and the memory metrics look at one
dialogue at a time (a question reads only what its own dialogue's ingest wrote). Reading the file
in one pass and building a :class:`~umb.trace.Trace` per dialogue, as soon as its scopes have
ended, keeps only the dialogues still being written in memory, plus the values they may still
refer to. A value is stored once, by the first dialogue that wrote it, until a ``forget`` record
(written when the runner is done with that dialogue) lets it go: the tracer stores it again if
it is used after that, so a value listed there is dropped once every dialogue open when the
record was read has been handed over, unless a later value record stored it again or a source
refers to it. Files without ``forget`` records keep every value to the end.

A dialogue is complete when its dialogue scope has ended (committed or aborted) and every scope
begun inside it (its questions) has too. A resumed trace can add attempts of a dialogue after it
was handed over (a replayed scope's ``begin``, a diverged replay): that dialogue is read again
at the end, in a second pass, and handed over once more (``again``), superseding the first.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from umb._errors import DataError
from umb.trace._file import RawTrace, TraceLines
from umb.trace._gc import paused_gc
from umb.trace._graph import Trace
from umb.trace._inputs import BenchmarkTurns, inputs_of
from umb.trace._reader import build_trace, check_trace_format
from umb.trace._resume import fill_op, select
from umb.trace._tail import Record

#: Bytes read between two calls of a pass's ``advance`` callback.
CHUNK = 1 << 20

Advance = Callable[[int], None]
"""``advance(n)``: ``n`` more bytes of the file read (every :data:`CHUNK` or so, and at the end)."""

# Records that belong to no scope and are kept whatever the dialogues asked for.
_UNSCOPED = frozenset({"open", "close", "src"})


def iter_records(path: Path, advance: Advance | None = None) -> Iterator[tuple[int, Any]]:
    """``(line number, record)`` per line of a trace file, plain or compressed; the record is
    None for a torn or unparseable last line, as :func:`umb.trace._file.scan_trace` treats it.

    Raises:
        DataError: The file is missing, or a line before the last is not a trace record.
    """
    lines = TraceLines(path)
    size = path.stat().st_size
    told = 0
    lineno, pending = 0, None
    for line in lines:
        if advance is not None and lineno % 1024 == 0 and (at := lines.position()) - told >= CHUNK:
            advance(at - told)
            told = at
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
    if pending is not None or lines.torn:
        yield pending or lineno + 1, None
    if advance is not None and size > told:
        advance(size - told)


@dataclass(frozen=True)
class DialogueTrace:
    """The trace of one or more dialogues of a trace file.

    Attributes:
        dialogue_ids: The dialogues it holds (one, but for a second pass, which reads several).
        trace: Their scopes' kept attempts, the values they wrote and the file's top records.
        again: A second reading of dialogues handed over before (a resumed run recorded more of
            them afterwards): it supersedes what was made of the first.
    """

    dialogue_ids: tuple[str, ...]
    trace: Trace
    again: bool = False


@dataclass
class _Drop:
    """Values a ``forget`` record let go, dropped when the dialogues open then are all done."""

    hashes: list[str]
    waiting: set[str]


@dataclass
class _Open:
    """A dialogue still being read: its records, and how many of its scopes are running."""

    records: list[Record] = field(default_factory=list)
    hashes: set[str] = field(default_factory=set)
    running: int = 0
    scope: str | None = None
    ended: bool = False


class DialogueSplitter:
    """Sorts a trace file's records into dialogues as they are read (see the module docstring).

    Args:
        path: The trace file (for messages and for the benchmark its header names).
        inputs: The benchmark turns the trace refers to (read from the header's benchmark when
            a value needs them and this is None).
    """

    def __init__(self, path: Path, inputs: BenchmarkTurns | None = None) -> None:
        self.path = path
        self.inputs = inputs
        self.values: dict[str, dict[str, Any]] = {}
        self.torn_tail = False
        self.taken: set[str] = set()
        self.again: set[str] = set()
        """Dialogues handed over that the file recorded more of afterwards."""
        self._opens: list[Record] = []
        self._sources: list[Record] = []
        self._top: list[Record] = []  # scopes no dialogue owns: the run's top scope
        self._owner: dict[str, str | None] = {}
        self._open: dict[str, _Open] = {}
        self._drops: list[_Drop] = []
        self._dropping: dict[str, _Drop] = {}  # value hash -> the latest drop that lists it
        self._source_values: set[str] = set()

    def feed(self, lineno: int, rec: dict[str, Any]) -> str | None:
        """Sort one record; returns the dialogue it completed, if any."""
        t = rec["t"]
        if t == "val":
            self.values.setdefault(rec["h"], rec)
            self._dropping.pop(rec["h"], None)  # stored again: in use again
            return None
        if t == "forget":
            drop = _Drop([str(h) for h in rec.get("h") or ()], set(self._open))
            for h in drop.hashes:
                self._dropping[h] = drop
            self._drops.append(drop)
            self._release()
            return None
        if t == "src":
            self._sources.append((lineno, rec))
            if rec.get("h"):
                self._source_values.add(rec["h"])
            return None
        if t == "open":
            check_trace_format(RawTrace(self.path, [(lineno, rec)]))
            self._opens.append((lineno, rec))
            if len(self._opens) > 1:
                # The writer of the earlier opens is gone: their unfinished scopes never end.
                for d in self._open.values():
                    d.running = 0
            return None
        if t == "close":
            return None
        if t == "op":
            fill_op(rec)
        scope = str(rec.get("scope"))
        if t == "begin":
            owner = (rec.get("attrs") or {}).get("dialogue_id")
            self._owner[scope] = owner if isinstance(owner, str) else None
        owner = self._owner.get(scope)
        if owner is None:
            self._top.append((lineno, rec))
            return None
        if owner in self.taken:
            self.again.add(owner)
            return None
        d = self._open.get(owner) or self._open.setdefault(owner, _Open())
        d.records.append((lineno, rec))
        if t == "op":
            d.hashes.update(w[2] for w in rec["writes"] if len(w) > 2 and w[2])
        elif t == "begin":
            d.running += 1
            if rec.get("kind") == "dialogue":
                d.scope, d.ended = scope, False
        elif t in ("commit", "abort"):
            d.running -= 1
            d.ended = d.ended or scope == d.scope
            if d.ended and d.running <= 0:
                return owner
        return None

    def take(self, dialogue_id: str) -> Trace:
        """The trace of a dialogue read so far; its records are dropped here."""
        d = self._open.pop(dialogue_id)
        self.taken.add(dialogue_id)
        trace = self._build([dialogue_id], d.records, d.hashes)
        self._done(dialogue_id)
        return trace

    def drop(self, dialogue_id: str) -> None:
        """Forget a dialogue read so far, unbuilt."""
        del self._open[dialogue_id]
        self.taken.add(dialogue_id)
        self._done(dialogue_id)

    def _done(self, dialogue_id: str) -> None:
        if self._drops:
            for drop in self._drops:
                drop.waiting.discard(dialogue_id)
            self._release()

    def _release(self) -> None:
        """Drop the values of every ``forget`` no open dialogue holds back any more."""
        while self._drops and not self._drops[0].waiting:
            drop = self._drops.pop(0)
            for h in drop.hashes:
                if self._dropping.get(h) is drop:
                    # Unlisted even when a source keeps the value: the drop's lists must go.
                    del self._dropping[h]
                    if h not in self._source_values:
                        self.values.pop(h, None)

    def unfinished(self) -> list[str]:
        """Dialogues whose scopes had not all ended when the file did (in the order begun)."""
        return list(self._open)

    def _build(self, dialogue_ids: list[str], records: list[Record], hashes: set[str]) -> Trace:
        raw = RawTrace(self.path, [*self._opens, *self._top, *self._sources, *records])
        hashes.update(rec["h"] for _, rec in self._sources if rec.get("h"))
        raw.records += [(0, self.values[h]) for h in hashes if h in self.values]
        try:
            trace = build_trace(select(raw))
        except ValueError as e:
            raise DataError(str(self.path), None, f"bad trace record ({e})") from None
        trace.torn_tail = self.torn_tail
        if "inputs" in trace.meta:
            trace.inputs = self.inputs or inputs_of(trace.meta, self.path, dialogue_ids)
        return trace


def iter_dialogue_traces(
    path: Path,
    *,
    inputs: BenchmarkTurns | None = None,
    keep: Callable[[str], bool] | None = None,
    advance: Advance | None = None,
) -> Iterator[DialogueTrace]:
    """Each dialogue of a trace file as soon as it is complete, in one pass (see the module
    docstring). Dialogues for which ``keep`` is false are dropped unbuilt; ``advance`` is told
    the bytes read. The garbage collector is paused while a dialogue is built (what is built is
    acyclic, and full collections walking it would cost more than building it).

    Raises:
        DataError: As :func:`umb.trace.read_trace` does.
    """
    split = DialogueSplitter(path, inputs)
    wanted = keep or (lambda _d: True)

    def built(did: str) -> DialogueTrace | None:
        if not wanted(did):
            split.drop(did)
            return None
        with paused_gc():
            return DialogueTrace((did,), split.take(did))

    for lineno, rec in iter_records(path, advance):
        if rec is None:
            split.torn_tail = True
            continue
        done = split.feed(lineno, rec)
        if done is not None and (got := built(done)) is not None:
            yield got
    for did in split.unfinished():
        if (got := built(did)) is not None:
            yield got
    again = sorted(d for d in split.again if wanted(d))
    if again:
        with paused_gc():
            trace = read_dialogues(path, again, inputs=inputs)
        yield DialogueTrace(tuple(again), trace, again=True)


def read_dialogues(
    path: Path,
    dialogue_ids: Collection[str],
    advance: Advance | None = None,
    *,
    inputs: BenchmarkTurns | None = None,
) -> Trace:
    """The trace of only ``dialogue_ids`` (two streaming passes over the file: the first keeps
    their records, the second only the values those refer to; ``advance`` is told the bytes
    read, twice the file's size in all).

    Raises:
        DataError: As :func:`umb.trace.read_trace` does.
    """
    wanted = set(dialogue_ids)
    raw = RawTrace(path)
    scopes: dict[str, bool] = {}  # scope -> kept
    hashes: set[str] = set()
    for lineno, rec in iter_records(path, advance):
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
    for lineno, rec in iter_records(path, advance):
        if rec is not None and rec["t"] == "val" and rec["h"] in hashes:
            raw.records.append((lineno, rec))
    check_trace_format(raw)
    trace = build_trace(select(raw))
    trace.torn_tail = raw.torn_tail
    if "inputs" in trace.meta:
        trace.inputs = inputs or inputs_of(trace.meta, path, sorted(wanted))
    return trace
