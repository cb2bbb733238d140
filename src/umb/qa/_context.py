"""What every question family needs: the character's world, where facts were said, wording."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from umb.bench import Dialogue, Evidence, Fact, Question
from umb.qa._describe import DESCRIPTORS, month
from umb.world import PROFILE_KIND, CharacterWorld, Event


@dataclass
class QAContext:
    """One character's world and dialogue, ready for question builders."""

    world: CharacterWorld
    dialogue: Dialogue
    said: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)
    """fact id -> [(turn id, session id, session start)] in dialogue order."""
    _by_id: dict[str, Fact] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for s in self.dialogue.sessions:
            for t in s.turns:
                for fid in t.fact_ids:
                    self.said.setdefault(fid, []).append((t.id, s.id, s.started_at))

    @property
    def first(self) -> str:
        return self.world.character.first_name

    @property
    def pronoun(self) -> str:
        return "she" if self.world.character.gender == "female" else "he"

    @property
    def possessive(self) -> str:
        return "her" if self.world.character.gender == "female" else "his"

    @property
    def end_at(self) -> str:
        """The default time questions are asked: the morning after the last session."""
        last = datetime.strptime(self.dialogue.sessions[-1].started_at, "%Y-%m-%dT%H:%M")
        return (last + timedelta(days=1)).replace(hour=9, minute=0).strftime("%Y-%m-%dT%H:%M")

    def own_events(self) -> list[Event]:
        """The character's told events, profile excluded."""
        return [e for e in self.world.events if e.kind != PROFILE_KIND]

    def describe(self, e: Event) -> str | None:
        """A unique pointer to ``e`` that names none of its slot values, or None."""
        pattern = DESCRIPTORS.get(e.kind)
        if pattern is None or e.character_id != self.world.character.id:
            return None
        twins = [
            x
            for x in self.own_events()
            if x.kind == e.kind
            and x.at[:7] == e.at[:7]
            and x.slots.get("item") == e.slots.get("item")
        ]
        if len(twins) > 1:
            return None
        return pattern.format(first=self.first, month=month(e.at), item=e.slots.get("item", ""))

    def facts_of(self, e: Event) -> list[Any]:
        return self.world.facts[e.id]

    def evidence(self, events: list[Event], fact_ids: list[str], asked_at: str) -> Evidence:
        """Evidence: every turn stating an answer fact in a session started before ``asked_at``.

        A turn states an answer fact when it carries that fact's id (first telling, the
        interlocutor's echo, a retelling in a later session) or the id of an equivalent fact:
        same character, same event, same attribute and value (a "changed from" fact and the
        slot fact of one job both say the new title). Session ids are those turns' sessions.
        """
        turns: list[str] = []
        sessions: list[str] = []
        for fid in fact_ids:
            said = [x for x in self._restated(fid) if x[2] < asked_at]
            if not said:
                raise AssertionError(f"fact {fid} is never stated before {asked_at}")
            for turn_id, session_id, _ in said:
                if turn_id not in turns:
                    turns.append(turn_id)
                if session_id not in sessions:
                    sessions.append(session_id)
        return Evidence(tuple(e.id for e in events), tuple(fact_ids), tuple(sessions), tuple(turns))

    def equivalents(self, fid: str) -> list[str]:
        """``fid`` and the facts stating the same value of the same attribute of its event."""
        if not self._by_id:
            self._by_id = {f.id: f for fs in self.world.facts.values() for f in fs}
        f = self._by_id.get(fid)
        if f is None:
            return [fid]
        same = [
            g.id
            for g in self.world.facts.get(f.event_id, [])
            if (g.character_id, g.attribute, g.value) == (f.character_id, f.attribute, f.value)
        ]
        return same or [fid]

    def _restated(self, fid: str) -> list[tuple[str, str, str]]:
        """Every telling of ``fid`` or an equivalent fact, in dialogue order."""
        order = {t.id: i for i, t in enumerate(x for s in self.dialogue.sessions for x in s.turns)}
        told = [x for g in self.equivalents(fid) for x in self.said.get(g, [])]
        return sorted(set(told), key=lambda x: order[x[0]])

    def question(
        self,
        family: str,
        k: int,
        query: str,
        asked_at: str,
        gold: dict[str, Any],
        components: list[str],
        evidence: Evidence,
        meta: dict[str, Any],
    ) -> Question:
        qid = f"Q-{self.dialogue.id}-{family}-{k:02d}"
        return Question(
            qid, self.dialogue.id, family, query, asked_at, gold, tuple(components), evidence, meta
        )

    def slot_fact(self, e: Event, slot: str) -> str:
        """The id of the fact stating ``slot`` of ``e`` in this character's history."""
        for f in self.facts_of(e):
            if f.attribute == slot and f.value == e.slots[slot] and "changed from" not in f.text:
                return str(f.id)
        raise KeyError(slot)

    def session_after(self, at: str) -> str | None:
        """The start of the first session after ``at`` that is not the first session."""
        for s in self.dialogue.sessions[1:]:
            if s.started_at > at:
                return s.started_at
        return None
