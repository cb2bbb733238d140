"""Fault injection: break one stage of a memory pipeline for one fact, for real.

Each fault changes what a memory system (or the answerer) does, through the system's own
methods, so the tracer records the broken behaviour like any other:

- ``extraction``: the extractor (``mem0_style``'s rules or model, ``summary``'s summariser) is
  handed the session with the fact's sentences removed from its evidence turns; the turns
  themselves, as ingested and traced, are untouched.
- ``update``: right after the fact is first stored, an update rewrites each memory stating it
  with the value replaced (``mem0_style``).
- ``deletion``: right after the fact is first stored, each memory stating it is deleted.
- ``retrieval``: the retrieval of the target question ranks, or renders, without whatever states
  the fact (every system).
- ``response``: the answerer's reply to the target question is replaced by a wrong answer.

Each fault records which operation it broke (:class:`FaultLog`), the label attribution has to
find.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final, Literal

import orjson

from umb._errors import ConfigError
from umb.attribute._facts import Need, states
from umb.attribute._types import DELETION, EXTRACTION, RESPONSE, RETRIEVAL, UPDATE
from umb.bench import Session as SessionType
from umb.families import REQUIRED_FIELDS
from umb.memory import (
    CandidateFact,
    Decision,
    FullContext,
    Mem0Style,
    OracleEvidence,
    RagMemory,
    SessionLog,
    SummaryMemory,
    split_sentences,
)
from umb.trace import current_op

if TYPE_CHECKING:
    from umb.bench import Question, Session
    from umb.memory import MemorySystem, RetrievedContext
    from umb.models import GenerateRequest, GenerateResult, ModelAPI

FAULT_KINDS: Final = ("extraction", "update", "deletion", "retrieval", "response")
EXPECTED: Final = {
    "extraction": EXTRACTION,
    "update": UPDATE,
    "deletion": DELETION,
    "retrieval": RETRIEVAL,
    "response": RESPONSE,
}
"""The error type attribution must give each kind of fault."""

WRITE_PATH_SYSTEMS: Final = {"extraction": ("mem0_style", "summary"),
                             "update": ("mem0_style",), "deletion": ("mem0_style",)}  # fmt: skip
"""Systems each write-path fault applies to (retrieval and response apply to every system)."""

FORGOTTEN: Final = "something I no longer remember"


@dataclass(frozen=True)
class Fault:
    """One fault: break ``kind`` for fact ``need`` of ``question`` in ``system``."""

    kind: str
    system: str
    question: Question
    need: Need
    turn_ids: tuple[str, ...]
    """The evidence turns that state the fact."""

    @property
    def expected_type(self) -> str:
        """The error type attribution should assign."""
        return EXPECTED[self.kind]


@dataclass
class FaultLog:
    """What a fault did while the system ran."""

    op_ids: list[str] = field(default_factory=list)
    """Ids of the operations the fault broke, in the order they ran."""
    sessions: list[str] = field(default_factory=list)
    """Sessions whose extraction was blinded (their ``extract`` op is looked up afterwards)."""
    applied: bool = False

    def broke(self, op_id: str | None) -> None:
        if op_id is not None:
            self.op_ids.append(op_id)
        self.applied = True


def _split(text: str) -> list[str]:

    return split_sentences(text)


def blind(session: Session, fault: Fault) -> Session | None:
    """``session`` without the sentences of the fault's evidence turns that state its fact.

    Returns ``None`` when the session holds none of them.
    """

    wanted = set(fault.turn_ids)
    turns = []
    changed = False
    for t in session.turns:
        if t.id in wanted:
            kept = [s for s in _split(t.text) if not states(s, fault.need)]
            text = " ".join(kept)
            if text != t.text:
                changed = True
                t = replace(t, text=text)
        turns.append(t)
    return SessionType(session.id, session.started_at, tuple(turns)) if changed else None


def corrupt_text(text: str, need: Need) -> str:
    """``text`` with every value of ``need`` replaced, so it no longer states the fact."""
    out = text
    for value in sorted((*need.values, *need.keys), key=len, reverse=True):
        if value.strip():
            out = re.sub(re.escape(value), FORGOTTEN, out, flags=re.IGNORECASE)
    if states(out, need):
        return f"They mentioned {FORGOTTEN}."
    return out


def inject(memory: MemorySystem, fault: Fault, log: FaultLog) -> None:
    """Patch ``memory`` (one instance) so it commits ``fault``; ``log`` records what it broke."""
    if fault.kind == "extraction":
        _blind_extraction(memory, fault, log)
    elif fault.kind in ("update", "deletion"):
        _break_store(memory, fault, log)
    elif fault.kind == "retrieval":
        _hide(memory, fault, log)
    elif fault.kind != "response":
        raise ConfigError(f"unknown fault kind {fault.kind!r}")


def _blind_extraction(memory: Any, fault: Fault, log: FaultLog) -> None:
    names = [n for n in ("extract_rules", "extract_llm", "summarize") if hasattr(memory, n)]
    for name in names:
        original = getattr(memory, name)

        def blinded(session: Session, _original: Any = original) -> Any:
            seen = blind(session, fault)
            if seen is None:
                return _original(session)
            log.sessions.append(session.id)
            log.applied = True
            return _original(seen)

        setattr(memory, name, blinded)


def _break_store(memory: Any, fault: Fault, log: FaultLog) -> None:

    ingest = memory.ingest
    done: set[str] = set()
    kind: Literal["UPDATE", "DELETE"] = "UPDATE" if fault.kind == "update" else "DELETE"
    wanted = set(fault.turn_ids)
    for name in ("update", "delete"):
        original = getattr(memory, name)

        def record(*args: Any, _original: Any = original) -> Any:
            # Several faults may patch one instance: each logs only the ops it caused.
            if getattr(memory, "_breaking", None) is log:
                log.broke(current_op().id)
            return _original(*args)

        setattr(memory, name, record)

    async def ingest_then_break(session: Session) -> None:
        await ingest(session)
        for unit in list(memory.store.live()):
            if unit.id in done or not wanted & set(unit.source_turn_ids):
                continue
            if not states(unit.text, fault.need):
                continue
            done.add(unit.id)
            text = corrupt_text(unit.text, fault.need) if kind == "UPDATE" else unit.text
            fact = CandidateFact(text, unit.source_turn_ids)
            memory._breaking = log
            try:
                memory.apply(Decision(kind, fact, unit.id), session)
            finally:
                memory._breaking = None

    memory.ingest = ingest_then_break


def _hide(memory: Any, fault: Fault, log: FaultLog) -> None:

    active = {"on": False}
    if isinstance(memory, Mem0Style):
        search = memory.search

        def search_without(query: str, texts: list[str]) -> list[int]:
            if not active["on"]:
                return search(query, texts)
            hidden = {i for i, t in enumerate(texts) if states(t, fault.need)}
            best = search(query, ["" if i in hidden else t for i, t in enumerate(texts)])
            return [i for i in best if i not in hidden]

        memory.search = search_without  # type: ignore[method-assign]
    elif isinstance(memory, RagMemory):
        rank = memory.rank

        def rank_without(query: str, allowed: Any) -> list[int]:
            if active["on"]:
                allowed = allowed.copy()
                for i, chunk in enumerate(memory.chunks):
                    if states(chunk.text, fault.need):
                        allowed[i] = False
            return rank(query, allowed)

        memory.rank = rank_without  # type: ignore[method-assign]
    elif not isinstance(memory, FullContext | OracleEvidence | SummaryMemory):
        raise ConfigError(f"no retrieval fault for {type(memory).__name__}")
    inner = memory.retrieve

    async def retrieve(question: Question) -> RetrievedContext:
        if question.id != fault.question.id:
            return await inner(question)
        saved: dict[str, Any] = {}
        if isinstance(memory, FullContext | OracleEvidence):
            saved["log"] = memory.log
            memory.log = _without_turns(memory.log, fault, SessionLog())
        elif isinstance(memory, SummaryMemory):
            saved["summaries"] = memory.summaries
            memory.summaries = [s for s in memory.summaries if not states(s.text, fault.need)]
        active["on"] = True
        try:
            context = await inner(question)
        finally:
            active["on"] = False
            for name, value in saved.items():
                setattr(memory, name, value)
        log.broke(context.trace_op_id)
        return context

    memory.retrieve = retrieve


def _without_turns(log: Any, fault: Fault, out: Any) -> Any:

    wanted = set(fault.turn_ids)
    for s in log.sessions:
        turns = tuple(t for t in s.turns if t.id not in wanted)
        out.append(SessionType(s.id, s.started_at, turns))
    return out


class CorruptAnswerer:
    """An answerer that replies to one question with a wrong answer object.

    Args:
        inner: The real answerer (its spec is kept).
        question: The target question; its query identifies the request.
    """

    def __init__(self, inner: ModelAPI, question: Question) -> None:
        self.inner = inner
        self.spec = inner.spec
        self.question = question

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        results = await self.inner.generate(requests)
        out = []
        for request, result in zip(requests, results, strict=True):
            if any(self.question.query in m.content for m in request.messages):
                result = replace(result, text=wrong_answer(self.question), error=None)
            out.append(result)
        return out


def wrong_answer(question: Question) -> str:
    """A well-formed answer object of the question's family that is wrong."""

    answer: dict[str, Any] = {f: FORGOTTEN for f in REQUIRED_FIELDS[question.family]}
    family = question.family
    if family == "ABS":
        answer = {"answerable": True, "answer": "Yes, it happened last spring."}
    elif family == "TR":
        answer.update(days=0, start_date="1999-01-01", end_date="1999-01-01")
        answer["final_answer"] = (
            "0 days"
            if question.meta.get("kind") != "same_day_order"
            else ("before" if "after" in str(question.gold.get("final_answer")) else "after")
        )
    elif family == "MA":
        verdict = str(question.gold.get("premise_verdict", "correct"))
        answer["premise_verdict"] = "correct" if verdict == "incorrect" else "incorrect"
        answer["corrected_facts"] = []
    elif family in ("MSR", "ES"):
        key = "event_chain" if family == "MSR" else "key_turning_points"
        answer[key] = [FORGOTTEN]
    return orjson.dumps(answer).decode()
