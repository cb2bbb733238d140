"""``mem0_style``: Mem0's classic write path, with an LLM or with generic rules.

Per ingested session: extract candidate facts from the new messages, find similar existing
memories, decide ADD / UPDATE / DELETE / NONE for each fact, apply. With a language-model
extractor the extract and decide steps are the two JSON prompts of
:mod:`umb.memory._llm_prompts`; with ``offline`` (or none) the rules of
:mod:`umb.memory._mem0_rules` decide, one fact at a time. Each step is its own method so a
tracer can wrap it.

Read path: the ``top_k`` memories best matching the question (reciprocal rank fusion of BM25
and embedding similarity), as they stood when it was asked (the version history makes that
exact), rendered ``[date] text`` in time order.
"""

from __future__ import annotations

from collections import Counter
from typing import cast

import numpy as np

from umb.bench import Question, Session
from umb.memory._api import MemoryConfig, MemorySystem, RetrievedContext
from umb.memory._index import LexicalIndex, ranking, reciprocal_rank_fusion
from umb.memory._llm_prompts import decide_request, extract_request, parse_facts, parse_operations
from umb.memory._mem0_rules import (
    CandidateFact,
    Decision,
    attribute_turns,
    character_name,
    decide_by_rules,
    extract_by_rules,
    search_text,
    strip_name,
)
from umb.memory._render import render_units, unit_date
from umb.memory._store import MemoryStore
from umb.memory._tracing import read_items, tracing
from umb.memory._units import Event, MemoryUnit, MemoryVersion, in_time_order, versions_seen
from umb.memory._write_trace import BatchTrace, wrote
from umb.models import GenerateRequest, ModelAPI
from umb.trace import current_op, memory_var, memory_vars

#: How many existing memories each new fact is compared with.
SIMILAR_K = 5


