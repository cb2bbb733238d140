"""The memory systems umb knows by name, imported only when built."""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable

from umb._errors import ConfigError
from umb.memory._api import MemoryConfig, MemorySystem
from umb.models._api import ModelAPI

#: name -> ``"module:Class"`` of every built-in system; modules load on first use.
MEMORY_SYSTEMS: dict[str, str] = {
    "full_context": "umb.memory._full_context:FullContext",
    "no_context": "umb.memory._no_context:NoContext",
    "oracle_evidence": "umb.memory._oracle_evidence:OracleEvidence",
    "rag_bm25": "umb.memory._rag_bm25:RagBM25",
    "rag_dense": "umb.memory._rag_dense:RagDense",
    "rag_hybrid": "umb.memory._rag_hybrid:RagHybrid",
    "mem0_style": "umb.memory._mem0_style:Mem0Style",
    "mem0": "umb.memory._mem0_lib:Mem0Library",
    "summary": "umb.memory._summary:SummaryMemory",
}

_REGISTERED: dict[str, type[MemorySystem]] = {}


def register_memory_system(
    name: str,
) -> Callable[[type[MemorySystem]], type[MemorySystem]]:
    """Register a memory system class under ``name`` (a class decorator for plug-ins).

    Raises:
        ConfigError: If ``name`` is already taken.
    """

    def register(cls: type[MemorySystem]) -> type[MemorySystem]:
        if name in MEMORY_SYSTEMS or name in _REGISTERED:
            raise ConfigError(f"memory system {name!r} is already registered")
        _REGISTERED[name] = cls
        return cls

    return register


def memory_system_names() -> list[str]:
    """Every name :func:`build_memory` accepts, sorted."""
    return sorted({*MEMORY_SYSTEMS, *_REGISTERED})


def memory_system_class(name: str) -> type[MemorySystem]:
    """The class registered as ``name``.

    Raises:
        ConfigError: If no system has that name; the message suggests close names.
    """
    if name in _REGISTERED:
        return _REGISTERED[name]
    target = MEMORY_SYSTEMS.get(name)
    if target is None:
        known = memory_system_names()
        close = difflib.get_close_matches(name, known, n=3)
        hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise ConfigError(f"unknown memory system {name!r}.{hint} Known: {', '.join(known)}")
    module, attr = target.split(":")
    cls = getattr(importlib.import_module(module), attr)
    assert isinstance(cls, type) and issubclass(cls, MemorySystem)
    return cls


def build_memory(
    name: str, config: MemoryConfig | None = None, extractor: ModelAPI | None = None
) -> MemorySystem:
    """Build a fresh memory system for one dialogue.

    Args:
        name: A registered name, e.g. ``"rag_bm25"`` (see :data:`MEMORY_SYSTEMS`).
        config: Shared options; defaults to ``MemoryConfig()``.
        extractor: The memory system's own model (the extractor role), used by
            ``mem0_style`` and ``summary``; ``None`` or an ``offline`` model selects their
            rule-based path.

    Returns:
        A new, empty instance.

    Raises:
        ConfigError: If ``name`` is unknown ("did you mean" included).

    Examples:
        >>> memory = build_memory("rag_bm25", MemoryConfig(top_k=5, granularity="turn"))
    """
    return memory_system_class(name)(config or MemoryConfig(), extractor)
