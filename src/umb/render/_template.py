"""The template renderer: one character's events -> a dated multi-session dialogue.

Each event is told in the first session after it happened, with every slot and state change
stated in a turn that lists the fact ids it states. Later sessions call back to older events,
and small talk pads each dialogue to its token target.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from umb._tokens import estimate_tokens
from umb.bench import Dialogue, Fact, Interlocutor, Session, Turn
from umb.render import _phrases as P
from umb.render._timeexpr import clock, when
from umb.world import _vocab as V
from umb.world._facts import PROFILE_KIND
from umb.world._records import Character, Event
from umb.world._rng import rng_for

# Sentence starts that read right in lower case after an opener ("Well, it was ...");
# anything else (names, "I", "Dr.") keeps its capital.
_COMMON_STARTS = frozenset(
    "It It's The My That That's We They There These This Now So A An All About As Before "
    "Everything Finally Officially Roughly Leaving Goodbye Turned Tickets Relationship-wise "
    "Pets: Partner: Name: No Yesterday Today Earlier Last Exactly On Ha, Oh, Right, "
    "Whatever Do Nothing Small Funny Could Life Anyway".split()
)

# A block is a run of turns kept together: (role, text, fact ids).
Line = tuple[str, str, tuple[str, ...]]


@dataclass
class _Session:
    at: str
    events: list[Event] = field(default_factory=list)
    blocks: list[list[Line]] = field(default_factory=list)
    head: int = 1
    """Filler goes after the first ``head`` blocks (the greeting, the self-introduction)."""


def _dt(stamp: str) -> datetime:
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M")


def _stamp(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%dT%H:%M")


def second_person(summary: str) -> str:
    return "were " + summary[4:] if summary.startswith("was ") else summary


class TemplateRenderer:
    """Render dialogues from a world, deterministically from (seed, character)."""

    def __init__(self, seed: int, population: dict[str, Character], target_tokens: int) -> None:
        self.seed = seed
        self.people = population
        self.target_tokens = target_tokens

    # -- planning -------------------------------------------------------------------------------

    def _session_dates(self, rng: random.Random, events: list[Event], target: int) -> list[str]:
        told = [e for e in events if e.kind != PROFILE_KIND]
        first = _dt(events[0].at) + timedelta(hours=rng.randint(9, 12))
        dates = {_stamp(first)}
        horizon = _dt(told[-1].at) if told else first
        anchored: list[datetime] = [first]
        for e in told:
            t = _dt(e.at)
            if not any(t < s <= t + timedelta(days=30) for s in anchored):
                s = datetime(t.year, t.month, t.day) + timedelta(
                    days=rng.randint(1, 25), minutes=rng.randrange(8 * 60, 21 * 60, 5)
                )
                anchored.append(s)
                dates.add(_stamp(s))
        # More sessions for longer dialogues: about one per 2,500 tokens of target.
        extra = max(0, target // 2500 - len(dates))
        span = max(1, int((horizon - first).total_seconds() // 60))
        for _ in range(extra):
            dates.add(_stamp(first + timedelta(minutes=rng.randrange(0, span, 5))))
        return sorted(dates)

    # -- wording --------------------------------------------------------------------------------

    def _say(self, rng: random.Random, ch: Character, text: str) -> str:
        sp = ch.speech
        if rng.random() < 0.35:
            first_word = text.split(" ", 1)[0]
            lower = first_word in _COMMON_STARTS
            text = f"{rng.choice(sp.openers)} {text[0].lower() + text[1:] if lower else text}"
        if sp.exclaims and text.endswith(".") and rng.random() < 0.3:
            text = text[:-1] + "!"
        if sp.verbosity == "chatty" and rng.random() < 0.2:
            text = f"{text} {sp.catchphrase.capitalize()}"
        return text

    def _event_summary(self, e: Event, ch: Character) -> str:
        if not e.participants:
            return e.summary
        other = self.people[e.participants[0] if e.character_id == ch.id else e.character_id]
        return e.summary.replace("together", f"with {other.first_name}")

    def _event_block(
        self,
        rng: random.Random,
        e: Event,
        ch: Character,
        facts: list[Fact],
        session_at: str,
        same_day: bool,
    ) -> list[Line]:
        # facts = [event fact, one fact per slot (slot order), one per state change]
        n_slots = len(e.slots)
        main, slot_facts, change_facts = facts[0], facts[1 : 1 + n_slots], facts[1 + n_slots :]
        phrase = when(date.fromisoformat(e.at[:10]), date.fromisoformat(session_at[:10]), rng)
        at_time = f" at {clock(e.at[11:])}" if same_day or rng.random() < 0.4 else ""
        said = f"{phrase[0].upper()}{phrase[1:]}{at_time}, I {self._event_summary(e, ch)}."
        lines: list[Line] = [
            ("assistant", self._say(rng, ch, said), (main.id,)),
            ("user", rng.choice(P.REACTIONS), ()),
        ]
        pending = list(slot_facts)
        while pending:
            take = pending[: rng.randint(1, 3)]
            pending = pending[len(take) :]
            text = " ".join(
                rng.choice(P.SLOT_PHRASES.get(f.attribute, ("The {a} was {v}.",))).format(
                    v=f.value, a=f.attribute.replace("_", " ")
                )
                for f in take
            )
            lines.append(("assistant", self._say(rng, ch, text), tuple(f.id for f in take)))
            if pending:
                lines.append(("user", rng.choice(P.REACTIONS), ()))
        for sc, f in zip(e.state_changes, change_facts, strict=True):
            key = sc.attribute
            if key == "partner" and sc.new == "none":
                key = "partner_none"
            elif key == "car" and sc.old == "none":
                key = "car_first"
            text = rng.choice(P.CHANGE_PHRASES[key]).format(old=sc.old, new=sc.new)
            lines.append(("assistant", text, (f.id,)))
        return lines

    def _profile_blocks(
        self, rng: random.Random, ch: Character, other: str, facts: list[Fact]
    ) -> list[list[Line]]:
        greeting = rng.choice(P.FIRST_GREETINGS).format(name=ch.first_name, other=other)
        blocks: list[list[Line]] = [[("user", greeting, ())]]
        pending = list(facts)
        while pending:
            take, pending = pending[:3], pending[3:]
            text = " ".join(P.PROFILE_PHRASES[f.attribute].format(v=f.value) for f in take)
            block: list[Line] = [("assistant", self._say(rng, ch, text), tuple(f.id for f in take))]
            if pending:
                block.append(("user", rng.choice(P.REACTIONS), ()))
            blocks.append(block)
        return blocks

    def _callback(
        self, rng: random.Random, ch: Character, e: Event, fact: Fact, session_at: str
    ) -> list[Line]:
        summary = self._event_summary(e, ch)
        phrase = when(date.fromisoformat(e.at[:10]), date.fromisoformat(session_at[:10]), rng)
        ask = rng.choice(P.CALLBACKS).format(summary=second_person(summary))
        reply = rng.choice(P.CALLBACK_REPLIES).format(summary=summary, when=phrase)
        return [("user", ask, ()), ("assistant", self._say(rng, ch, reply), (fact.id,))]

    def _small_talk(self, rng: random.Random, ch: Character) -> list[Line]:
        topic = rng.choice(P.SMALL_TALK_TOPICS)
        text = f"{topic[0].upper()}{topic[1:]}. {rng.choice(P.SMALL_TALK_TAILS)}"
        return [
            ("user", rng.choice(P.SMALL_TALK_PROMPTS), ()),
            ("assistant", self._say(rng, ch, text), ()),
        ]

    # -- assembly -------------------------------------------------------------------------------

    def render(
        self,
        ch: Character,
        events: list[Event],
        facts_by_event: dict[str, list[Fact]],
        dialogue_id: str,
    ) -> Dialogue:
        """The dialogue of ``ch``; ``events`` are in time order and start with the profile."""
        rng = rng_for(self.seed, "render", ch.id)
        target = max(1000, int(self.target_tokens * rng.uniform(0.85, 1.15)))
        other_first = rng.choice(V.FIRST_NAMES[rng.choice(("female", "male"))])
        role, scene = rng.choice(V.INTERLOCUTOR_ROLES)
        other = f"{other_first} {rng.choice(V.LAST_NAMES)}"
        sessions = [_Session(at) for at in self._session_dates(rng, events, target)]
        days = [e.at[:10] for e in events]
        k = 0
        for e in events[1:]:
            while sessions[k].at <= e.at:
                k += 1
                if k == len(sessions):
                    raise AssertionError(f"{e.id} happens after the last session")
            sessions[k].events.append(e)
        told: list[Event] = []
        for i, s in enumerate(sessions):
            if i == 0:
                s.blocks += self._profile_blocks(rng, ch, other, facts_by_event[events[0].id])
                s.head = len(s.blocks)
            else:
                greet = rng.choice(P.GREETINGS).format(name=ch.first_name)
                s.blocks.append([("user", greet, ())])
            for e in s.events:
                same_day = days.count(e.at[:10]) > 1
                s.blocks.append(self._event_block(rng, e, ch, facts_by_event[e.id], s.at, same_day))
            if told and rng.random() < 0.6:
                old = rng.choice(told)
                s.blocks.insert(
                    s.head + rng.randrange(len(s.blocks) - s.head + 1),
                    self._callback(rng, ch, old, facts_by_event[old.id][0], s.at),
                )
            told += s.events
        tokens = sum(estimate_tokens(t) for s in sessions for b in s.blocks for _, t, _ in b)
        # Pad with small talk (and the odd callback) until the dialogue reaches its target size.
        told_before: list[list[Event]] = [[]]
        for s in sessions[:-1]:
            told_before.append(told_before[-1] + s.events)
        while tokens < target:
            i = rng.randrange(len(sessions))
            s, earlier = sessions[i], told_before[i]
            if earlier and rng.random() < 0.15:
                old = rng.choice(earlier)
                block = self._callback(rng, ch, old, facts_by_event[old.id][0], s.at)
            else:
                block = self._small_talk(rng, ch)
            s.blocks.insert(s.head + rng.randrange(len(s.blocks) - s.head + 1), block)
            tokens += sum(estimate_tokens(t) for _, t, _ in block)
        out: list[Session] = []
        for i, s in enumerate(sessions, start=1):
            s.blocks.append(
                [
                    ("assistant", rng.choice(P.GOODBYES), ()),
                    ("user", rng.choice(P.GOODBYE_REPLIES), ()),
                ]
            )
            sid = f"{dialogue_id}:S{i:03d}"
            lines = _alternate([x for b in s.blocks for x in b])
            turns = tuple(
                Turn(f"{sid}:T{j:04d}", r, ch.name if r == "assistant" else other, text, ids)
                for j, (r, text, ids) in enumerate(lines, start=1)
            )
            out.append(Session(sid, s.at, turns))
        return Dialogue(dialogue_id, ch.id, Interlocutor(other, role, scene), tuple(out))


def _alternate(lines: list[Line]) -> list[Line]:
    """Merge consecutive lines of one speaker into one turn, so speakers alternate."""
    out: list[Line] = []
    for role, text, ids in lines:
        if out and out[-1][0] == role:
            _, prev_text, prev_ids = out[-1]
            out[-1] = (role, f"{prev_text} {text}", prev_ids + ids)
        else:
            out.append((role, text, ids))
    return out
