"""The recording tracer: operations, versions, values and scopes, streamed to a JSONL file."""

from __future__ import annotations

import functools
import itertools
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from hashlib import sha256 as _sha256
from pathlib import Path
from typing import Any

from umb._errors import ConfigError
from umb.trace._context import _SCOPE, ScopeState
from umb.trace._file import (
    FORMAT_NAME,
    FORMAT_VERSION,
    TraceFileWriter,
    dump_record,
    is_compressed,
    scan_trace,
)
from umb.trace._ids import HASH_CHARS, digest, utf8
from umb.trace._inputs import TURN_PREFIX, InputsRef, TurnTranscript
from umb.trace._null import NULL_TRACER, BaseTracer, OpHandle
from umb.trace._op import _Op
from umb.trace._resume import ResumeState, resume_state

_perf_ns = time.perf_counter_ns

# Input texts (a dialogue's turns) are registered by every tracer of a run, one per memory
# system: their hash and value record are made once per process. Bounded, so a long-lived process
# does not keep every text it ever traced.
_TEXTS: dict[str, tuple[str, bytes]] = {}
_TEXTS_MAX = 50_000
_TEXT_CACHED_CHARS = 1024  # long values (contexts) are rarely seen twice


@dataclass(frozen=True)
class TraceConfig:
    """How a tracer writes its file."""

    flush_every: int = 256
    """Write the buffer once this many records are queued (a crash loses at most these)."""
    flush_on_scope_end: bool = True
    """Also write the buffer whenever a scope (a question, a dialogue) ends."""
    fsync: bool = False
    """fsync after each write: survives power loss, not only a killed process; slower."""
    max_error_chars: int = 500
    """Exception messages are cut to this length."""
    inputs: InputsRef | None = None
    """The benchmark the traced work reads: its turns and their transcripts are then recorded
    by id, not copied (see :mod:`umb.trace._inputs`)."""


class _Scope:
    """Context manager of one scope (see :meth:`Tracer.scope`)."""

    __slots__ = ("_tr", "key", "kind", "attrs", "state", "_token")

    def __init__(self, tracer: Tracer, key: str, kind: str, attrs: dict[str, Any]) -> None:
        self._tr = tracer
        self.key = key
        self.kind = kind
        self.attrs = attrs

    def __enter__(self) -> ScopeState:
        self.state = self._tr._begin_scope(self.key, self.kind, self.attrs)
        self._token = _SCOPE.set(self.state)
        return self.state

    def __exit__(self, exc_type: type[BaseException] | None, exc: object, tb: object) -> None:
        _SCOPE.reset(self._token)
        err = None if exc_type is None else f"{exc_type.__name__}: {exc}"
        self._tr._end_scope(self.state, err)


