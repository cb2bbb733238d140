"""Picking a short answer span out of a sentence, for the offline reader.

Generic surface cues only: money, numbers, dates, clock times, quoted names, capitalised phrases
and the phrase after a copula ("The fee was $1,240."). Nothing here knows the benchmark's
vocabulary or templates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

_MONEY: Final = r"[$€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|million|thousand))?"
_NUMBER: Final = (
    r"\d[\d,]*(?:\.\d+)?(?:\s?(?:%|percent|km|kilometres|kilometers|miles|hours|minutes|days|"
    r"weeks|months|years|people|guests|sessions|attendees))?"
)
_MONTHS: Final = (
    "January|February|March|April|May|June|July|August|September|October|November|December"
)
_DATE: Final = (
    rf"(?:{_MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?|\d{{4}}-\d{{2}}-\d{{2}}"
)
_CLOCK: Final = r"\d{1,2}(?::\d{2})?\s?[ap]\.?m\.?|\b\d{1,2}:\d{2}\b"
_CAP_WORD: Final = r"[A-Z][\w'&.-]*"
_CAPS: Final = rf"{_CAP_WORD}(?:\s+(?:of|the|de|la|von|van|and|&)\s+{_CAP_WORD}|\s+{_CAP_WORD})*"
_SPANS: Final = re.compile(
    rf"(?P<money>{_MONEY})|(?P<date>{_DATE})|(?P<time>{_CLOCK})|(?P<number>{_NUMBER})"
    rf"|\"(?P<quoted>[^\"]{{1,60}})\"|(?P<caps>{_CAPS})"
)
_CUE: Final = re.compile(
    r"\b(?:is|was|were|are|called|named|name:|at|to|with|by|from|in|through|via|the|a|an|"
    r"'s|had|ordered|picked|joined|into|about|took|came to|cost)\s+",
    re.IGNORECASE,
)
_STARTERS: Final = frozenset(
    """i i'm i've i'd oh so well honestly anyway yes no okay ok right ha wow yeah hey hi hello
    name it it's its that that's this they we my our his her there these those what when where
    why how yesterday today tomorrow earlier last next exactly then and but also still actually
    funny nice good great really sure guess turns turned the a an in on at for with to from of
    which who whom whose did does do was were is are has have had will would can could one two
    three four five six seven eight nine ten eleven twelve""".split()
)
_CALENDAR_WORDS: Final = frozenset(
    _MONTHS.lower().split("|") + "monday tuesday wednesday thursday friday saturday sunday".split()
)
_WORD: Final = re.compile(r"[a-z0-9]+")
_LABEL: Final = re.compile(r"^[A-Z][\w ]{0,20}:\s+([^.!?]{1,60})[.!?]?$")
_PLACE_CUES: Final = frozenset({"at", "in", "from", "to", "through", "via", "into"})


@dataclass(frozen=True, slots=True)
class Span:
    """A candidate answer inside a sentence."""

    text: str
    kind: str
    """``money``, ``date``, ``time``, ``number``, ``quoted`` or ``caps``."""
    start: int


def answer_kind(query: str) -> str:
    """The kind of span a question asks for: money, number, date, time, place, name or any."""
    q = query.lower()
    if re.search(r"\bhow much\b|\b(cost|price|fee|bill|salary|rent|paid|pay|spend|spent)\b", q):
        return "money"
    if re.search(r"\bwhat time\b|\bat what time\b", q):
        return "time"
    if re.search(r"\bhow (many|long|far)\b|\bwhat (grade|score|percentage|distance)\b", q):
        return "number"
    if re.search(r"\bwhen\b|\bwhat (date|day)\b|\bwhich (date|day)\b", q):
        return "date"
    if re.search(r"\bwhere\b", q):
        return "place"
    if re.search(r"\bwho\b|\bwhom\b|\bwhose\b|\bname\b|\bcalled\b|\bwhich\b", q):
        return "name"
    return "any"


def _clean_caps(text: str, at_sentence_start: bool) -> str:
    words = text.split()
    while words and (
        (at_sentence_start and words[0].lower().rstrip(",") in _STARTERS)
        or words[0].lower() in _CALENDAR_WORDS
        or words[0] in ("I", "I'm", "I've", "I'd")
    ):
        words = words[1:]
        at_sentence_start = False
    while words and words[-1].lower() in _CALENDAR_WORDS:
        words = words[:-1]
    return " ".join(words).rstrip(".,;:!?")


def spans(sentence: str, exclude_words: frozenset[str] = frozenset()) -> list[Span]:
    """Candidate answer spans of ``sentence``, in order of position.

    Capitalised phrases whose words are all in ``exclude_words`` (lower-cased: the question's
    own words, the speakers' names) are dropped: an answer rarely repeats the question.
    """
    found = []
    for m in _SPANS.finditer(sentence):
        kind = m.lastgroup or "caps"
        text = m.group(kind)
        if kind == "caps":
            at_start = sentence[: m.start()].strip(" \"'") == ""
            if at_start and sentence[m.end() : m.end() + 1] == "," and " " not in text:
                continue  # "Hmm, ..." / "Honestly, ...": an interjection, not a name
            text = _clean_caps(text, at_start)
            words = _WORD.findall(text.lower())
            if not words or all(w in exclude_words for w in words):
                continue
        found.append(Span(text.strip(), kind, m.start()))
    return found


def cue_tail(sentence: str, max_words: int = 6) -> str | None:
    """The phrase after the last copula-like cue, if short ("The fee was $1,240." -> "$1,240")."""
    found = _tail(sentence, max_words)
    return found[0] if found else None


def _tail(sentence: str, max_words: int) -> tuple[str, str] | None:
    last = None
    for m in _CUE.finditer(sentence):
        last = m
    if last is None:
        return None
    tail = sentence[last.end() :].strip().rstrip(".!?;,").strip()
    return (
        (tail, last.group(0).strip().lower()) if tail and len(tail.split()) <= max_words else None
    )


def phrase_span(sentence: str, exclude_words: frozenset[str]) -> Span | None:
    """A lower-case answer phrase: after a label ("The result: high blood pressure.") or after
    the last cue word; ``place`` when the cue is a preposition of place."""
    label = _LABEL.match(sentence)
    if label:
        text, kind = label.group(1).strip(), "label"
    else:
        found = _tail(sentence, 6)
        if found is None:
            return None
        text, cue = found
        kind = "place" if cue in _PLACE_CUES else "phrase"
    words = _WORD.findall(text.lower())
    if not words or all(w in exclude_words for w in words):
        return None
    return Span(text, kind, max(sentence.find(text), 0))


_KIND_ORDER: Final[dict[str, tuple[str, ...]]] = {
    "money": ("money", "number"),
    "number": ("number", "money"),
    "date": ("date",),
    "time": ("time",),
    "name": ("quoted", "caps"),
    "place": ("caps", "place"),
    "any": ("label", "quoted", "caps", "phrase", "place", "money", "number", "date"),
}


def best_span(sentence: str, kind: str, exclude_words: frozenset[str]) -> str | None:
    """The best span of the wanted ``kind`` in ``sentence``, or ``None``."""
    candidates = spans(sentence, exclude_words)
    phrase = phrase_span(sentence, exclude_words)
    if phrase is not None:
        candidates.append(phrase)
    for wanted in _KIND_ORDER.get(kind, _KIND_ORDER["any"]):
        for span in candidates:
            if span.kind == wanted:
                return span.text
    return None


_OLD_BEFORE: Final = re.compile(
    r"\b(?:not|no longer|instead of|rather than|changed from|from|left|quit|leaving|goodbye to|"
    r"replaced)\b",
    re.IGNORECASE,
)
_OLD_AFTER: Final = re.compile(
    r"\b(?:is behind me|is gone|anymore|any more|is over)\b", re.IGNORECASE
)
_CLAUSE_SPLIT: Final = re.compile(
    r"[;,]|\s+(?=\bto\b)|\s+(?=\b(?:not|no longer|instead of|rather than)\b)"
)
_LEAD: Final = re.compile(r"^(?:so|and|but|that means|these days|now)\b[\s,]*", re.IGNORECASE)


def split_change(sentence: str) -> tuple[str, str]:
    """Split a sentence reporting a change into (current clause, old clause).

    "So I'm not at Acme anymore; I work for Northwind now." -> ("I work for Northwind now",
    "So I'm not at Acme anymore"). Without a sign of an old value the whole sentence is the
    current clause and the old clause is empty.
    """
    body = sentence.strip().rstrip(".!?")
    clauses = [c.strip() for c in _CLAUSE_SPLIT.split(body) if c and c.strip()]
    current: list[str] = []
    old: list[str] = []
    for c in clauses:
        (old if _OLD_BEFORE.search(c) or _OLD_AFTER.search(c) else current).append(c)
    if not current:
        return body, ""
    if len(current) > 1:
        # "So I'm not at Acme": the "So I'm" left before a negation is not a clause of its own.
        current = [c for c in current if len(c.split()) > 2] or current
    cur = " ".join(_LEAD.sub("", c) for c in current).strip()
    if cur.lower().startswith("to "):
        cur = cur[3:]
    return cur, "; ".join(old)