class Mem0Style(MemorySystem):
    """Extract, compare, decide, apply; retrieve by similarity. See the module docstring."""

    name = "mem0_style"
    description = "Extract facts, add/update/delete them in a memory store, retrieve the top-k."
    ranked = True

    def __init__(self, config: MemoryConfig, extractor: ModelAPI | None = None) -> None:
        super().__init__(config, extractor)
        self.store = MemoryStore()
        self.stats: Counter[str] = Counter()
        self._name = "the speaker"
        self._sessions = 0
        self._batch = BatchTrace()

    async def ingest(self, session: Session) -> None:
        """Run the write path on one session."""
        self._name = character_name(session)
        self._sessions += 1
        if not self.uses_llm:
            for fact in self.extract_rules(session):
                for decision in self.decide_rules(fact, self.find_similar(fact)):
                    self.apply(decision, session)
            return
        facts = await self.extract_llm(session)
        if not facts:
            return
        similar: dict[str, MemoryUnit] = {}
        for fact in facts:
            similar.update((u.id, u) for u in self.find_similar(fact))
        # Offer candidates in store order, so short ids do not depend on similarity ties.
        ordered = [u for uid, u in self.store.units.items() if uid in similar]
        decisions = await self.decide_llm(facts, ordered, session)
        for decision in decisions or ():
            self.apply(decision, session)

    # --- extract ------------------------------------------------------------------------------

    def extract_rules(self, session: Session) -> list[CandidateFact]:
        """Informative first-person sentences of the character, rewritten in the third person."""
        self._batch = BatchTrace(session)
        with self._batch.extract() as op:
            facts = extract_by_rules(session)
            self._batch.candidates(op, facts)
        return facts

    async def extract_llm(self, session: Session) -> list[CandidateFact] | None:
        """Ask the extractor for the session's facts; ``None`` (counted) if the reply is bad."""
        self._batch = BatchTrace(session)
        with self._batch.extract(self._spec) as op:
            reply = await self._ask(extract_request(session, self._name, self._sessions))
            texts = parse_facts(reply) if reply is not None else None
            if reply is not None and texts is None:
                self.stats["invalid_json"] += 1
                self.stats["skipped_batches"] += 1
                op.fail("invalid JSON from the extractor")
            if texts is None:
                if reply is None:
                    op.fail("the extractor call failed")
                return None
            facts = [CandidateFact(t, attribute_turns(t, session)) for t in texts]
            self._batch.candidates(op, facts)
        return facts

    # --- compare ------------------------------------------------------------------------------

    def find_similar(self, fact: CandidateFact) -> list[MemoryUnit]:
        """Live memories on the fact's key first, then the most similar others."""
        keyed = [u for u in self.store.live() if fact.key and u.key == fact.key]
        same = self.store.with_text(fact.text)
        taken = {u.id for u in keyed}
        if same is not None:  # a verbatim repeat: no need to search (dialogues repeat a lot)
            return keyed if same.id in taken else [*keyed, same]
        near = [u for u, _ in self.store.search(fact.text, SIMILAR_K) if u.id not in taken]
        return keyed + near

    # --- decide -------------------------------------------------------------------------------

    def decide_rules(self, fact: CandidateFact, similar: list[MemoryUnit]) -> list[Decision]:
        """Endings delete what they end; a new value on a known key updates; a statement that
        says nothing new is NONE; one that says strictly more than a memory enriches it."""
        with self._batch.decide([fact], (u.id for u in similar)) as op:
            decisions = decide_by_rules(fact, similar, self._name)
            self._batch.decided(op, decisions)
        return decisions

    async def decide_llm(
        self, facts: list[CandidateFact], similar: list[MemoryUnit], session: Session
    ) -> list[Decision] | None:
        """Ask the extractor to decide; without existing memories every fact is an ADD."""
        model = self._spec if similar else None
        with self._batch.decide(facts, (u.id for u in similar), model) as op:
            decisions = await self._decide_llm(facts, similar, session)
            if decisions is None:
                op.fail("the extractor's decision failed or was invalid JSON")
            else:
                self._batch.decided(op, decisions, with_candidates=True)
        return decisions

    async def _decide_llm(
        self, facts: list[CandidateFact], similar: list[MemoryUnit], session: Session
    ) -> list[Decision] | None:
        if not similar:
            return [Decision("ADD", f) for f in facts]
        short_ids = {str(i): u.id for i, u in enumerate(similar)}
        existing = [{"id": str(i), "text": u.text} for i, u in enumerate(similar)]
        reply = await self._ask(decide_request(existing, [f.text for f in facts]))
        if reply is None:
            return None
        ops = parse_operations(reply)
        if ops is None:
            self.stats["invalid_json"] += 1
            self.stats["skipped_batches"] += 1
            return None
        decisions = []
        for op in ops:
            event, target = op["event"], short_ids.get(op["id"])
            needs_target = event in ("UPDATE", "DELETE")
            needs_text = event in ("ADD", "UPDATE")
            if (
                event.startswith("?")
                or (needs_target and target is None)
                or (needs_text and not op["text"])
            ):
                self.stats["invalid_ops"] += 1
                continue
            text = op["text"] or (self.store.units[target].text if target else "")
            fact = CandidateFact(text, attribute_turns(text, session))
            decisions.append(Decision(cast(Event, event), fact, target))
        return decisions

    # --- apply --------------------------------------------------------------------------------

    def apply(self, decision: Decision, session: Session) -> None:
        """Carry out one decision (traced as an ``add``, ``update`` or ``delete`` operation)."""
        self.stats[decision.event] += 1
        fact, target = decision.fact, decision.target_id
        if decision.event == "ADD":
            with self._batch.apply("add", fact) as op:
                unit = self.add(fact, session)
                wrote(op, unit.id, unit.text)
        elif decision.event == "UPDATE" and target is not None:
            with self._batch.apply("update", fact, target) as op:
                unit = self.update(target, fact, session)
                wrote(op, unit.id, unit.text)
        elif decision.event == "DELETE" and target is not None:
            with self._batch.apply("delete", fact, target) as op:
                self.delete(target, fact, session)
                op.delete(memory_var(target))

    def add(self, fact: CandidateFact, session: Session) -> MemoryUnit:
        """Store a new memory."""
        return self.store.add(self._version("ADD", fact.text, fact, session), fact.key)

    def update(self, unit_id: str, fact: CandidateFact, session: Session) -> MemoryUnit:
        """Replace a memory's text with the fact, keeping the old text in its history."""
        return self.store.append(unit_id, self._version("UPDATE", fact.text, fact, session))

    def delete(self, unit_id: str, fact: CandidateFact, session: Session) -> MemoryUnit:
        """Retire a memory; its last version keeps its text and records the ending turns."""
        text = self.store.units[unit_id].text
        return self.store.append(unit_id, self._version("DELETE", text, fact, session))

    def _version(
        self, event: Event, text: str, fact: CandidateFact, session: Session
    ) -> MemoryVersion:
        return MemoryVersion(
            0,
            event,
            text,
            unit_date(session.started_at),
            session.started_at,
            session.id,
            fact.source_turn_ids,
        )

    @property
    def _spec(self) -> str | None:
        """The extractor's spec when it is a language model."""
        return self.extractor.spec if self.uses_llm and self.extractor else None

    async def _ask(self, request: GenerateRequest) -> str | None:
        """One extractor call; ``None`` (counted) if the call failed."""
        assert self.extractor is not None
        self.stats["llm_calls"] += 1
        (result,) = await self.extractor.generate([request])
        current_op().usage(self.extractor.spec, result.input_tokens, result.output_tokens)
        if result.error is not None:
            self.stats["failed_calls"] += 1
            self.stats["skipped_batches"] += 1
            return None
        return result.text

    # --- read ---------------------------------------------------------------------------------

    async def retrieve(self, question: Question) -> RetrievedContext:
        """The ``top_k`` memories (as of ``question.asked_at``) best matching the question."""
        views = versions_seen(self.store.units.values(), question.asked_at)
        texts = [search_text(u, v.text, self._name) for u, v in views]
        best = self.search(strip_name(question.query, self._name), texts)
        if tracing():
            read_items(memory_vars(views[i][0].id for i in best))
        versions, item_ids, turn_ids = in_time_order(views[i] for i in best)
        return self._context(
            render_units(versions),
            item_ids=item_ids,
            source_turn_ids=turn_ids,
            memory_units=len(views),
            extractor=self._spec or "rules",
            write_stats=dict(sorted(self.stats.items())),
        )

    def search(self, query: str, texts: list[str]) -> list[int]:
        """Positions of the ``top_k`` texts for ``query``: BM25 and cosine ranks fused (RRF)."""
        if not texts:
            return []
        lexical = LexicalIndex()
        lexical.add(texts)
        scores = lexical.scores(query)
        everything = np.ones(len(texts), dtype=np.bool_)
        fused = reciprocal_rank_fusion(
            [
                ranking(scores, scores > 0),
                ranking(self.store.similarity(query, texts), everything),
            ]
        )
        return fused[: self.config.top_k]
