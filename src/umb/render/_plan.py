"""Session plans: what the renderer must write in each session, derived from the world.

A plan holds the facts to state (with their exact values), the session date, the scene and the
interlocutor, the character's speech profile and state before the session, filler topics and
now and then a dialogue dynamic. It never holds question text. The session skeleton (dates,
interlocutor, sizes) comes from the template renderer, so an LLM dialogue has the same sessions,
dates and questions as its template twin.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from umb._tokens import estimate_tokens
from umb.bench import Dialogue, Fact, Interlocutor
from umb.render import _phrases as P
from umb.render._timeexpr import clock, phrases_for
from umb.render._values import matcher, normalise
from umb.world import PROFILE_KIND, Character, CharacterWorld, Event, rng_for

DYNAMICS = (
    "{other} is running a little late and apologises at the start.",
    "{other} mishears a word during the small talk and {first} good-naturedly corrects it.",
    "They briefly disagree about one of the small-talk topics, then laugh it off.",
    "{other} is interrupted by a phone call for a moment and comes back to the conversation.",
    "{first} is tired today and answers a bit more briefly than usual at first.",
    "{other} shares a short piece of their own news (nothing about {first}).",
    "{first} teases {other} about something from the small talk.",
)
DYNAMIC_RATE = 0.3
CALLBACK_RATE = 0.4
#: Tokens per turn of a written session (the original release averaged about 100; chat models
#: write shorter turns than that when asked for a natural chat).
TOKENS_PER_TURN = 60


@dataclass(frozen=True)
class FactSpec:
    """One fact a session is to state."""

    id: str
    event_id: str
    kind: str
    """``profile`` (initial state), ``event`` (it happened, on its day), ``slot`` or ``change``."""
    attribute: str
    value: str
    text: str
    """The world's sentence for the fact (shown to the verifier)."""
    old: str | None = None
    """For a change: the value it replaced."""
    required: bool = True
    """False for callbacks: recorded when said, never repaired."""


@dataclass(frozen=True)
class EventBrief:
    """An event as the character tells it in one session."""

    event_id: str
    day: str
    """``YYYY-MM-DD``."""
    time: str
    """``HH:MM``."""
    summary: str
    """A verb phrase from the character's point of view (``had dinner with Maya``)."""
    when: str
    """The phrase to name the day with, exact on the session date (``three days ago``)."""
    clock: str | None
    """The clock time (``2:05 pm``) when another event of the character shares its day."""
    facts: tuple[FactSpec, ...]


@dataclass(frozen=True)
class SessionPlan:
    """Everything the renderer is told about one session, plus what the leak check needs."""

    dialogue_id: str
    session_id: str
    number: int
    total: int
    started_at: str
    character: str
    first_name: str
    persona: str
    speech: str
    interlocutor: Interlocutor
    state: tuple[tuple[str, str], ...]
    """Tracked attributes before this session's news, as (attribute, value)."""
    profile: tuple[FactSpec, ...]
    """The initial state, told in the first session."""
    news: tuple[EventBrief, ...]
    callbacks: tuple[EventBrief, ...]
    filler: tuple[str, ...]
    dynamic: str | None
    target_turns: int
    target_tokens: int
    forbidden: tuple[tuple[str, str], ...]
    """(attribute, value) of later facts not known yet; never shown to the renderer."""

    def required_facts(self) -> list[FactSpec]:
        """The facts this session must state."""
        return [*self.profile, *(f for e in self.news for f in e.facts)]

    def optional_facts(self) -> list[FactSpec]:
        """Callback facts: recorded when said."""
        return [f for e in self.callbacks for f in e.facts]


@dataclass(frozen=True)
class DialoguePlan:
    """The plans of every session of one dialogue."""

    dialogue_id: str
    character_id: str
    self_names: tuple[str, ...]
    """The character's full and first name (present in every line they say)."""
    sessions: tuple[SessionPlan, ...]


