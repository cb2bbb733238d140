"""The renderer's prompts: write a session, repair a session, verify a fact.

System prompts are constant, so an endpoint with prefix caching (vLLM) reuses them across every
call; everything about the session is in the user message. The first line of each user message
names the task and the session (``Write session D0001:S003``), which keeps requests for different
sessions apart in the response cache and lets a scripted test server tell them apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from umb.models import GenerateRequest, Message
from umb.render._plan import EventBrief, FactSpec, SessionPlan

PROMPT_VERSION = 1
"""Bump when a prompt changes, so a resumed render does not mix prompt versions."""

WRITER_TEMPERATURE = 0.8
REPAIR_TEMPERATURE = 0.4
VERIFIER_TEMPERATURE = 0.7

WRITER_SYSTEM = """\
You write sessions of a long-running chat between two people, for a memory benchmark. Each \
session is one conversation on one date. You get the plan of one session: who talks, when, \
what the main character tells, small-talk topics and how the character speaks.

Rules:
1. Reply with one JSON object and nothing else: {"turns": [{"role": "user", "text": "..."}, \
{"role": "assistant", "text": "..."}]}. "assistant" is the main character, "user" is the other \
person. Roles alternate, starting with "user".
2. The main character tells every listed item in their own words, writing each value exactly as \
given (names, places, brands, amounts, numbers, durations) and naming each day with the phrase \
given for it.
3. Nothing else happens in the character's life: no other events, jobs, moves, partners, pets, \
purchases, trips or people, and nothing after the session date. Small talk stays small.
4. Sound like real people: reactions, follow-up questions, varied sentence length. No lists, \
headings, narration, or speaker names inside the text."""

REPAIR_SYSTEM = """\
You edit a chat between two people, for a memory benchmark. You write a short exchange that \
fits at a given point of the conversation and states given facts, each value written exactly as \
given. Reply with one JSON object and nothing else: {"turns": [{"role": "user", "text": "..."}, \
{"role": "assistant", "text": "..."}]}. "assistant" is the main character, "user" is the other \
person. Mention nothing else new about the character's life."""

VERIFIER_SYSTEM = """\
You check a chat transcript for a memory benchmark. Given a fact and a line of the chat (with \
the lines around it), decide whether the line states the fact, with the same value. Reply with \
one JSON object and nothing else: {"states": true} or {"states": false}."""

_NONE_PHRASES = {"partner": "no partner", "pet": "no pet", "car": "no car"}
_PROFILE = {
    "employer": "works at {v}",
    "job_title": "job title: {v}",
    "city": "lives in {v}",
    "relationship_status": "relationship status: {v}",
    "partner": "partner: {v}",
    "pet": "pet: {v}",
    "car": "car: {v}",
    "hobby": "main hobby: {v}",
}


def long_date(stamp: str) -> str:
    """``2021-03-20T18:30`` -> ``Saturday, 20 March 2021, 18:30`` (time only when given)."""
    if len(stamp) > 10:
        dt = datetime.strptime(stamp, "%Y-%m-%dT%H:%M")
        return f"{dt:%A}, {dt.day} {dt:%B %Y, %H:%M}"
    day = date.fromisoformat(stamp)
    return f"{day:%A}, {day.day} {day:%B %Y}"


def _label(attribute: str) -> str:
    return attribute.replace("_", " ")


def state_line(attribute: str, value: str) -> str:
    """One tracked attribute as the plan says it (``lives in Phoenix``, ``no pet``)."""
    if value == "none" and attribute in _NONE_PHRASES:
        return _NONE_PHRASES[attribute]
    return _PROFILE.get(attribute, _label(attribute) + ": {v}").format(v=value)


def fact_line(plan: SessionPlan, fact: FactSpec, brief: EventBrief | None) -> str:
    """One fact as an item of a plan or a repair request."""
    if fact.kind == "profile":
        return state_line(fact.attribute, fact.value)
    if fact.kind == "event" and brief is not None:
        at = f" at {brief.clock}" if brief.clock else ""
        return (
            f'{plan.first_name} {brief.summary} - say when as "{brief.when}"{at} '
            f"(that is {long_date(brief.day)})"
        )
    if fact.kind == "change":
        if fact.value == "none":
            now = state_line(fact.attribute, "none")
            return f"{_label(fact.attribute)}: no longer {fact.old} (now {now})"
        return f"{_label(fact.attribute)} changed from {fact.old} to {fact.value} (say both)"
    return f"{_label(fact.attribute)}: {fact.value}"


def _news(plan: SessionPlan) -> list[str]:
    lines: list[str] = []
    for k, e in enumerate(plan.news, start=1):
        lines.append(f"{k}. {fact_line(plan, e.facts[0], e)}")
        lines += [f"   - {fact_line(plan, f, e)}" for f in e.facts[1:]]
    return lines


