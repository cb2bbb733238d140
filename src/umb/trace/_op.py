"""One operation being recorded: the hot path of tracing, kept as lean as it can be.

An operation costs a few microseconds: one object, one dict, one orjson call. Everything rare
(replays after a resume, values of unusual types, serialisation trouble) leaves this module.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Iterator
from contextvars import Token
from hashlib import sha256 as _sha256
from types import TracebackType
from typing import Any, Protocol

import orjson

from umb.trace._context import _OP, _SCOPE, ScopeState
from umb.trace._file import DUMP_OPTS, TraceFileWriter, dump_record, json_fallback
from umb.trace._ids import HASH_CHARS, utf8
from umb.trace._null import OpHandle
from umb.trace._runs import MIN_RUN, encode_reads

_perf_ns = time.perf_counter_ns
_dumps = orjson.dumps


class _ErrorLimit(Protocol):
    @property
    def max_error_chars(self) -> int: ...


class Recorder(Protocol):
    """The state and steps of the recording tracer that an operation works on directly.

    Declared here, where they are used, so this module does not import the tracer that
    implements them (:class:`umb.trace._tracer.Tracer`); the hot path reads them without a
    method call in between.
    """

    @property
    def config(self) -> _ErrorLimit: ...
    @property
    def _cur(self) -> dict[str, tuple[int, str | None]]: ...
    @property
    def _root(self) -> ScopeState: ...
    @property
    def _prior_seq(self) -> dict[str, int]: ...
    @property
    def _seq(self) -> Iterator[int]: ...
    @property
    def _seen(self) -> set[str]: ...
    @property
    def _ver(self) -> dict[str, Iterator[int]]: ...
    @property
    def _wall0_units(self) -> int: ...
    @property
    def _perf0(self) -> int: ...
    @property
    def _queue(self) -> deque[bytes]: ...
    @property
    def _flush_every(self) -> int: ...
    @property
    def _file(self) -> TraceFileWriter: ...

    def _register_source(self, identity: str, value: Any) -> tuple[int, str | None]: ...
    def _value(self, value: Any) -> str | None: ...
    def _first_seen(self, h: str, scope: ScopeState | None) -> None: ...
    def _next_version(self, identity: str) -> int: ...
    def _new_version(
        self, op: _Op, identity: str, h: str | None, kind: str
    ) -> tuple[str, int, str | None, str]: ...
    def _finish_replayed(self, op: _Op, rec: dict[str, Any]) -> None: ...


class _Op(OpHandle):
    """An operation being recorded (see :class:`OpHandle` for the methods)."""

    __slots__ = (
        "_tr", "name", "category", "model", "attrs", "_decl_writes", "id", "seq", "scope",
        "parent", "reads", "writes", "_t0", "_token", "status", "error", "tokens_in",
        "tokens_out",
    )  # fmt: skip
    id: str
    seq: int
    scope: ScopeState
    parent: str | None
    _t0: int
    _token: Token[OpHandle]

    def __init__(
        self,
        tracer: Recorder,
        name: str,
        category: str,
        reads: Iterable[str | tuple[str, Any]],
        writes: Iterable[str | tuple[str, Any]],
        model: str | None,
        attrs: dict[str, Any],
    ) -> None:
        self._tr = tracer
        self.name = name
        self.category = category
        self.model = model
        self.attrs = attrs
        self._decl_writes = writes
        cur = tracer._cur
        found: list[tuple[str, int]] = []
        for r in reads or ():
            if isinstance(r, str):
                c = cur.get(r) or tracer._register_source(r, ...)
                found.append((r, c[0]))
            else:
                c = cur.get(r[0]) or tracer._register_source(r[0], r[1])
                found.append((r[0], c[0]))
        self.reads = found
        self.writes: list[tuple[str, int, str | None, str]] = []
        self.status = "ok"
        self.error: str | None = None
        self.tokens_in = 0
        self.tokens_out = 0

    def __enter__(self) -> _Op:
        tr = self._tr
        scope = _SCOPE.get() or tr._root
        oid = f"{scope.key}/{next(scope.counter)}"
        self.id = oid
        self.scope = scope
        prior = tr._prior_seq
        self.seq = (prior.pop(oid, 0) or next(tr._seq)) if prior else next(tr._seq)
        self.parent = _OP.get().id
        self._token = _OP.set(self)
        if self._decl_writes:
            for w in self._decl_writes:
                if isinstance(w, str):
                    self.write(w)
                else:
                    self.write(w[0], w[1])
        self._t0 = _perf_ns()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        t1 = _perf_ns()
        try:
            _OP.reset(self._token)
        except ValueError:  # exited in another context than entered (e.g. a moved generator)
            pass
        tr = self._tr
        if exc_type is not None:
            self.status = "error" if issubclass(exc_type, Exception) else "cancelled"
            self.error = f"{exc_type.__name__}: {exc}"[: tr.config.max_error_chars]
        scope = self.scope
        rec = {
            "t": "op", "id": self.id, "seq": self.seq, "name": self.name, "cat": self.category,
            "start": (tr._wall0_units + (self._t0 - tr._perf0) // 100_000) / 10_000,
            "dur_us": (t1 - self._t0 + 50) // 100 / 10,
        }  # fmt: skip
        # Format 2 leaves out what the reader can default or derive: the scope (the id's
        # prefix), attempt 1, status ok, no reads or writes; a read of version 1 is its identity.
        # Format 3 writes a session's numbered turns as one run (umb.trace._runs).
        if scope.attempt != 1:
            rec["a"] = scope.attempt
        reads = self.reads
        if reads:
            if len(reads) >= MIN_RUN:
                rec["reads"] = encode_reads(reads)
            else:
                rec["reads"] = [r[0] if r[1] == 1 else r for r in reads]
        if self.writes:
            rec["writes"] = self.writes
        if self.status != "ok":
            rec["status"] = self.status
        if self.parent is not None:
            rec["parent"] = self.parent
        if self.error is not None:
            rec["error"] = self.error
        if self.model is not None:
            rec["model"] = self.model
        if self.tokens_in or self.tokens_out:
            rec["tok_in"] = self.tokens_in
            rec["tok_out"] = self.tokens_out
        if self.attrs:
            rec["attrs"] = self.attrs
        if scope.replay is None:
            q = tr._queue
            try:
                q.append(_dumps(rec, default=json_fallback, option=DUMP_OPTS))
            except orjson.JSONEncodeError:  # e.g. an attribute dict with non-string keys
                q.append(dump_record(rec))
            if len(q) >= tr._flush_every:
                tr._file.flush()
        else:
            tr._finish_replayed(self, rec)

    def read(self, identity: str, value: Any = ...) -> None:
        c = self._tr._cur.get(identity) or self._tr._register_source(identity, value)
        self.reads.append((identity, c[0]))

    def write(self, identity: str, value: Any = ...) -> None:
        tr = self._tr
        if value is ...:
            h = None
        elif isinstance(value, str):  # the common case, inlined: this is the hot path
            try:
                raw = value.encode()
            except UnicodeEncodeError:
                raw = utf8(value)
            h = _sha256(raw).hexdigest()[:HASH_CHARS]
            if h not in tr._seen:
                tr._first_seen(h, self.scope)
                tr._queue.append(
                    dump_record({"t": "val", "h": h, "size": len(raw), "value": value})
                )
        else:
            h = tr._value(value)
        if self.scope.replay is None:
            ctr = tr._ver.get(identity)
            v = next(ctr) if ctr is not None else tr._next_version(identity)
            # Concurrent writers of one identity race only on which version later reads see.
            tr._cur[identity] = (v, h)
            self.writes.append((identity, v, h, "w"))
        else:
            self.writes.append(tr._new_version(self, identity, h, "w"))

    def delete(self, identity: str) -> None:
        self.writes.append(self._tr._new_version(self, identity, None, "d"))

    def set(self, **attrs: Any) -> None:
        if not self.attrs:
            self.attrs = attrs
        else:
            self.attrs.update(attrs)

    def usage(self, model: str | None = None, tokens_in: int = 0, tokens_out: int = 0) -> None:
        if model is not None:
            self.model = model
        self.tokens_in += tokens_in
        self.tokens_out += tokens_out

    def fail(self, reason: str) -> None:
        self.status = "error"
        self.error = reason[: self._tr.config.max_error_chars]
