"""The decorator form of an operation, and the module-level shortcut."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

from umb.trace._context import _TRACER
from umb.trace._null import OpHandle

F = TypeVar("F", bound=Callable[..., Any])


def operation(
    name: str,
    category: str = "operation",
    *,
    reads: Iterable[str | tuple[str, Any]] = (),
    writes: Iterable[str | tuple[str, Any]] = (),
    model: str | None = None,
    **attrs: Any,
) -> OpHandle:
    """Open an operation on the current tracer (see :meth:`BaseTracer.operation`).

    Examples:
        >>> from umb.trace import operation, memory_var
        >>> with operation("rag.add", "addition", reads=["turn:D0001:S001:T0001"]) as op:
        ...     op.write(memory_var("m1"), "Maya adopted a beagle called Biscuit")
    """
    return _TRACER.get()._op(name, category, reads, writes, model, attrs)


def traced(
    name: str | None = None,
    category: str = "operation",
    *,
    reads: Callable[..., Iterable[str | tuple[str, Any]]] | None = None,
    output: str | Callable[[Any], str] | None = None,
) -> Callable[[F], F]:
    """Record every call of the decorated function (sync or async) as an operation.

    Args:
        name: Operation name; defaults to the function's qualified name.
        category: Operation category.
        reads: Called with the function's arguments; returns the variables it reads.
        output: Identity (or a function of the result giving it) under which the result is
            written.

    Inside the function, :func:`current_op` returns the handle for further reads and writes.
    The tracer is looked up at call time, so the function is traced only under an active tracer.
    """

    def decorate(fn: F) -> F:
        op_name = name or fn.__qualname__

        def start(args: tuple[Any, ...], kwargs: dict[str, Any]) -> OpHandle:
            found = reads(*args, **kwargs) if reads is not None else ()
            return _TRACER.get()._op(op_name, category, found, (), None, {})

        def finish(op: OpHandle, result: Any) -> None:
            if output is not None:
                op.write(output if isinstance(output, str) else output(result), result)

        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                if not _TRACER.get().enabled:
                    return await fn(*args, **kwargs)
                with start(args, kwargs) as op:
                    result = await fn(*args, **kwargs)
                    finish(op, result)
                    return result

            return cast(F, async_wrapper)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not _TRACER.get().enabled:
                return fn(*args, **kwargs)
            with start(args, kwargs) as op:
                result = fn(*args, **kwargs)
                finish(op, result)
                return result

        return cast(F, wrapper)

    return decorate
