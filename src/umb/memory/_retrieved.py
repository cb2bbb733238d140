"""What a retrieval returns: the context handed to the answerer.

Its own module because both the interface (:mod:`umb.memory._api`) and the tracing wrappers
around every system's ``retrieve`` (:mod:`umb.memory._tracing`) handle it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RetrievedContext:
    """The context a memory system hands the answerer for one question.

    ``meta`` always holds ``write_latency_s`` (total ingest time so far) and
    ``retrieve_latency_s`` (this call), which the base class adds. ``full_context`` adds
    ``dropped_sessions`` (a count) and ``dropped_session_ids`` when the history was cut to fit
    ``max_input_tokens``; the RAG systems add ``ranking``, their units best first as
    ``(unit id, turn ids)`` pairs.
    """

    text: str
    """Rendered history or memories, with dates, ready to go into the prompt."""
    item_ids: tuple[str, ...] = ()
    """Ids of what was retrieved: turn, round, session or memory-unit ids."""
    source_turn_ids: tuple[str, ...] = ()
    """Turn ids the retrieved items came from (for retrieval recall and attribution)."""
    tokens: int = 0
    """``estimate_tokens(text)``: the context the answerer pays for."""
    meta: dict[str, Any] = field(default_factory=dict)
    """System-specific notes, e.g. ``dropped_sessions`` when a context was truncated."""
    trace_op_id: str | None = None
    """Id of the ``retrieve`` operation that produced it, when a tracer was recording."""