def writer_prompt(plan: SessionPlan) -> str:
    """The user message asking for one session."""
    other = plan.interlocutor.name
    me, first = plan.character, plan.first_name
    out = [
        f"Write session {plan.session_id} (session {plan.number} of {plan.total}).",
        "",
        f"Date and time: {long_date(plan.started_at)}.",
        f"Scene: {me} (assistant) and {other} (user), {plan.interlocutor.role}, during one of "
        f"their {plan.interlocutor.scene}.",
        f"{first}: {plan.persona}. Speech: {plan.speech}.",
    ]
    if plan.number == 1:
        out.append(f"This is their first conversation: {other.split()[0]} gets to know {first}.")
        out += ["", f"{first} tells where {first} stands today, every item:"]
        out += [f"- {fact_line(plan, f, None)}" for f in plan.profile]
    else:
        state = "; ".join(state_line(a, v) for a, v in plan.state)
        out.append(f"Where {first} stood before today's news: {state}.")
    if plan.news:
        out += ["", f"News {first} tells in this session, in this order, every item:"]
        out += _news(plan)
    elif plan.number > 1:
        out += ["", f"{first} has no real news this time; keep it to catching up and small talk."]
    for e in plan.callbacks:
        out += [
            "",
            f"{other.split()[0]} may bring up something from before: {first} {e.summary} "
            f'("{e.when}").',
        ]
    out += ["", "Small talk to weave in: " + "; ".join(plan.filler) + "."]
    if plan.dynamic:
        out.append(f"Dynamic: {plan.dynamic}")
    words = max(40 + 12 * len(plan.required_facts()), plan.target_tokens * 3 // 4)
    out += [
        "",
        f"Length: about {plan.target_turns} turns, about {words} words in all. Start with "
        f"{other.split()[0]} greeting {first}; end with a short goodbye.",
        "Return the JSON object only.",
    ]
    return "\n".join(out)


def writer_request(plan: SessionPlan, attempt: int, problem: str | None) -> GenerateRequest:
    """The request for one session; a retry says what was wrong with the last reply."""
    text = writer_prompt(plan)
    if attempt > 1 and problem:
        text += f"\n\n(Attempt {attempt}: your last reply was rejected: {problem}.)"
    return GenerateRequest(
        messages=(Message("system", WRITER_SYSTEM), Message("user", text)),
        # A reply cut off by the token limit comes back as broken JSON: give a retry more room.
        max_tokens=writer_max_tokens(plan) * attempt,
        temperature=WRITER_TEMPERATURE,
        json_mode=True,
    )


def writer_max_tokens(plan: SessionPlan) -> int:
    """Room for the session's JSON: twice its target size, at least 1,024 tokens."""
    return max(1024, 2 * (plan.target_tokens + 12 * plan.target_turns))


def _context(lines: Sequence[tuple[str, str]], plan: SessionPlan) -> list[str]:
    other = plan.interlocutor.name.split()[0]
    return [f"{plan.first_name if r == 'assistant' else other}: {t}" for r, t in lines]


def repair_request(
    plan: SessionPlan,
    items: Sequence[str],
    before: Sequence[tuple[str, str]],
    after: Sequence[tuple[str, str]],
    previous: Sequence[tuple[str, str]] | None,
    attempt: int,
    problem: str | None,
) -> GenerateRequest:
    """Ask for a short exchange stating ``items``: inserted, or rewriting ``previous``."""
    other = plan.interlocutor.name.split()[0]
    first = plan.first_name
    verb = "Rewrite" if previous else "Repair"
    out = [
        f"{verb} session {plan.session_id} ({long_date(plan.started_at)}) of the chat between "
        f"{plan.character} (assistant) and {plan.interlocutor.name} (user).",
        "",
        f"{first} was meant to state these facts in this session, with each value exactly as "
        "written:",
        *(f"- {item}" for item in items),
        "",
        "The conversation at that point:",
        *_context(before, plan),
    ]
    if previous:
        out += [
            "[the exchange to rewrite:]",
            *_context(previous, plan),
            "[end of the exchange]",
            *_context(after, plan),
            "",
            "That exchange still does not state every fact clearly. Rewrite it: "
            f"{other} asks, {first} answers and states every fact above, values exactly as "
            "written.",
        ]
    else:
        out += [
            "[new lines go here]",
            *_context(after, plan),
            "",
            f"Write two short turns to insert there: {other} asks, {first} answers and states "
            "every fact above, values exactly as written.",
        ]
    out.append("Return the JSON object only.")
    text = "\n".join(out)
    if attempt > 1 and problem:
        text += f"\n\n(Attempt {attempt}: your last reply was rejected: {problem}.)"
    return GenerateRequest(
        messages=(Message("system", REPAIR_SYSTEM), Message("user", text)),
        max_tokens=512,
        temperature=REPAIR_TEMPERATURE,
        json_mode=True,
    )


def verifier_request(
    plan: SessionPlan, fact_text: str, context: Sequence[tuple[str, str]], line: int, vote: int
) -> GenerateRequest:
    """One vote on whether ``context[line]`` states ``fact_text``."""
    shown = _context(context, plan)
    shown[line] = f">>> {shown[line]}"
    text = "\n".join(
        [
            f"Verify session {plan.session_id} ({long_date(plan.started_at)}), vote {vote}.",
            f"Fact: {fact_text}",
            "Chat (the line to check is marked >>>):",
            *shown,
            "Does the marked line state the fact, with the same value? Return the JSON only.",
        ]
    )
    return GenerateRequest(
        messages=(Message("system", VERIFIER_SYSTEM), Message("user", text)),
        max_tokens=64,
        temperature=VERIFIER_TEMPERATURE,
        json_mode=True,
    )
