"""The model-free half of ``mem0_style``: candidate facts, and rules for what to do with each.

Generic English rules (see :mod:`umb.memory._rules`): a first-person statement of the character
becomes a third-person fact; a fact on a changeable key (employer, partner, …) updates the
memory on that key, or deletes it when it states an ending; a fact that says nothing new is
NONE; one that says strictly more than a memory enriches it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from umb._dates import is_recollection
from umb.bench import Session
from umb.memory._rules import (
    DATE_TERMS,
    clean_sentence,
    ended_clause,
    ends_something,
    is_informative,
    state_key,
    third_person,
)
from umb.memory._text import STOPWORDS, index_terms, light_stem, split_sentences, words
from umb.memory._units import Event, MemoryUnit

#: token_sort_ratio at or above which two memory texts say the same thing.
DUPLICATE_RATIO = 90.0
#: Words a search for a keyed memory may use that its text may lack ("Who is her partner?").
KEY_LABELS = {
    "employer": "employer job work company",
    "job_title": "job title position role",
    "partner": "partner relationship",
    "residence": "home city lives",
    "pet": "pet",
    "car": "car vehicle",
    "hobby": "hobby",
}


@dataclass(frozen=True)
class CandidateFact:
    """A fact extracted from the new messages, before it meets the store."""

    text: str
    source_turn_ids: tuple[str, ...]
    key: str | None = None
    ends: bool = False
    """Whether the statement ends something (``sold my car``) rather than adding to it."""


@dataclass(frozen=True)
class Decision:
    """What to do with one fact; ``target_id`` names the memory an UPDATE/DELETE/NONE is about."""

    event: Event
    fact: CandidateFact
    target_id: str | None = None


def character_name(session: Session) -> str:
    """The character's name: the speaker of the first assistant turn."""
    return next((t.speaker for t in session.turns if t.role == "assistant"), "the speaker")


def attribute_turns(text: str, session: Session) -> tuple[str, ...]:
    """The session turns sharing the most terms with ``text`` (all turns if none share any)."""
    terms = set(index_terms(text))
    overlaps = [len(terms & set(index_terms(t.text))) for t in session.turns]
    best = max(overlaps, default=0)
    if best == 0:
        return tuple(t.id for t in session.turns)
    return tuple(t.id for t, n in zip(session.turns, overlaps, strict=True) if n == best)


def extract_by_rules(session: Session) -> list[CandidateFact]:
    """Informative first-person sentences of the character, rewritten in the third person.

    A statement that retells an old event (:func:`umb._dates.is_recollection`) keeps its
    text but loses its key: it is a memory, not a change of the current state.
    """
    facts = []
    for turn in session.turns:
        if turn.role != "assistant":
            continue
        sentences = [clean_sentence(s) for s in split_sentences(turn.text)]
        for i, sentence in enumerate(sentences):
            if not is_informative(sentence):
                continue
            key, ends = state_key(sentence)
            ends = ends or (key is None and ends_something(sentence))
            following = sentences[i + 1] if i + 1 < len(sentences) else ""
            if (key or ends) and is_recollection(sentence, following, session.started_at):
                key, ends = None, False
            text = third_person(sentence, turn.speaker)
            facts.append(CandidateFact(text, (turn.id,), key, ends))
    return facts


@functools.lru_cache(maxsize=8192)
def value_terms(text: str, name: str) -> frozenset[str]:
    """Terms that carry a memory's content: not the name, and not when it was said.

    "20 days ago, Maya was promoted" and "Maya was promoted on May 3rd" state one fact.
    """
    kept = {
        light_stem(w)
        for w in words(text)
        if w not in STOPWORDS
        and len(w) > 1
        and not any(c.isdigit() for c in w)
        and w not in DATE_TERMS
        and w[:-1] not in DATE_TERMS  # plurals: "days", "weeks"
    }
    return frozenset(kept - set(index_terms(name)))


def near_duplicate(a: str, b: str) -> bool:
    """Same words, maybe reordered or repunctuated."""
    return fuzz.token_sort_ratio(a.lower(), b.lower()) >= DUPLICATE_RATIO


def decide_by_rules(
    fact: CandidateFact, similar: Sequence[MemoryUnit], name: str
) -> list[Decision]:
    """Decide what one fact does to the store, given the memories it was found similar to."""
    keyed = [u for u in similar if fact.key is not None and u.key == fact.key]
    if fact.ends:
        targets = keyed or ended_by(fact, similar, name)
        if targets:
            return [Decision("DELETE", fact, u.id) for u in targets]
    new = value_terms(fact.text, name)
    for unit in similar:
        if near_duplicate(fact.text, unit.text) or (new and new <= value_terms(unit.text, name)):
            return [Decision("NONE", fact, unit.id)]
    if keyed:
        return [Decision("UPDATE", fact, keyed[-1].id)]
    if fact.key is None:
        for unit in similar:
            old = value_terms(unit.text, name)
            # Only a substantial memory covering most of the new statement is enriched; a short
            # one ("Maya loves it") is a subset of too many unrelated statements.
            if unit.key is None and len(old) >= 3 and old < new and 2 * len(old) >= len(new):
                return [Decision("UPDATE", fact, unit.id)]
    return [Decision("ADD", fact)]


def ended_by(fact: CandidateFact, similar: Sequence[MemoryUnit], name: str) -> list[MemoryUnit]:
    """Keyed memories an unkeyed ending (``I gave up pottery``) names something new of.

    Only what a memory's current version added counts: ``took up painting instead of
    knitting`` is not ended by ``I gave up knitting``.
    """
    lower = fact.text.lower()
    words = value_terms(ended_clause(lower) or lower, name)
    ended = []
    for unit in similar:
        if unit.key is None:
            continue
        gained = value_terms(unit.text, name)
        if unit.history:
            gained -= value_terms(unit.history[-1].text, name)
        if words & gained:
            ended.append(unit)
    return ended


def strip_name(text: str, name: str) -> str:
    """``text`` without the parts of ``name`` (and their possessives)."""
    for part in name.split():
        text = re.sub(rf"\b{re.escape(part)}(?:'s)?\b", " ", text)
    return text


def search_text(unit: MemoryUnit, text: str, name: str) -> str:
    """What the read path matches a question against: the text, without the character's name
    (every memory has it), plus its key's label words (``Who is her partner?``)."""
    label = KEY_LABELS.get(unit.key or "", "")
    text = strip_name(text, name)
    return f"{text} ({label})" if label else text
