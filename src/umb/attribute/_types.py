"""The labels attribution assigns and the record it writes per failed question."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

EXTRACTION: Final = "ExtractionError"
UPDATE: Final = "UpdateError"
DELETION: Final = "DeletionError"
RETRIEVAL: Final = "RetrievalError"
RESPONSE: Final = "ResponseError"
ANNOTATION: Final = "AnnotationError"
JUDGE: Final = "JudgeError"
UNATTRIBUTED: Final = "Unattributed"
"""Not a label of its own: the trace holds no operations for the question (tracing was off)."""

ERROR_TYPES: Final = (EXTRACTION, UPDATE, DELETION, RETRIEVAL, RESPONSE, ANNOTATION, JUDGE)
"""The seven labels of MemTraceBench, in pipeline order (``JudgeError`` is its
``LLMAsAJudgeError``)."""

SYSTEM_ERRORS: Final = frozenset({EXTRACTION, UPDATE, DELETION, RETRIEVAL, RESPONSE})
"""Labels that blame the memory system or its answerer (not the data or the judge)."""


@dataclass(frozen=True)
class Attribution:
    """Why one failed question failed.

    Attributes:
        question_id: The question.
        system: The memory system that served it.
        error_type: One of :data:`ERROR_TYPES` (or :data:`UNATTRIBUTED`).
        op_id: The decisive faulty operation: the earliest whose correction would have saved
            the answer. ``None`` for ``AnnotationError`` (no operation is at fault).
        op_name: Its name (``extract``, ``update``, ``retrieve``, …).
        reason: One or two sentences a person can check against the trace.
        path: The evidence's way through the graph, as far as it got: node ids
            (``identity@version``) and operation ids alternating, ending at the faulty op.
        evidence_turn_ids: The gold evidence turns that state the needed facts.
        golden_answers: The gold, as short strings.
        dialogue_id: The question's dialogue.
        family: The question's family.
        score: The recorded score.
        facts: Per needed fact: its label, value, and where it was lost (``in context``, or the
            stage and operation).
    """

    question_id: str
    system: str
    error_type: str
    op_id: str | None
    op_name: str | None
    reason: str
    path: tuple[str, ...] = ()
    evidence_turn_ids: tuple[str, ...] = ()
    golden_answers: tuple[str, ...] = ()
    dialogue_id: str | None = None
    family: str | None = None
    score: float | None = None
    facts: tuple[dict[str, Any], ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        """The JSON line written to ``attributions.jsonl``."""
        return {
            "question_id": self.question_id,
            "system": self.system,
            "error_type": self.error_type,
            "op_id": self.op_id,
            "op_name": self.op_name,
            "reason": self.reason,
            "path": list(self.path),
            "evidence_turn_ids": list(self.evidence_turn_ids),
            "golden_answers": list(self.golden_answers),
            "dialogue_id": self.dialogue_id,
            "family": self.family,
            "score": self.score,
            "facts": [dict(f) for f in self.facts],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Attribution:
        """Read back a line of ``attributions.jsonl``."""
        return cls(
            question_id=str(d["question_id"]),
            system=str(d["system"]),
            error_type=str(d["error_type"]),
            op_id=d.get("op_id"),
            op_name=d.get("op_name"),
            reason=str(d.get("reason", "")),
            path=tuple(d.get("path", ())),
            evidence_turn_ids=tuple(d.get("evidence_turn_ids", ())),
            golden_answers=tuple(d.get("golden_answers", ())),
            dialogue_id=d.get("dialogue_id"),
            family=d.get("family"),
            score=d.get("score"),
            facts=tuple(d.get("facts", ())),
        )