def _split_facts(e: Event, facts: list[Fact]) -> list[FactSpec]:
    if e.kind == PROFILE_KIND:
        return [FactSpec(f.id, e.id, "profile", f.attribute, f.value, f.text) for f in facts]
    n = len(e.slots)
    head = facts[0]
    out = [FactSpec(head.id, e.id, "event", "event", head.value, head.text)]
    out += [FactSpec(f.id, e.id, "slot", f.attribute, f.value, f.text) for f in facts[1 : 1 + n]]
    for change, f in zip(e.state_changes, facts[1 + n :], strict=True):
        out.append(FactSpec(f.id, e.id, "change", f.attribute, f.value, f.text, old=change.old))
    return out


def pov_summary(e: Event, ch: Character, names: dict[str, str]) -> str:
    """The event's summary as ``ch`` tells it (a joint event names the other person)."""
    if not e.participants or "together" not in e.summary:
        return e.summary
    other = e.participants[0] if e.character_id == ch.id else e.character_id
    name = names.get(other)
    return e.summary.replace("together", f"with {name}") if name else e.summary


def _speech(ch: Character) -> str:
    sp = ch.speech
    bits = [
        f"{sp.formality} and {sp.verbosity}",
        "often starts with " + " or ".join(f'"{o}"' for o in sp.openers),
        f'now and then says "{sp.catchphrase}"',
        "exclaims a lot" if sp.exclaims else "rarely exclaims",
    ]
    return "; ".join(bits)


def _age(ch: Character, start: str, at: str) -> int:
    a, b = date.fromisoformat(start[:10]), date.fromisoformat(at[:10])
    return ch.age + b.year - a.year - ((b.month, b.day) < (a.month, a.day))


def _state_at(world: CharacterWorld, at: str) -> tuple[tuple[str, str], ...]:
    out = []
    for attr, points in world.timelines.items():
        before = [p for p in points if str(p["at"]) < at]
        if before:
            out.append((attr, str(before[-1]["value"])))
    return tuple(out)


