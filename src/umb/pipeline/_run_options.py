"""The keyword options of :func:`umb.evaluate`: one flat namespace over a
:class:`~umb.run.RunConfig` and its option groups, each value checked against its field's type.

``evaluate(bench, systems="rag_bm25", top_k=3)`` sets ``RunConfig.systems`` and
``RunConfig.memory.top_k``. A name of ``RunConfig`` itself wins over a group's (``max_tokens`` is
the answer's limit, not ``ModelOptions.max_tokens``), and a name two groups share goes to the
first of :data:`_GROUPS` (``seed`` is the bootstrap's, as ``umb eval --seed``); give a group
whole (``options=ModelOptions(seed=1)``) to set the other.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import types
import typing
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from umb._errors import ConfigError
from umb._registry import did_you_mean
from umb.memory import MemoryConfig
from umb.models import ModelOptions
from umb.run import ExecutorOptions, RunConfig, ScoringOptions

_GROUPS: dict[str, type] = {
    "scoring": ScoringOptions,
    "memory": MemoryConfig,
    "options": ModelOptions,
    "executor": ExecutorOptions,
}
"""The fields of RunConfig that are option groups, in the order a shared name is routed."""

_SET_BY_RUN = frozenset({("memory", "work_dir"), ("memory", "bench")})
"""Group fields the runner fills in itself."""


@functools.cache
def _routes() -> dict[str, tuple[str | None, Any]]:
    """Option name -> (the group holding it, None for RunConfig's own; the field's type)."""
    routes: dict[str, tuple[str | None, Any]] = {
        name: (None, hint) for name, hint in typing.get_type_hints(RunConfig).items()
    }
    for group, cls in _GROUPS.items():
        for name, hint in typing.get_type_hints(cls).items():
            if (group, name) not in _SET_BY_RUN:
                routes.setdefault(name, (group, hint))
    return routes


def run_config(config: RunConfig | None, options: dict[str, Any]) -> RunConfig:
    """``config`` (or a new RunConfig) with ``options`` applied, each to the field it names.

    Raises:
        ConfigError: An unknown option (with the closest known one), a value of the wrong type,
            a required option missing, or a value its config refuses.
    """
    if config is not None and not isinstance(config, RunConfig):
        raise ConfigError(f"config must be a RunConfig, not {type(config).__name__}")
    routes = _routes()
    own: dict[str, Any] = {}
    nested: dict[str, dict[str, Any]] = {group: {} for group in _GROUPS}
    for name, value in options.items():
        if name not in routes:
            raise ConfigError(f"evaluate() has no option {name!r}{did_you_mean(name, routes)}")
        group, hint = routes[name]
        if name == "executor" and isinstance(value, str):
            value = ExecutorOptions(kind=value)  # type: ignore[arg-type]  # checked there
        value = _checked(name, value, hint)
        (own if group is None else nested[group])[name] = value
    for group, values in nested.items():
        if values:
            base = own.get(group) or (getattr(config, group) if config else _GROUPS[group]())
            own[group] = dataclasses.replace(base, **values)
    if config is not None:
        return dataclasses.replace(config, **own)
    missing = [
        f.name
        for f in dataclasses.fields(RunConfig)
        if f.name not in own
        and f.default is dataclasses.MISSING
        and f.default_factory is dataclasses.MISSING
    ]
    if missing:
        raise ConfigError(f"evaluate() needs {', '.join(f'{n}=' for n in missing)}")
    return RunConfig(**own)


def _checked(name: str, value: Any, hint: Any) -> Any:
    """``value`` as field ``name`` of type ``hint`` holds it (a path from a string, a tuple of
    names from one name), or ConfigError naming the option."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is types.UnionType:  # ``X | None``
        if value is None:
            return None
        (hint,) = (a for a in args if a is not type(None))
        origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal:
        if value not in args:
            raise ConfigError(f"{name} must be one of {', '.join(map(repr, args))}, not {value!r}")
        return value
    if origin in (tuple, frozenset):
        # One name where several may be given: ``systems="rag_bm25"`` is that one system.
        items = (value,) if isinstance(value, str) else value
        items = tuple(items) if isinstance(items, Iterable) else None  # a generator: read once
        if items is None or not all(isinstance(i, str) for i in items):
            raise ConfigError(f"{name} must be a string or a sequence of strings, not {value!r}")
        return origin(items)
    if hint is Path:
        if not isinstance(value, (str, os.PathLike)):
            raise ConfigError(f"{name} must be a path, not {type(value).__name__} {value!r}")
        return Path(value)
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, hint) or (hint is int and isinstance(value, bool)):
        raise ConfigError(f"{name} must be {hint.__name__}, not {type(value).__name__} {value!r}")
    return value
