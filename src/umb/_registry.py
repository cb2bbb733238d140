"""One registry shape for every extension point of umb.

Memory systems, model providers, scorers, peer benchmarks, report sections and event kinds are
each a :class:`Registry`: a read-only mapping from name to object whose entries come from three
places, looked up in this order:

1. decorator registration (``@MEMORY_SYSTEMS.register("my_system")``), for code that is imported;
2. lazy ``"module:attr"`` entries for the built-ins (``add_lazy``), imported on first use so that
   ``umb --help`` loads nothing heavy;
3. the entry-point group ``umb`` of installed distributions, named ``<registry>/<name>``
   (e.g. ``memory/my_system = my_pkg.memory:MySystem``), read once, on the first lookup that
   misses or the first listing.

An unknown name raises :class:`~umb.ConfigError` with the one "did you mean" of the code base.

What code registers at run time (1.) is only in the process that imported it; an entry point
(3.) reaches every process. :func:`plugin_modules` names the modules of the former, so a helper
process (the background attribution worker) can import them and see the same registries.
"""

from __future__ import annotations

import dataclasses
import difflib
import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Generic, TypeVar

from umb._errors import ConfigError

T = TypeVar("T")

ENTRY_POINT_GROUP = "umb"

_REGISTRIES: list[Registry[Any]] = []
"""Every registry made, in the order they were made (for :func:`plugin_modules`)."""


def _defining_module(obj: object) -> str | None:
    """The module that defined a registered object: a function's or class's own, or, for a
    record such as a ``Provider``, that of the first function or class among its fields."""
    if isinstance(obj, type) or callable(obj) and hasattr(obj, "__code__"):
        return getattr(obj, "__module__", None)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            found = _defining_module(getattr(obj, f.name))
            if found is not None:
                return found
    return None


def plugin_modules() -> list[str]:
    """The modules outside umb whose objects were registered in this process at run time (by
    importing them, not by entry point), in registration order; a script run as ``__main__``
    cannot be imported again and is left out."""
    found: dict[str, None] = {}
    for registry in _REGISTRIES:
        for name in registry._added:
            module = _defining_module(registry._loaded.get(name))
            if module and module != "__main__" and module.split(".")[0] != "umb":
                found[module] = None
    return list(found)


def closest(name: str, known: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """The known name closest to ``name`` (a likely typo of it), or None."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=cutoff)
    return close[0] if close else None


def did_you_mean(name: str, known: Iterable[str], *, suggestion: str | None = None) -> str:
    """``"; did you mean 'x'?"`` for the closest known name (or ``suggestion``), else ``""``."""
    guess = suggestion if suggestion is not None else closest(name, known)
    return f"; did you mean {guess!r}?" if guess else ""


def load_target(target: str) -> object:
    """Import ``"module:attr"`` and return the attribute."""
    module, _, attr = target.partition(":")
    obj: object = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


class Registry(Mapping[str, T], Generic[T]):
    """Name -> extension object, with lazy built-ins and entry-point plug-ins.

    Args:
        kind: What an entry is, for messages ("memory system").
        prefix: The entry-point name prefix, ``<prefix>/<name>`` in group ``umb``.
        check: Called on every object as it is registered or loaded; raises on a wrong type.
        fill: Called before every listing or missed lookup to add the lazy entries derived
            from elsewhere (the peers' scorers come from the peers); it must skip names
            already present.
    """

    def __init__(
        self,
        kind: str,
        prefix: str,
        *,
        check: Callable[[str, object], T] | None = None,
        fill: Callable[[Registry[T]], None] | None = None,
    ) -> None:
        self.kind = kind
        self.prefix = prefix
        self._check = check
        self._fill = fill
        self._loaded: dict[str, T] = {}
        self._lazy: dict[str, str] = {}
        self._order: list[str] = []
        self._added: list[str] = []  # names registered at run time, by add()
        self._plugins_read = False
        _REGISTRIES.append(self)

    # -- registration -------------------------------------------------------------------------

    def register(self, name: str) -> Callable[[T], T]:
        """A decorator that registers its target under ``name``.

        Raises:
            ConfigError: If ``name`` is already taken.
        """

        def add(obj: T) -> T:
            self.add(name, obj)
            return obj

        return add

    def add(self, name: str, obj: T, *, at: int | None = None) -> None:
        """Register ``obj`` under ``name`` (at position ``at`` of the order, else last)."""
        self._claim(name, at)
        self._loaded[name] = self._checked(name, obj)
        self._added.append(name)

    def add_lazy(self, name: str, target: str) -> None:
        """Register a built-in by ``"module:attr"``; it is imported on first use."""
        self._claim(name)
        self._lazy[name] = target

    def remove(self, name: str) -> None:
        """Unregister ``name`` (plug-ins and tests that register temporarily)."""
        self._loaded.pop(name, None)
        self._lazy.pop(name, None)
        self._order.remove(name)
        if name in self._added:
            self._added.remove(name)

    def _claim(self, name: str, at: int | None = None) -> None:
        if name in self._loaded or name in self._lazy:
            raise ConfigError(f"{self.kind} {name!r} is already registered")
        self._order.insert(len(self._order) if at is None else at, name)

    def _checked(self, name: str, obj: object) -> T:
        if self._check is None:
            return obj  # type: ignore[return-value]
        return self._check(name, obj)

    # -- lookup -------------------------------------------------------------------------------

    def __getitem__(self, name: str) -> T:
        if name in self._loaded:
            return self._loaded[name]
        if name not in self._lazy:
            self._read_plugins()
        target = self._lazy.get(name)
        if target is None:
            raise KeyError(name)
        obj = self._checked(name, load_target(target))
        self._loaded[name] = obj
        return obj

    def get_or_raise(self, name: str) -> T:
        """The entry called ``name``.

        Raises:
            ConfigError: Unknown name; the message suggests the closest one and lists all.
        """
        try:
            return self[name]
        except KeyError:
            known = list(self)
            raise ConfigError(
                f"unknown {self.kind} {name!r}{did_you_mean(name, known)}"
                f" (known: {', '.join(known) or 'none'})"
            ) from None

    def __iter__(self) -> Iterator[str]:
        self._read_plugins()
        return iter(list(self._order))

    def __len__(self) -> int:
        self._read_plugins()
        return len(self._order)

    def __contains__(self, name: object) -> bool:
        if name in self._loaded or name in self._lazy:
            return True
        self._read_plugins()
        return name in self._loaded or name in self._lazy

    def names(self) -> list[str]:
        """Every registered name, in registration order."""
        return list(self)

    def has(self, name: str) -> bool:
        """Whether ``name`` is registered now, without filling or reading plug-ins."""
        return name in self._loaded or name in self._lazy

    def _read_plugins(self) -> None:
        if self._fill is not None:
            self._fill(self)
        if self._plugins_read:
            return
        self._plugins_read = True
        from importlib import metadata  # here: it loads email and zipfile, a hit needs neither

        head = f"{self.prefix}/"
        for point in metadata.entry_points(group=ENTRY_POINT_GROUP):
            if point.name.startswith(head):
                name = point.name[len(head) :]
                if name not in self._loaded and name not in self._lazy:
                    self.add_lazy(name, point.value)
