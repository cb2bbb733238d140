"""The memory systems umb knows by name, imported only when built."""

from __future__ import annotations

from umb._registry import Registry
from umb.memory._api import MemoryConfig, MemorySystem
from umb.models import ModelAPI


def _is_system(name: str, obj: object) -> type[MemorySystem]:
    if not (isinstance(obj, type) and issubclass(obj, MemorySystem)):
        raise TypeError(f"memory system {name!r} is not a MemorySystem subclass: {obj!r}")
    return obj


MEMORY_SYSTEMS: Registry[type[MemorySystem]] = Registry("memory system", "memory", check=_is_system)
"""Name -> :class:`MemorySystem` class; built-ins load on first use, plug-ins register."""

for _name, _target in {
    "full_context": "umb.memory._full_context:FullContext",
    "no_context": "umb.memory._no_context:NoContext",
    "oracle_evidence": "umb.memory._oracle_evidence:OracleEvidence",
    "oracle_memory": "umb.memory._oracle_memory:OracleMemory",
    "rag_bm25": "umb.memory._rag_bm25:RagBM25",
    "rag_dense": "umb.memory._rag_dense:RagDense",
    "rag_hybrid": "umb.memory._rag_hybrid:RagHybrid",
    "mem0_style": "umb.memory._mem0_style:Mem0Style",
    "mem0": "umb.memory._mem0_lib:Mem0Library",
    "summary": "umb.memory._summary:SummaryMemory",
}.items():
    MEMORY_SYSTEMS.add_lazy(_name, _target)

register_memory_system = MEMORY_SYSTEMS.register
"""``@register_memory_system("name")``: register a memory system class (for plug-ins)."""


def memory_system_names() -> list[str]:
    """Every name :func:`build_memory` accepts, sorted."""
    return sorted(MEMORY_SYSTEMS)


def memory_system_class(name: str) -> type[MemorySystem]:
    """The class registered as ``name``.

    Raises:
        ConfigError: If no system has that name; the message suggests a close name.
    """
    return MEMORY_SYSTEMS.get_or_raise(name)


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
