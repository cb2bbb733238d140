"""Small text helpers shared by the lexical index and the rule-based extractor."""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+|\n+")

# A compact English stop list: function words that carry no topic.
STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its itself
    just me more most my myself no nor not now of off on once only or other our ours ourselves out
    over own same she should so some such than that the their theirs them themselves then there
    these they this those through to too under until up very was we were what when where which
    while who whom why will with would you your yours yourself yourselves oh yeah okay ok well
    really so just also got get gets ha haha hmm um uh lol wow yes""".split()
)


def light_stem(word: str) -> str:
    """A tiny suffix stripper so ``works``/``working``/``worked`` meet ``work``.

    Deliberately conservative: it only has to make query and document forms agree, and an
    over-eager stemmer merges unrelated names.
    """
    if word.endswith("'s"):
        word = word[:-2]
    if len(word) <= 3 or not word.isalpha():
        return word
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if not word.endswith(suffix) or len(word) - len(suffix) < 3:
            continue
        if suffix == "s" and word.endswith(("ss", "us", "is")):
            break
        if suffix == "es" and not word.endswith(("shes", "ches", "xes", "sses", "zes")):
            continue
        word = word[: len(word) - len(suffix)] + keep
        if suffix in ("ing", "ed") and word[-1] == word[-2] and word[-1] not in "lsz":
            word = word[:-1]  # "running" -> "run", but "calling" keeps "call"
        break
    # "move", "moved" and "moving" all end up as "mov".
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def words(text: str) -> list[str]:
    """Lower-cased word tokens, apostrophes kept inside a word (``i'm``, ``maya's``)."""
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def index_terms(text: str) -> list[str]:
    """Stemmed content words of ``text``: the terms the BM25 index and queries share."""
    return [light_stem(w) for w in words(text) if w not in STOPWORDS and len(w) > 1]


_ABBREVIATION = re.compile(r"\b(?:dr|mr|mrs|ms|prof|st|jr|sr|mt|vs|etc|no|e\.g|i\.e)\.$", re.I)


def split_sentences(text: str) -> list[str]:
    """Split on sentence-final punctuation and line breaks; empty pieces are dropped.

    A full stop after a title or a common abbreviation (``Dr.``, ``e.g.``) ends no sentence.
    """
    out: list[str] = []
    for piece in _SENTENCE_END.split(text):
        piece = piece.strip()
        if not piece:
            continue
        if out and _ABBREVIATION.search(out[-1]):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out
