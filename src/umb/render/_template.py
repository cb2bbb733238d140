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
from umb.bench import TEMPLATE, Dialogue, Fact, Interlocutor, Session, Turn
from umb.render import _kindtalk as K
from umb.render import _phrases as P
from umb.render._chat import first_name, small_talk, transition
from umb.render._narrate import tell_event
from umb.render._timeexpr import clock, when
from umb.render._vary import pick
from umb.render._voice import Voice
from umb.world import (
    PROFILE_KIND,
    Character,
    Event,
    article,
    as_told_by,
    capitalise,
    rng_for,
    second_person,
)
from umb.world import _vocab as V

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


class TemplateRenderer:
    """Render dialogues from a world, deterministically from (seed, character)."""

    def __init__(self, seed: int, population: dict[str, Character], target_tokens: int) -> None:
        self.seed = seed
        self.people = population
        self.target_tokens = target_tokens
        self.causes: dict[str, tuple[Event, list[Fact]]] = {}

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

    def _other_name(self, e: Event, ch: Character) -> str | None:
        if not e.participants:
            return None
        return self.people[
            e.participants[0] if e.character_id == ch.id else e.character_id
        ].first_name

    def _event_summary(self, e: Event, ch: Character) -> str:
        other = self._other_name(e, ch)
        return e.summary.replace("together", f"with {other}") if other else e.summary

    def _event_block(
        self, rng: random.Random, e: Event, ch: Character, facts: list[Fact], session_at: str,
        same_day: bool,
    ) -> list[Line]:  # fmt: skip
        phrase = when(date.fromisoformat(e.at[:10]), date.fromisoformat(session_at[:10]), rng)
        if same_day or rng.random() < 0.4:
            phrase = f"{phrase} at {clock(e.at[11:])}"
        cause = None
        if e.caused_by:
            # Name the direct cause, or now and then the start of the whole storyline.
            cause_id = e.caused_by[0]
            while rng.random() < 0.5 and self.causes[cause_id][0].caused_by:
                cause_id = self.causes[cause_id][0].caused_by[0]
            cause = self.causes[cause_id]
        told = [ev for ev, _ in self.causes.values()]  # to keep a short reference unambiguous
        return tell_event(rng, e, facts, phrase, self._other_name(e, ch), cause, told)

    def _mood(self, line: Line) -> str:
        """The mood of the news ``line`` ends (neutral unless it tells or recalls an event)."""
        for fid in line[2]:
            event = self.causes.get(fid.split("/", 1)[0])
            if event is not None:
                return K.mood_of(event[0].kind)
        return "neutral"

    def _profile_blocks(
        self, rng: random.Random, ch: Character, other: str, facts: list[Fact]
    ) -> list[list[Line]]:
        greeting = pick(rng, P.FIRST_GREETINGS).format(name=ch.first_name, other=other)
        blocks: list[list[Line]] = [[("user", greeting, ())]]
        by_attr = {f.attribute: f for f in facts}
        values = {f.attribute: f.value for f in facts}
        forms = dict(values)
        for attr in ("partner", "pet", "car"):
            v = values.get(attr, "none")
            forms[f"{attr}_say"] = P.NONE_SAY[attr] if v == "none" else P.SOME_SAY[attr].format(v=v)
            forms[f"{attr}_cap"] = capitalise(forms[f"{attr}_say"])
        forms["pet_say"] = forms["pet_cap"]
        forms["job_title_a"] = article(values.get("job_title", ""))
        groups = list(P.PROFILE)
        for k, group in enumerate(groups):
            template, attrs = rng.choice(group)
            template = pick(rng, [template])
            block: list[Line] = [
                ("assistant", template.format(**forms), tuple(by_attr[a].id for a in attrs))
            ]
            if k < len(groups) - 1:
                react = pick(rng, P.REACTIONS["neutral"])  # a profile is news of no mood
                block.append(("user", f"{react} {pick(rng, P.NEXT)}", ()))
            blocks.append(block)
        return blocks

    def _callback(
        self, rng: random.Random, ch: Character, e: Event, facts: list[Fact], session_at: str
    ) -> list[Line]:
        summary = self._event_summary(e, ch)
        phrase = when(date.fromisoformat(e.at[:10]), date.fromisoformat(session_at[:10]), rng)
        ask = pick(rng, P.CALLBACKS).format(summary=second_person(summary))
        mood = K.mood_of(e.kind)
        replies = P.CALLBACK_REPLIES["neutral"] + P.CALLBACK_REPLIES.get(mood, ())
        reply = pick(rng, replies).format(summary=summary, when=phrase)
        # Both lines retell the event, so both state its fact and the slots its summary names
        # (the reply adds the day); a summary pastes slot values verbatim.
        slots = facts[1 : 1 + len(e.slots)]
        named = tuple(f.id for f in slots if f.value != "none" and f.value in summary)
        return [("user", ask, (facts[0].id, *named)), ("assistant", reply, (facts[0].id, *named))]

    # -- assembly -------------------------------------------------------------------------------

    def render(
        self,
        ch: Character,
        events: list[Event],
        facts_by_event: dict[str, list[Fact]],
        dialogue_id: str,
    ) -> Dialogue:
        """The dialogue of ``ch``; ``events`` are in time order and start with the profile."""
        events = [as_told_by(e, ch) for e in events]  # a joint event from ch's side
        rng = rng_for(self.seed, "render", ch.id)
        self.causes = {e.id: (e, facts_by_event[e.id]) for e in events}
        target = max(1000, int(self.target_tokens * rng.uniform(0.85, 1.15)))
        other_first = rng.choice(V.FIRST_NAMES[rng.choice(("female", "male"))])
        while other_first == ch.first_name:  # two people of one name would blur who said what
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
        recalled: set[str] = set()  # each old event is called back at most once
        for i, s in enumerate(sessions):
            if i == 0:
                s.blocks += self._profile_blocks(rng, ch, other, facts_by_event[events[0].id])
                s.head = len(s.blocks)
            else:
                hello = _time_of_day(pick(rng, P.HELLO), s.at)
                greet = f"{hello}, {pick(rng, P.HOW)}".format(name=ch.first_name)
                s.blocks.append([("user", capitalise(greet), ())])
            for e in s.events:
                same_day = days.count(e.at[:10]) > 1
                s.blocks.append(self._event_block(rng, e, ch, facts_by_event[e.id], s.at, same_day))
            fresh = [e for e in told if e.id not in recalled]
            if fresh and rng.random() < 0.6:
                old = rng.choice(fresh)
                recalled.add(old.id)
                s.blocks.insert(
                    s.head + rng.randrange(len(s.blocks) - s.head + 1),
                    self._callback(rng, ch, old, facts_by_event[old.id], s.at),
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
            fresh = [e for e in earlier if e.id not in recalled]
            if fresh and rng.random() < 0.1:
                old = rng.choice(fresh)
                recalled.add(old.id)
                block = self._callback(rng, ch, old, facts_by_event[old.id], s.at)
            else:
                block = small_talk(rng, ch.first_name, other_first)
            s.blocks.insert(s.head + rng.randrange(len(s.blocks) - s.head + 1), block)
            tokens += sum(estimate_tokens(t) for _, t, _ in block)
        voice = Voice(ch.speech, rng_for(self.seed, "spelling", ch.id).choice(("uk", "us")))
        out: list[Session] = []
        for i, s in enumerate(sessions, start=1):
            bye = f"{pick(rng, P.BYE)}. {pick(rng, P.BYE_TAIL)}"
            friend = first_name(rng, (ch.first_name, other_first))  # regards to someone else
            reply = f"{pick(rng, P.BYE_REPLY)}! {pick(rng, P.BYE_REPLY_TAIL)}"
            reply = reply.format(name=ch.first_name, friend=friend)
            s.blocks.append([("assistant", bye, ()), ("user", reply, ())])
            sid = f"{dialogue_id}:S{i:03d}"
            said: list[Line] = []
            for b in s.blocks:
                if said and said[-1][0] == b[0][0] == "assistant":
                    # The interlocutor moves things on, so two pieces of news do not run together.
                    mood = self._mood(said[-1])
                    said.append(("user", transition(rng, mood, (ch.first_name, other_first)), ()))
                said += [(r, voice.say(rng, t, bool(ids)) if r == "assistant" else t, ids)
                         for r, t, ids in b]  # fmt: skip
            lines = _alternate(said)
            turns = tuple(
                Turn(f"{sid}:T{j:04d}", r, ch.name if r == "assistant" else other, text, ids)
                for j, (r, text, ids) in enumerate(lines, start=1)
            )
            out.append(Session(sid, s.at, turns, TEMPLATE))
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


def _time_of_day(hello: str, at: str) -> str:
    """``hello`` with its "Morning" fitted to the session's hour (``at``: ``YYYY-MM-DDTHH:MM``):
    a catch-up at 15:00 opens with "Afternoon", one at 19:00 with "Evening"."""
    hour = int(at[11:13])
    if hour < 12:
        return hello
    return hello.replace("Morning", "Afternoon" if hour < 18 else "Evening")
