"""Hand-built traces in the instrumentation's vocabulary, for attribution tests.

:class:`Pipeline` records what a memory system and the runner record (``ingest``, ``extract``,
``decide``, ``add``, ``update``, ``delete``, ``index``, ``retrieve``, ``answer``, ``score``)
with the real tracer, so each test states one failure story in a few lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from umb.attribute import Attribution, QuestionInputs, attribute_question
from umb.attribute._graph import SystemView
from umb.bench import Evidence, Question
from umb.trace import (
    Tracer,
    answer_var,
    context_var,
    judgement_var,
    memory_var,
    operation,
    query_var,
    read_trace,
    turn_var,
    var,
)

DID = "D0001"
SYSTEM = "mem0_style"
TURNS = {
    "D0001:S001:T0001": "Alex: Any news?",
    "D0001:S001:T0002": "Maya: I adopted a beagle called Biscuit. I work at Acme.",
    "D0001:S002:T0001": "Alex: How is work?",
    "D0001:S002:T0002": "Maya: I left Acme. I work at Globex now.",
    "D0001:S003:T0001": "Maya: Biscuit loves the park.",
}
STARTS = {t: f"2021-0{t[9]}-01T10:00" for t in TURNS}


def ie_question(**kw: Any) -> Question:
    """Q: the dog's name (Biscuit), stated in S001:T0002."""
    base = dict(
        id="Q-D0001-IE-01", dialogue_id=DID, family="IE", query="What is Maya's dog called?",
        asked_at="2021-06-01T09:00", gold={"answer": "Biscuit", "evidence_snippets": []},
        answer_components=("Biscuit",), evidence=Evidence(turn_ids=("D0001:S001:T0002",)),
        meta={"kind": "slot", "slot": "pet_name", "aliases": []},
    )  # fmt: skip
    return Question(**{**base, **kw})


def ku_question() -> Question:
    """Q: Maya's employer now (Globex; Acme before)."""
    return Question(
        "Q-D0001-KU-01", DID, "KU", "Where does Maya work now?", "2021-06-01T09:00",
        {"latest_state": "Globex", "as_of_time": "2021-02-01", "deprecated_state": "Acme"},
        ("Globex",), Evidence(turn_ids=("D0001:S001:T0002", "D0001:S002:T0002")),
        {"kind": "attribute", "attribute": "employer", "deprecated_values": ["Acme"]},
    )  # fmt: skip


def record(question: Question, answer: dict[str, Any], score: float = 0.0, **kw: Any) -> dict:
    """A run record as the runner writes it (the fields attribution reads)."""
    return {
        "system": SYSTEM, "question_id": question.id, "score": score, "parse_status": "ok",
        "answer": answer, "score_by": "umb", "scorer": "rule", "score_details": {}, **kw,
    }  # fmt: skip


class Pipeline:
    """Record one dialogue's write path and questions' read paths with a real tracer."""

    def __init__(self, path: Path, system: str = SYSTEM) -> None:
        self.path = path
        self.system = system
        self.tracer = Tracer(path, meta={"system": system})
        self._scope = self.tracer.dialogue(DID, system=system)
        self._active = self.tracer.activate()
        self._active.__enter__()
        self._scope.__enter__()
        self.n = 0

    def ingest(self, session: str) -> None:
        reads = [(turn_var(t), x) for t, x in TURNS.items() if t.startswith(f"{session}:")]
        with operation("ingest", "ingest", reads=reads, session_id=session):
            pass

    def extract(self, session: str, facts: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
        reads = [(turn_var(t), x) for t, x in TURNS.items() if t.startswith(f"{session}:")]
        ids = [var("candidate", f"{session}:{i}") for i in range(1, len(facts) + 1)]
        with operation("extract", "extraction", reads=reads, session_id=session) as op:
            for identity, (text, _) in zip(ids, facts, strict=True):
                op.write(identity, text)
            op.set(source_turn_ids={i: list(src) for i, (_, src) in zip(ids, facts, strict=True)})
        return ids

    def decide(self, candidate: str, decision: str, target: str | None = None) -> str:
        reads = [candidate] + ([memory_var(target)] if target else [])
        with operation("decide", "decision", reads=reads) as op:
            op.set(decision=decision, target=memory_var(target) if target else None)
        return str(op.id)

    def apply(self, name: str, candidate: str, unit: str, text: str | None = None) -> str:
        category = {"add": "addition", "update": "update", "delete": "deletion"}[name]
        reads = [candidate] + ([memory_var(unit)] if name != "add" else [])
        with operation(name, category, reads=reads) as op:
            if name == "delete":
                op.delete(memory_var(unit))
            else:
                op.write(memory_var(unit), text)
        return str(op.id)

    def index(self, unit: str, turns: Sequence[str]) -> None:
        reads = [(turn_var(t), TURNS[t]) for t in turns]
        with operation("index", "indexing", reads=reads, source_turn_ids=list(turns)) as op:
            op.write(var("unit", unit), "\n".join(TURNS[t] for t in turns))

    def ask(self, question: Question, items: Sequence[str], answer: str) -> dict[str, str]:
        """Retrieve ``items`` (identities), answer ``answer``, score 0; return the op ids."""
        ids: dict[str, str] = {}
        qid = question.id
        with self.tracer.question(qid, dialogue_id=DID, system=self.system):
            with operation("retrieve", "retrieval", reads=[(query_var(qid), question.query)]) as op:
                for identity in items:
                    op.read(identity)
                op.write(context_var(qid), "(context)")
            ids["retrieve"] = str(op.id)
            with operation("answer", "response", reads=[context_var(qid), query_var(qid)]) as op:
                op.write(answer_var(qid), answer)
            ids["answer"] = str(op.id)
            with operation("score", "judge", reads=[answer_var(qid)]) as op:
                op.write(judgement_var(qid), {"value": 0.0})
            ids["score"] = str(op.id)
        return ids

    def attribute(self, question: Question, rec: dict[str, Any], **inputs: Any) -> Attribution:
        """Close the trace, read it back and attribute ``question``."""
        self.close()
        view = SystemView(read_trace(self.path), self.system)
        args = {"turn_texts": TURNS, "turn_starts": STARTS, **inputs}
        return attribute_question(QuestionInputs(question, rec, **args), view)

    def close(self) -> None:
        if self._scope is not None:
            self._scope.__exit__(None, None, None)
            self._active.__exit__(None, None, None)
            self.tracer.close()
            self._scope = None  # type: ignore[assignment]
