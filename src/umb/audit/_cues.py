"""Cue-matching baseline (MSR, ES): events linked by surface cue words alone.

A turn that says how an event came about ("That came out of the trip to Hanoi, by the way.",
"You can thank X for that.", "because of X") links the event it tells to a cause phrase. The
baseline reads only these links:

- **MSR**: the chain starts with the question's own clause ("… when Greta booked a trip to
  Hanoi"); each next step is the event of the later link turn whose cause phrase shares the most
  words with the step before; up to four steps.
- **ES**: the linked events (cause, then effect) told in sessions of the period the question
  names, in order, at most six.

It scores where golds are exactly what the cue words link: a chain that the tags spell out, a
summary that lists only linked events.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Any, Final

from umb.audit._answers import clauses, with_list
from umb.audit._view import DialogueLines
from umb.bench import Question

FAMILIES: Final = ("MSR", "ES")
MAX_STEPS: Final = 4
MAX_POINTS: Final = 6

_CUES: Final = re.compile(
    r"(?:goes back to|came out of|have happened without|next chapter after|because of"
    r"|as a result of|led to by)\s+(?P<a>[^.!?]+?)(?:, (?:really|by the way))?[.!?]"
    r"|thank (?P<b>[^.!?]+?) for that",
    re.IGNORECASE,
)
#: Literal parts of the cues: a turn holding none of them is skipped without the regex.
_QUICK: Final = ("back to", "came out of", "without", "chapter after", "because of",
                 "result of", "thank")  # fmt: skip
_SENTENCE: Final = re.compile(r"(?<=[.!?])\s+")
_WORD: Final = re.compile(r"[^\W_]+")
_STOP: Final = frozenset(
    "the a an and or of to in on at for with from by it that this was is my i me you your "
    "what which when who how did do does then after before step final outcome chain events "
    "event followed starting from by way really".split()
)
_START: Final = re.compile(r"\b(?:from when|when|after)\s+(?P<s>[^,?]+)", re.IGNORECASE)
_YEAR: Final = re.compile(r"\b(?:19|20)\d{2}\b")


@dataclass(frozen=True, slots=True)
class Link:
    """One link turn: where it is said, the event it tells, the cause phrase it names."""

    index: int
    said_at: str
    effect: str
    cause: str


def _words(text: str, names: frozenset[str]) -> set[str]:
    return {
        w for w in _WORD.findall(text.lower()) if len(w) > 2 and w not in _STOP and w not in names
    }


def _candidates(d: DialogueLines) -> list[int]:
    """Indices of the turns holding a cue's literal part: one ``str.find`` pass per literal
    over the whole dialogue, not a test per turn (a long dialogue has thousands of turns)."""
    starts, pos = [], 0
    for line in d.lines:
        starts.append(pos)
        pos += len(line.text) + 1
    text = "\n".join(line.text for line in d.lines)
    found: set[int] = set()
    for literal in _QUICK:
        i = text.find(literal)
        while i >= 0:
            found.add(bisect.bisect_right(starts, i) - 1)
            i = text.find(literal, i + 1)
    return sorted(found)


def links(d: DialogueLines) -> list[Link]:
    """The link turns of a dialogue, in order."""
    out = []
    for i in _candidates(d):
        line = d.lines[i]
        m = _CUES.search(line.text)
        if m is None:
            continue
        effect = " ".join(s for s in _SENTENCE.split(line.text) if not _CUES.search(s))
        out.append(Link(i, line.said_at, effect.strip(), (m.group("a") or m.group("b")).strip()))
    return out


def _chain(question: Question, found: list[Link], names: frozenset[str]) -> list[str]:
    start = _START.search(question.query)
    step = start.group("s").strip() if start else (clauses(question.query) or [""])[0]
    chain, after = [step], -1
    for _ in range(MAX_STEPS - 1):
        wanted = _words(step, names)
        best: tuple[int, int] | None = None
        for j, link in enumerate(found):
            if link.index <= after:
                continue
            shared = len(wanted & _words(link.cause, names))
            if shared and (best is None or shared > best[0]):
                best = (shared, j)
        if best is None:
            break
        link = found[best[1]]
        chain.append(link.effect)
        step, after = link.effect, link.index
    return chain


def _points(question: Question, found: list[Link]) -> list[str]:
    years = _YEAR.findall(question.query)
    items: list[str] = []
    for link in found:
        if years and link.said_at[:4] not in years:
            continue
        for text in (link.cause, link.effect):
            if text and text not in items:
                items.append(text)
    return items[:MAX_POINTS]


def cue_answer(
    question: Question, base: dict[str, Any], found: list[Link], names: frozenset[str]
) -> dict[str, Any]:
    """The floor's answer with the events the cue words link."""
    if question.family == "MSR":
        return with_list(question, base, _chain(question, found, names))
    return with_list(question, base, _points(question, found))
