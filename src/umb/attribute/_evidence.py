"""What a question's facts rest on: its evidence turns, checked against the gold by value.

A needed fact's evidence is the gold evidence turns that state it (none stating it is an
annotation error), plus the dialogue's other turns the benchmark tags with the same fact —
dialogues restate things, and a restatement carries the fact as well as the first mention.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from umb.attribute._facts import Need, overlaps, paraphrase_echo, states
from umb.attribute._graph import SystemView
from umb.trace import turn_var

if TYPE_CHECKING:
    from umb.bench import Fact, Question


class FactChecker(Protocol):
    """Decides what value matching cannot: does this text state this fact?"""

    def states(self, text: str, need: Need) -> bool:
        """Whether ``text`` states ``need`` (asked only after value matching said no)."""
        ...


@dataclass
class Matcher:
    """Value matching, with an optional checker for the cases matching cannot tell."""

    checker: FactChecker | None = None

    def states(self, text: str, need: Need, *, ask: bool = False, loose: bool = False) -> bool:
        """Value matching; with ``ask``, the checker decides what matching rejects."""
        if states(text, need, loose=loose):
            return True
        return bool(ask and self.checker is not None and text and self.checker.states(text, need))


@dataclass(frozen=True)
class QuestionInputs:
    """What attribution knows about a question besides the trace."""

    question: Question
    record: Mapping[str, Any]
    turn_texts: Mapping[str, str]
    """Turn id -> text (the benchmark's; the trace's turn values are used when missing)."""
    turn_starts: Mapping[str, str] | None = None
    """Turn id -> its session's start, to tell evidence said after the question."""
    facts: Mapping[str, Fact] | None = None
    event_turns: Mapping[str, Sequence[str]] | None = None
    """Event id -> the turns tagged with one of its facts (to find restatements)."""
    state_turns: Mapping[tuple[str, str, str], Sequence[str]] | None = None
    """(character, attribute, value) -> the turns tagged with a fact saying so."""


def _turn_text(inputs: QuestionInputs, view: SystemView | None, turn_id: str) -> str:
    text = inputs.turn_texts.get(turn_id)
    if text is not None or view is None:
        return text or ""
    try:
        return view.text(view.trace.node(turn_var(turn_id)).key)
    except KeyError:
        return ""


def _same_fact_turns(inputs: QuestionInputs) -> list[str]:
    """Other turns of the dialogue, before the question, tagged with the question's facts.

    Dialogues restate facts ("I'm at Orchard Pharma now" after "I started a new job at Orchard
    Pharma"); the benchmark tags each turn with the facts it states. A turn counts when it
    states a fact of one of the evidence events, or (KU: a state outlives its event) any fact
    giving the same attribute the same value.
    """
    q = inputs.question
    events = set(q.evidence.event_ids) or {f.rsplit("/", 2)[0] for f in q.evidence.fact_ids}
    found = [t for e in sorted(events) for t in (inputs.event_turns or {}).get(e, ())]
    if q.family == "KU":
        facts = inputs.facts or {}
        keys = [(f.character_id, f.attribute, f.value) for fid in q.evidence.fact_ids
                if (f := facts.get(fid)) is not None]  # fmt: skip
        found += [t for k in keys for t in (inputs.state_turns or {}).get(k, ())]
    starts = inputs.turn_starts or {}
    prefix = f"{q.dialogue_id}:"
    before = [
        t
        for t in found
        if t.startswith(prefix) and (not q.asked_at or starts.get(t, "") < q.asked_at)
    ]
    return list(dict.fromkeys(before))


def _with_echoes(
    inputs: QuestionInputs, view: SystemView | None, need: Need, stating: list[str]
) -> Need:
    """``need`` with the words each paraphrasing turn of the fact keeps (see
    :func:`~umb.attribute._facts.paraphrase_echo`): the question's evidence turns and the
    dialogue's turns tagged with the same fact that do not quote it."""
    echoes = []
    for t in dict.fromkeys([*need.turn_ids, *_same_fact_turns(inputs)]):
        if t in stating:
            continue
        echo = paraphrase_echo(_turn_text(inputs, view, t), need)
        if echo is not None:
            echoes.append(echo)
    if not echoes:
        return need
    return replace(need, echoes=tuple(dict.fromkeys((*need.echoes, *echoes))))


def find_evidence(
    inputs: QuestionInputs, need: Need, matcher: Matcher, view: SystemView | None = None
) -> tuple[Need, list[str], str | None]:
    """The turns stating ``need``, and how to follow it from them.

    A value its evidence turns state verbatim is followed by value. Imported benchmarks often
    word the gold otherwise than the dialogue ("by dancing" for "dance is my go-to"): a value
    whose every content word is there is followed word by word; one sharing only some words with
    them, through the graph from the turns alone. Only a value none of whose words occur (and
    that the optional checker does not find either) makes the annotation wrong.

    Returns:
        ``(need, turns, None)`` — ``need`` with its matching mode set, its evidence turns first,
        then the dialogue's restatements of the same fact — or ``(need, [], why)`` when the
        annotation is wrong: no evidence turn states it, or only turns after the question.
    """
    q = inputs.question
    if need.structural:
        problem = None if need.turn_ids else "the question names no evidence"
        return need, list(need.turn_ids), problem
    texts = {t: _turn_text(inputs, view, t) for t in need.turn_ids}
    stating = [t for t, x in texts.items() if matcher.states(x, need, ask=True)]
    # Turns about a step without quoting it (two of its keys) keep the annotation sound.
    stating += [t for t, x in texts.items() if t not in stating and states(x, need, loose=True)]
    if not stating:
        words = replace(need, mode="words")
        stating = [t for t, x in texts.items() if states(x, words)]
        if stating:
            need = words
        elif any(overlaps(x, v) for x in texts.values() for v in need.values):
            need = replace(need, mode="trace")
            stating = list(need.turn_ids)
    if not stating:
        where = ", ".join(need.turn_ids) or "(none given)"
        return need, [], f"the evidence turns {where} do not state the {need.label} {need.shown!r}"
    if need.mode != "trace":
        need = _with_echoes(inputs, view, need, stating)
        stating += [t for t, x in texts.items() if t not in stating and states(x, need)]
    starts = inputs.turn_starts or {}
    if q.asked_at and all(t in starts and starts[t] >= q.asked_at for t in stating):
        return (
            need,
            [],
            f"the evidence for the {need.label} comes after the question ({q.asked_at})",
        )
    more = [
        t
        for t in _same_fact_turns(inputs)
        if t not in stating and not need.structural
        and matcher.states(_turn_text(inputs, view, t), need)
    ]  # fmt: skip
    return need, stating + more, None
