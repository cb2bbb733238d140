"""The tracer interface, implemented as doing nothing: what runs when tracing is off."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import TracebackType
from typing import Any


class OpHandle:
    """An operation being recorded; this base version records nothing.

    Handles are context managers: ``with tracer.operation(...) as op: ... op.write(var, value)``.
    """

    __slots__ = ()

    id: str | None = None
    """The deterministic operation id, ``scope/n`` (``None`` when not recording)."""

    def __enter__(self) -> OpHandle:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None

    def read(self, identity: str, value: Any = ...) -> None:
        """Record that the operation read ``identity`` (registering ``value`` if it is new)."""

    def write(self, identity: str, value: Any = ...) -> None:
        """Record that the operation wrote a new version of ``identity`` holding ``value``."""

    def delete(self, identity: str) -> None:
        """Record that the operation deleted ``identity`` (a tombstone version)."""

    def set(self, **attrs: Any) -> None:
        """Add free attributes (JSON-serialisable) to the operation."""

    def usage(self, model: str | None = None, tokens_in: int = 0, tokens_out: int = 0) -> None:
        """Record the model called and the tokens it consumed (added up over calls)."""

    def fail(self, reason: str) -> None:
        """Mark the operation failed without an exception (e.g. an unparsable model reply)."""


NULL_OP = OpHandle()


class _NullScope:
    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


_NULL_SCOPE = _NullScope()


class BaseTracer:
    """The tracer interface. This base class is the no-op tracer used when tracing is off.

    Every method returns at once; :meth:`operation` hands back one shared do-nothing handle, so an
    instrumented call costs one method call and one ``with`` block.
    """

    enabled: bool = False

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
        """Open an operation (use as a context manager).

        Args:
            name: What the operation does, e.g. ``mem0.update``.
            category: Its stage: ``extraction``, ``update``, ``deletion``, ``addition``,
                ``retrieval``, ``response``, ``judge``, …
            reads: Variables it reads: identities, or ``(identity, value)`` pairs.
            writes: Variables it writes whose values need no recording (identities), or
                ``(identity, value)`` pairs.
            model: The model it calls, if any.
            **attrs: Free attributes (JSON-serialisable).

        Returns:
            The operation handle.
        """
        return NULL_OP

    def _op(
        self,
        name: str,
        category: str,
        reads: Iterable[str | tuple[str, Any]],
        writes: Iterable[str | tuple[str, Any]],
        model: str | None,
        attrs: dict[str, Any],
    ) -> OpHandle:
        # The module-level ``operation()`` calls this to skip re-packing keyword arguments.
        return NULL_OP

    def scope(self, key: str, kind: str = "scope", **attrs: Any) -> Any:
        """Open a scope: the unit of op numbering, commit and resume (a context manager)."""
        return _NULL_SCOPE

    def dialogue(self, dialogue_id: str, **attrs: Any) -> Any:
        """Open the scope of one dialogue's write path (its ingest)."""
        return _NULL_SCOPE

    def question(self, question_id: str, dialogue_id: str | None = None, **attrs: Any) -> Any:
        """Open the scope of one question's read path (retrieve, answer, judge)."""
        return _NULL_SCOPE

    def source(self, identity: str, value: Any = ...) -> None:
        """Register an input variable (e.g. a dialogue turn) that no operation produced."""

    def is_committed(self, key: str) -> bool:
        """Whether scope ``key`` was committed by an earlier run of this trace."""
        return False

    def forget(self, dialogue_id: str) -> None:
        """Drop what the tracer keeps of a finished dialogue's variables (their current
        versions): a long run then holds only the dialogues in flight. The dialogue must not be
        recorded again by this tracer."""

    def flush(self) -> None:
        """Write buffered records to the file."""

    def close(self) -> None:
        """Flush and close the trace file."""

    def activate(self) -> Any:
        """Make this the current tracer for the ``with`` block (and tasks/threads it starts)."""
        return use_tracer(self)

    def __enter__(self) -> BaseTracer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class NullTracer(BaseTracer):
    """The tracer that records nothing (``--no-trace``)."""


NULL_TRACER = NullTracer()


_TRACER: ContextVar[BaseTracer] = ContextVar("umb_trace_tracer", default=NULL_TRACER)
"""The tracer in effect (kept beside the no-op tracer, its default)."""


@contextmanager
def use_tracer(tracer: BaseTracer) -> Iterator[BaseTracer]:
    """Make ``tracer`` current inside the ``with`` block."""
    token = _TRACER.set(tracer)
    try:
        yield tracer
    finally:
        _TRACER.reset(token)