def plan_dialogue(
    seed: int, world: CharacterWorld, skeleton: Dialogue, names: dict[str, str]
) -> DialoguePlan:
    """Plan every session of ``world``'s dialogue on the sessions of ``skeleton``.

    Args:
        seed: The benchmark's seed (filler, dynamics and callbacks are drawn from it).
        world: The character's world; ``events[0]`` is the profile.
        skeleton: A dialogue of the same character giving session ids, dates, interlocutor and
            sizes (the template rendering).
        names: First names of the world's characters by id, for joint events.

    Returns:
        The plan; each event is told in the first session after it happened.
    """
    ch = world.character
    starts = [s.started_at for s in skeleton.sessions]
    told: list[list[Event]] = [[] for _ in starts]
    for e in world.events[1:]:
        k = next((i for i, at in enumerate(starts) if at > e.at), None)
        if k is None:
            raise ValueError(f"{e.id} happens after the last session of {skeleton.id}")
        told[k].append(e)
    days = [e.date for e in world.events[1:]]
    profile = _split_facts(world.events[0], world.facts[world.events[0].id])
    start_at = world.events[0].at
    other = skeleton.interlocutor.name.split()[0]
    plans: list[SessionPlan] = []
    earlier: list[Event] = []
    for i, s in enumerate(skeleton.sessions):
        rng = rng_for(seed, "llm-plan", s.id)
        session_day = date.fromisoformat(s.started_at[:10])
        news = tuple(
            EventBrief(
                e.id,
                e.date,
                e.at[11:16],
                pov_summary(e, ch, names),
                rng.choice(phrases_for(date.fromisoformat(e.date), session_day)),
                clock(e.at[11:16]) if days.count(e.date) > 1 else None,
                tuple(_split_facts(e, world.facts[e.id])),
            )
            for e in told[i]
        )
        callbacks: tuple[EventBrief, ...] = ()
        if earlier and rng.random() < CALLBACK_RATE:
            old = rng.choice(earlier)
            fact = replace(_split_facts(old, world.facts[old.id])[0], required=False)
            when = rng.choice(phrases_for(date.fromisoformat(old.date), session_day))
            callbacks = (
                EventBrief(
                    old.id,
                    old.date,
                    old.at[11:16],
                    pov_summary(old, ch, names),
                    when,
                    None,
                    (fact,),
                ),
            )
        tokens = sum(estimate_tokens(t.text) for t in s.turns)
        n_filler = min(4, 1 + tokens // 400)
        dynamic = None
        if i > 0 and rng.random() < DYNAMIC_RATE:
            dynamic = rng.choice(DYNAMICS).format(other=other, first=ch.first_name)
        plans.append(
            SessionPlan(
                dialogue_id=skeleton.id,
                session_id=s.id,
                number=i + 1,
                total=len(starts),
                started_at=s.started_at,
                character=ch.name,
                first_name=ch.first_name,
                persona=f"{ch.name}, {_age(ch, start_at, s.started_at)}, {ch.gender}, "
                f"personality type {ch.mbti}, trained as a {ch.occupation}",
                speech=_speech(ch),
                interlocutor=skeleton.interlocutor,
                state=_state_at(world, s.started_at if i == 0 else starts[i - 1]),
                profile=tuple(profile) if i == 0 else (),
                news=news,
                callbacks=callbacks,
                filler=tuple(rng.sample(P.SMALL_TALK_TOPICS, n_filler)),
                dynamic=dynamic,
                target_turns=_turns(tokens, len(news), i == 0),
                target_tokens=max(60, tokens),
                forbidden=(),
            )
        )
        earlier += told[i]
    return DialoguePlan(
        skeleton.id, ch.id, (ch.name, ch.first_name), _with_forbidden(plans, ch, skeleton)
    )


def _turns(tokens: int, events: int, first: bool) -> int:
    """An even number of turns for a session: room for each event, else ~60 tokens a turn."""
    n = max(6, 4 + 2 * events + (4 if first else 0), round(tokens / TOKENS_PER_TURN))
    return n + n % 2


def _with_forbidden(
    plans: list[SessionPlan], ch: Character, skeleton: Dialogue
) -> tuple[SessionPlan, ...]:
    """Give each session the distinctive values of later facts that it must not mention."""
    # (attribute, value) -> (first session telling it, normalised value)
    first_told: dict[tuple[str, str], tuple[int, str]] = {}
    for i, plan in enumerate(plans):
        for f in plan.required_facts():
            pair = (f.attribute, f.value)
            if pair not in first_told and f.kind != "event":
                if matcher(f.value, f.attribute).distinctive:
                    first_told[pair] = (i, normalise(f.value))
    known = {normalise(v) for v in (ch.name, ch.first_name, skeleton.interlocutor.name)}
    out: list[SessionPlan] = []
    for i, plan in enumerate(plans):
        for f in plan.required_facts() + plan.optional_facts():
            known.add(normalise(f.value))
            if f.old:
                known.add(normalise(f.old))
        known |= {normalise(v) for _, v in plan.state}
        shown = " ".join(_plan_strings(plan))
        shown_norm = normalise(shown)
        forbidden = []
        for (attribute, value), (k, key) in first_told.items():
            if k <= i or key in known:
                continue
            # A value the prompt itself shows cannot count against the reply.
            if key.split()[-1] in shown_norm and matcher(value, attribute).leaks(shown_norm, shown):
                continue
            forbidden.append((attribute, value))
        out.append(replace(plan, forbidden=tuple(forbidden)))
    return tuple(out)


def _plan_strings(plan: SessionPlan) -> list[str]:
    """Every text of a plan that the renderer is shown."""
    out = [plan.persona, plan.interlocutor.name, plan.interlocutor.scene, *plan.filler]
    out += [v for _, v in plan.state]
    for e in (*plan.news, *plan.callbacks):
        out.append(e.summary)
        out += [f.value for f in e.facts] + [f.old for f in e.facts if f.old]
    out += [f.value for f in plan.profile]
    return out
