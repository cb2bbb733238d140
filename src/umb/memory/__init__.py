"""Memory systems under test: one interface (ingest sessions, retrieve context), eight systems.

Build one by name with :func:`build_memory`; the names are the keys of :data:`MEMORY_SYSTEMS`.
"""

from __future__ import annotations

import typing

from umb._lazy import lazy_names as _lazy_names
from umb.memory._api import (
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

if typing.TYPE_CHECKING:
    from umb.memory._api import GRANULARITIES
    from umb.memory._full_context import FullContext
    from umb.memory._history import SessionLog
    from umb.memory._mem0_rules import CandidateFact, Decision
    from umb.memory._mem0_style import Mem0Style
    from umb.memory._oracle_evidence import OracleEvidence
    from umb.memory._rag import RagMemory
    from umb.memory._summary import SummaryMemory
    from umb.memory._text import split_sentences

    pass

# The systems' own classes load on first use: building one by name goes through the registry,
# and only code that subclasses a system (fault injection) needs the class itself.
_LAZY: dict[str, str] = {
    "CandidateFact": "umb.memory._mem0_rules",
    "Decision": "umb.memory._mem0_rules",
    "FullContext": "umb.memory._full_context",
    "GRANULARITIES": "umb.memory._api",
    "Mem0Style": "umb.memory._mem0_style",
    "OracleEvidence": "umb.memory._oracle_evidence",
    "RagMemory": "umb.memory._rag",
    "SessionLog": "umb.memory._history",
    "SummaryMemory": "umb.memory._summary",
    "split_sentences": "umb.memory._text",
}

__getattr__, __dir__ = _lazy_names(__name__, _LAZY, globals())

__all__ = [
    "CandidateFact",
    "Decision",
    "FullContext",
    "GRANULARITIES",
    "Mem0Style",
    "OracleEvidence",
    "RagMemory",
    "SessionLog",
    "SummaryMemory",
    "split_sentences",
    "MEMORY_SYSTEMS",
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