class Tracer(BaseTracer):
    """Records operations to an append-only JSONL trace file.

    Args:
        path: The trace file (usually ``RUN_DIR/traces/<system>.jsonl.gz``); a name ending in
            ``.gz`` is written compressed, one gzip member per batch.
        config: Buffering and flushing settings.
        meta: Free run description for the header (system, models, benchmark).
        resume: Continue an existing file: committed scopes replay silently, unfinished ones
            start a new attempt that supersedes the old one (see docs/tracing.md).

    Raises:
        ConfigError: The file exists and ``resume`` is false.
    """

    enabled = True

    def __init__(
        self,
        path: str | Path,
        *,
        config: TraceConfig | None = None,
        meta: dict[str, Any] | None = None,
        resume: bool = False,
    ) -> None:
        self.path = Path(path)
        self.config = config or TraceConfig()
        exists = self.path.exists() and self.path.stat().st_size > 0
        if exists and not resume:
            raise ConfigError(f"{self.path}: trace exists; resume it or choose another run dir")
        raw = scan_trace(self.path) if exists else None
        self._state: ResumeState = resume_state(raw)
        self._lock = threading.RLock()  # _register_source holds it while numbering a version
        self._seq = itertools.count(self._state.next_seq)
        self._cur = self._state.current
        self._max = self._state.max_version
        self._ver: dict[str, Iterator[int]] = {}
        self._seen = self._state.value_hashes
        self._first: dict[str, list[str]] = {}  # dialogue id -> value hashes first queued in it
        self._attempts = self._state.attempts
        self._prior_seq = self._state.prior_seq
        self._committed_now: set[str] = set()
        self._owned: dict[str, list[str]] = {}  # dialogue id -> identities first seen in it
        self.divergences: list[str] = []
        self._wall0 = time.time()
        self._perf0 = _perf_ns()
        # The wall clock at open in units of 0.1 ms, the precision of an op's "start": ops add
        # whole units to it (round() of a float costs more than the rest of the stamp).
        self._wall0_units = round(self._wall0 * 10_000)
        self._file = TraceFileWriter(
            self.path,
            flush_every=self.config.flush_every,
            fsync=self.config.fsync,
            compress=is_compressed(self.path),
        )
        self._queue = self._file.queue
        self._flush_every = self.config.flush_every
        # A C-level partial saves the module-level ``operation()`` one Python frame per call.
        self._op = functools.partial(_Op, self)  # type: ignore[method-assign]
        if raw is not None:
            self._file.cut_torn_tail(raw.valid_bytes)
        self.open_no = self._state.opens + 1
        self._inputs = self.config.inputs
        header = dict(meta or {})
        if self._inputs is not None:
            header["inputs"] = self._inputs.to_meta()
        self._file.append(
            {"t": "open", "format": FORMAT_NAME, "version": FORMAT_VERSION,
             "open": self.open_no, "time": self._wall0, "meta": header}
        )  # fmt: skip
        self._root = self._begin_scope(f"run{self.open_no}", "run", {}, top=True)
        self._closed = False

    # -- public API --------------------------------------------------------------------------

    def operation(
        self,
        name: str,
        category: str = "operation",
        *,
        reads: Iterable[str | tuple[str, Any]] = (),
        writes: Iterable[str | tuple[str, Any]] = (),
        model: str | None = None,
        **attrs: Any,
    ) -> OpHandle:
        return _Op(self, name, category, reads, writes, model, attrs)

    def scope(self, key: str, kind: str = "scope", **attrs: Any) -> _Scope:
        return _Scope(self, key, kind, attrs)

    def dialogue(self, dialogue_id: str, **attrs: Any) -> _Scope:
        return _Scope(self, dialogue_id, "dialogue", {"dialogue_id": dialogue_id, **attrs})

    def question(self, question_id: str, dialogue_id: str | None = None, **attrs: Any) -> _Scope:
        a: dict[str, Any] = {"question_id": question_id}
        if dialogue_id is not None:
            a["dialogue_id"] = dialogue_id
        return _Scope(self, question_id, "question", {**a, **attrs})

    def source(self, identity: str, value: Any = ...) -> None:
        self._register_source(identity, value, force=True)

    def is_committed(self, key: str) -> bool:
        return key in self._state.committed or key in self._committed_now

    def forget(self, dialogue_id: str) -> None:
        with self._lock:
            for identity in self._owned.pop(dialogue_id, ()):
                self._cur.pop(identity, None)
                self._max.pop(identity, None)
                self._ver.pop(identity, None)
            hashes = self._first.pop(dialogue_id, None)
            if hashes:
                # Queued with the removal, so every later use of these values is preceded by
                # a fresh value record, and a reader may drop them (docs/tracing.md).
                self._seen.difference_update(hashes)
                self._queue.append(dump_record({"t": "forget", "dialogue": dialogue_id,
                                                "h": hashes}))  # fmt: skip

    def flush(self) -> None:
        self._file.flush()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._end_scope(self._root, None)
        self._file.append({"t": "close", "time": time.time()})
        self._file.close()

    # -- internals ---------------------------------------------------------------------------

    def _value(self, value: Any) -> str | None:
        """Hash ``value``; queue its value record the first time its content is seen."""
        if value is ...:
            return None
        if type(value) is str:  # the common case: inputs (turn texts), often seen before
            known = _TEXTS.get(value)
            if known is None:
                raw = utf8(value)
                h = _sha256(raw).hexdigest()[:HASH_CHARS]
                known = (h, dump_record({"t": "val", "h": h, "size": len(raw), "value": value}))
                if len(value) <= _TEXT_CACHED_CHARS:
                    if len(_TEXTS) >= _TEXTS_MAX:
                        _TEXTS.clear()
                    _TEXTS[value] = known
            h = known[0]
            if h not in self._seen:
                self._first_seen(h, _SCOPE.get())
                self._queue.append(known[1])
            return h
        if type(value) is TurnTranscript:
            return self._transcript(value)
        h, size, payload = digest(value)
        if h not in self._seen:
            # Two threads may both queue the same new value: harmless, the reader keeps one.
            self._first_seen(h, _SCOPE.get())
            self._queue.append(dump_record({"t": "val", "h": h, "size": size, "value": payload}))
        return h

    def _transcript(self, value: TurnTranscript) -> str:
        """Hash a transcript as its text; store its turn ids (the text without inputs)."""
        raw = utf8(value.text)
        h = _sha256(raw).hexdigest()[:HASH_CHARS]
        if h not in self._seen:
            self._first_seen(h, _SCOPE.get())
            stored: dict[str, Any] = {"t": "val", "h": h, "size": len(raw)}
            if self._inputs is not None:
                stored["turns"] = value.turn_ids
            else:
                stored["value"] = value.text
            self._queue.append(dump_record(stored))
        return h

    def _first_seen(self, h: str, scope: ScopeState | None) -> None:
        """Mark value ``h`` as stored; it belongs to the scope's dialogue, which forgets it."""
        self._seen.add(h)
        did = scope.attrs.get("dialogue_id") if scope is not None else None
        if did is not None:
            self._first.setdefault(did, []).append(h)

    def _next_version(self, identity: str) -> int:
        # One atomic counter per identity keeps versions unique across threads without a lock.
        ctr = self._ver.get(identity)
        if ctr is None:
            with self._lock:
                ctr = self._ver.get(identity)
                if ctr is None:
                    ctr = self._ver[identity] = itertools.count(self._max.get(identity, 0) + 1)
                    self._own(identity)
        return next(ctr)

    def _own(self, identity: str) -> None:
        # Caller holds the lock: the identity is new here, and belongs to the current dialogue.
        scope = _SCOPE.get()
        did = scope.attrs.get("dialogue_id") if scope is not None else None
        if did is not None:
            self._owned.setdefault(did, []).append(identity)

    def _register_source(
        self, identity: str, value: Any, force: bool = False
    ) -> tuple[int, str | None]:
        if self._inputs is not None and not force and identity.startswith(TURN_PREFIX):
            # A benchmark turn: the reader knows it as version 1 of an input, no record needed.
            with self._lock:
                cur = self._cur.get(identity)
                if cur is None:
                    cur = self._cur[identity] = (self._max.setdefault(identity, 1), None)
                    self._own(identity)
                return cur
        h = self._value(value)
        with self._lock:
            cur = self._cur.get(identity)
            if cur is not None and (not force or h is None or cur[1] == h):
                return cur
            ctr = self._ver.get(identity)
            if ctr is None:
                # A first sight (every turn of a run): the version goes into the seed of a
                # counter made only if the identity is ever written, which inputs rarely are.
                v = self._max[identity] = self._max.get(identity, 0) + 1
                if cur is None:
                    self._own(identity)
            else:
                v = next(ctr)
            self._cur[identity] = (v, h)
            self._queue.append(dump_record({"t": "src", "var": identity, "v": v, "h": h}))
        if len(self._queue) >= self._flush_every:
            self._file.flush()
        return (v, h)

    def _new_version(
        self, op: _Op, identity: str, h: str | None, kind: str
    ) -> tuple[str, int, str | None, str]:
        if op.scope.replay is not None:
            matched = self._replayed_version(op, identity, h, kind)
            if matched is not None:
                return (identity, matched, h, kind)
        v = self._next_version(identity)
        self._cur[identity] = (v, h)
        return (identity, v, h, kind)

    def _replayed_version(self, op: _Op, identity: str, h: str | None, kind: str) -> int | None:
        """The version a faithful replay of a committed op reuses, or ``None`` (divergence)."""
        scope = op.scope
        with self._lock:
            if scope.replay is None:
                return None
            done = scope.replay.get(op.id)
            k = len(op.writes)
            if done is not None and k < len(done):
                old = done[k]
                if old[0] == identity and old[2] == h and old[3] == kind:
                    self._cur[identity] = (old[1], h)
                    return int(old[1])
            self._diverge(scope, f"{op.id} wrote {identity} differently")
            return None

    def _diverge(self, scope: ScopeState, detail: str) -> None:
        # Caller holds the lock. The replay no longer matches what was committed: write the whole
        # attempt after all, so the trace shows what the system now holds, and say so.
        self.divergences.append(f"{scope.key}: {detail}")
        self._file.append(
            {"t": "diverged", "scope": scope.key, "a": scope.attempt, "detail": detail}
        )
        for rec in scope.held:
            self._file.append(rec)
        scope.held = []
        scope.replay = None

    def _finish_replayed(self, op: _Op, rec: dict[str, Any]) -> None:
        scope = op.scope
        with self._lock:
            if scope.replay is not None:
                done = scope.replay.get(op.id)
                if done is not None and len(done) == len(op.writes):
                    scope.held.append(rec)
                    return
                self._diverge(scope, f"{op.id} ({op.name}) does not match the committed run")
        self._file.append(rec)

    def _begin_scope(
        self, key: str, kind: str, attrs: dict[str, Any], top: bool = False
    ) -> ScopeState:
        parent = None if top else _SCOPE.get()
        merged = {**parent.attrs, **attrs} if parent is not None else dict(attrs)
        with self._lock:
            attempt = self._attempts.get(key, 0) + 1
            self._attempts[key] = attempt
            done = self._state.committed.get(key) if key not in self._committed_now else None
            state = ScopeState(key, kind, attempt, merged, replay=done)
            self._file.append(
                {"t": "begin", "scope": key, "kind": kind, "a": attempt,
                 "parent": parent.key if parent is not None else None, "attrs": merged}
            )  # fmt: skip
        return state

    def _end_scope(self, state: ScopeState, error: str | None) -> None:
        started = next(state.counter) - 1
        with self._lock:
            if state.replay is not None and started != len(state.replay):
                self._diverge(state, f"replay ran {started} of {len(state.replay)} ops")
            if state.replay is not None:
                # A faithful replay of a committed scope: nothing new to record.
                state.held = []
                state.replay = None
            elif error is None:
                self._committed_now.add(state.key)
                self._file.append({"t": "commit", "scope": state.key, "a": state.attempt,
                                   "ops": started})  # fmt: skip
            else:
                self._file.append({"t": "abort", "scope": state.key, "a": state.attempt,
                                   "ops": started, "error": error[:500]})  # fmt: skip
        if self.config.flush_on_scope_end:
            self._file.flush()


def open_tracer(
    path: str | Path,
    *,
    enabled: bool = True,
    resume: bool = False,
    config: TraceConfig | None = None,
    meta: dict[str, Any] | None = None,
) -> BaseTracer:
    """Open a trace file for recording, or return the no-op tracer when ``enabled`` is false.

    Use as ``with open_tracer(run_dir / "trace.jsonl", resume=True) as tr, tr.activate(): ...``.
    """
    if not enabled:
        return NULL_TRACER
    return Tracer(path, config=config, meta=meta, resume=resume)
