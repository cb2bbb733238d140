"""What flows with the code: the current tracer, scope and operation.

All three live in context variables, so asyncio tasks inherit them on creation. Threads do not
inherit context in Python; :func:`bind_context` and :func:`run_in_thread` carry it over
(``asyncio.to_thread`` already does; ``loop.run_in_executor`` and ``executor.submit`` do not).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextvars import ContextVar, copy_context
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from umb.trace._null import _TRACER, NULL_OP, BaseTracer, OpHandle

P = ParamSpec("P")
T = TypeVar("T")

_EMPTY: dict[str, Any] = {}


@dataclass(eq=False)
class ScopeState:
    """One open scope: the numbering of its operations and what is known of earlier attempts."""

    key: str
    kind: str
    attempt: int
    attrs: dict[str, Any]
    counter: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    replay: dict[str, list[list[Any]]] | None = None
    """For a scope an earlier run committed: op id -> the writes it recorded."""
    held: list[Any] = field(default_factory=list)
    """Records of a replay, kept back unless the replay turns out to differ."""


_SCOPE: ContextVar[ScopeState | None] = ContextVar("umb_trace_scope", default=None)
_OP: ContextVar[OpHandle] = ContextVar("umb_trace_op", default=NULL_OP)


def current_tracer() -> BaseTracer:
    """Return the tracer in effect here (the no-op tracer when none was activated)."""
    return _TRACER.get()


def current_op() -> OpHandle:
    """Return the innermost operation being recorded here (a no-op handle when none)."""
    return _OP.get()


def current_scope() -> ScopeState | None:
    """Return the innermost open scope, or ``None``."""
    return _SCOPE.get()


def current_attrs() -> dict[str, Any]:
    """Return the attributes of the innermost scope (``dialogue_id``, ``question_id``, …)."""
    scope = _SCOPE.get()
    return scope.attrs if scope is not None else _EMPTY


def bind_context(fn: Callable[P, T]) -> Callable[P, T]:
    """Capture the current context now; each call of the result runs ``fn`` inside a copy of it.

    Use it to hand work to thread pools: ``pool.submit(bind_context(fn), x)``. Each call gets its
    own copy, so one bound function may run in many threads at once.
    """
    ctx = copy_context()

    def bound(*args: P.args, **kwargs: P.kwargs) -> T:
        return ctx.copy().run(fn, *args, **kwargs)

    return bound


def run_in_thread(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Future[T]:
    """Run ``fn(*args, **kwargs)`` in a new thread that sees the caller's tracer and scope.

    Returns:
        A future holding the result or the exception.
    """
    future: Future[T] = Future()
    bound = bind_context(fn)

    def target() -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            future.set_result(bound(*args, **kwargs))
        except BaseException as e:  # noqa: BLE001 - handed to the caller through the future
            future.set_exception(e)

    threading.Thread(target=target, name="umb-trace-worker", daemon=True).start()
    return future
