"""Memory systems under test: one interface (ingest sessions, retrieve context), eight systems.

Build one by name with :func:`build_memory`; the names are the keys of :data:`MEMORY_SYSTEMS`.
"""

from umb.memory._api import (
    NON_LLM_SPECS,
    Granularity,
    MemoryConfig,
    MemorySystem,
    RetrievedContext,
)
from umb.memory._registry import (
    MEMORY_SYSTEMS,
    build_memory,
    memory_system_class,
    memory_system_names,
    register_memory_system,
)
from umb.memory._render import render_session, render_sessions, render_units
from umb.memory._tracing import read_items, traced_retrieve
from umb.memory._units import MemoryUnit, MemoryVersion

__all__ = [
    "MEMORY_SYSTEMS",
    "NON_LLM_SPECS",
    "Granularity",
    "MemoryConfig",
    "MemorySystem",
    "MemoryUnit",
    "MemoryVersion",
    "RetrievedContext",
    "build_memory",
    "memory_system_class",
    "memory_system_names",
    "read_items",
    "register_memory_system",
    "render_session",
    "render_sessions",
    "render_units",
    "traced_retrieve",
]
