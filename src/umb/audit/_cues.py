"""Cue-matching baseline (MSR, ES): events linked by surface cue words alone.

A turn that says how an event came about ("It all started with that holiday in March, really.",
"You can thank X for that.", "Blame X for that.", "X is what set it off.", "because of X")
links the event it tells to a cause phrase; so does the friend's guess right after the news ("Did
X have something to do with it?"), whose event is the one the turn before tells. The baseline
reads only these links:

- **MSR**: the chain starts with the question's own clause ("… when Greta booked a trip to
  Hanoi"); each next step is the event of the later link turn whose cause phrase shares the most
  words with the step before; up to four steps.
- **ES**: the linked events (cause, then effect) told in sessions of the period the question
  names, in order, at most six.

It scores where golds are exactly what the cue words link: a chain whose cause phrases repeat
the words its events were told with, a summary that lists only linked events. The cue list
covers every link the template renderer writes (``umb.render._kindtalk.LINKS`` and
``ASK_LINKS``; a test holds them to it), so the check bites whenever the words do.
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

_C: Final = r"(?P<c>[^.!?]+?)"
_TAIL: Final = r"(?:, (?:really|by the way|if I'm honest|in a way))?[.!?]"
#: One pattern per wording; ``c`` is the cause phrase. Searched sentence by sentence.
_CUES: Final = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\b(?:all started with|goes back to|all down to|follows on from|all comes from"
        r"|have happened without|have done it without|ever since|one thing after another since"
        r"|because of|as a result of|came out of|next chapter after)\s+" + _C + _TAIL,
        r"\b(?:thank|blame) " + _C + r" for that[.!?]",
        r"^" + _C + r" (?:is what set it off|paid off)\b",
        r"\bwas it " + _C + r" that started\b",
        r"\bdid " + _C + r" have something to do with\b",
        r"\banything to do with " + _C + r"\?",
        r"\bthanks to " + _C + r"\?",
    )
)
#: Literal parts of the cues: a turn holding none of them is skipped without the regexes.
_QUICK: Final = ("started with", "back to", "down to", "follows on from", "comes from",
                 "without", "since", "because of", "thank", "Blame", "set it off", "paid off",
                 "to do with", "that started", "came out of", "chapter after",
                 "result of")  # fmt: skip
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


def _cause(sentence: str) -> str | None:
    for cue in _CUES:
        m = cue.search(sentence)
        if m is not None:
            return m.group("c").strip()
    return None


def _told(text: str) -> str:
    """``text`` without its cue sentences: what the turn tells."""
    return " ".join(s for s in _SENTENCE.split(text) if _cause(s) is None).strip()


def links(d: DialogueLines) -> list[Link]:
    """The link turns of a dialogue, in order; a guess (a cue in a question) links the event
    of the turn before."""
    out = []
    for i in _candidates(d):
        line = d.lines[i]
        for sentence in _SENTENCE.split(line.text):
            cause = _cause(sentence)
            if cause is None:
                continue
            guess = sentence.rstrip().endswith("?") and i > 0
            effect = _told(d.lines[i - 1].text if guess else line.text)
            out.append(Link(i, line.said_at, effect, cause))
            break
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
