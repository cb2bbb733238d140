"""What a question needs to be answered, and whether a piece of text still states it.

Attribution follows facts through a trace by value: a turn, a candidate fact, a memory unit or a
context "states" a needed fact when one of the fact's values occurs in it as whole normalised
tokens (the matching the rule scorers use). Which facts a question needs is its family's rule's
business (:mod:`umb.attribute._needs`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from umb.scoring import as_text as normalised_text
from umb.scoring import as_text_list as normalised_text_list
from umb.scoring import normalise_tokens

if TYPE_CHECKING:
    from umb.bench import Question

KEYS_NEEDED = 2
"""Distinctive keys of a step that must occur together when its own text does not."""


@dataclass(frozen=True, slots=True)
class Need:
    """One fact a question's answer rests on."""

    label: str
    """Short name for reasons: ``answer``, ``latest value``, ``step 2``, ``event C0001-E006``."""
    values: tuple[str, ...]
    """Any one of these, found in a text, means the text states the fact."""
    keys: tuple[str, ...] = ()
    """Weaker evidence: :data:`KEYS_NEEDED` of these together also state it (MSR / ES)."""
    turn_ids: tuple[str, ...] = ()
    """The question's evidence turns for this fact (narrowed to those stating it later)."""
    stale: tuple[str, ...] = ()
    """Superseded values (KU): a memory stating one of them and not the fact is stale."""
    echoes: tuple[str, ...] = ()
    """The words of a value that a paraphrasing evidence turn keeps ("caught Saltwater Choir at
    the Apollo" for "saw Saltwater Choir live at the Apollo"): a text with every one of them
    states the fact as that turn did (see :func:`paraphrase_echo`)."""
    mode: str = "exact"
    """How a text states it: ``exact`` (a value as contiguous tokens), ``words`` (every content
    word of a value, in any order) or ``trace`` (no matching: followed from its turns)."""

    @property
    def structural(self) -> bool:
        """No value to match: the fact is followed through the graph from its turns only."""
        return self.mode == "trace" or (not self.values and not self.keys)

    @property
    def shown(self) -> str:
        """The value quoted in reasons."""
        return self.values[0] if self.values else self.label

    @property
    def named(self) -> str:
        """The fact as reasons name it: ``the answer 'Biscuit'``, ``the evidence turn …``."""
        return f"the {self.label} {self.values[0]!r}" if self.values else f"the {self.label}"


def tokens(text: str) -> tuple[str, ...]:
    """Normalised tokens of ``text`` (cached as :func:`padded`'s string)."""
    return tuple(_padded(text).split())


# Attribution and the memory metrics go a dialogue at a time, and a dialogue's texts are a few
# thousand: a larger cache only holds earlier dialogues' (65,536 entries: 23 MB more at the
# peak of a small-preset run's analysis, for the same CPU).
_CACHED_TEXTS = 4096


@lru_cache(maxsize=_CACHED_TEXTS)
def _padded(text: str) -> str:
    # Whole-token containment is substring search on space-padded, space-joined tokens. The
    # one cache of normalised text, shared by attribution and the memory metrics: the same
    # memory text is checked many times, and one string costs a tenth of a tuple of tokens.
    return f" {' '.join(normalise_tokens(text))} "


def padded(text: str) -> str:
    """``text``'s normalised tokens, space-joined and space-padded: ``padded(v) in padded(t)``
    is the whole-token containment :func:`states` tests (for callers matching many values)."""
    return _padded(text)


def _has(hay: str, value: str) -> bool:
    needle = _padded(value)
    return needle != "  " and needle in hay


def as_text(value: Any) -> str:
    """An answer field as text (lists joined with ``; ``), as the rule scorers read it."""
    return normalised_text(value)


def as_text_list(value: Any) -> list[str]:
    """A list field as a list of texts (a lone string is a one-item list)."""
    return normalised_text_list(value)


def states(text: str, need: Need, *, loose: bool = False) -> bool:
    """Whether ``text`` states ``need`` by value matching (see the module docstring).

    Only ``loose`` matching accepts :data:`KEYS_NEEDED` of a step's distinctive keys in place of
    its text: enough to tell that an evidence turn is about the step (so its annotation is not
    wrong), not enough to tell that a memory still holds the step itself.
    """
    if not text:
        return False
    if need.mode == "words":
        return any(covers(text, v) for v in (*need.values, *need.echoes))
    hay = _padded(text)
    if any(_has(hay, v) for v in need.values):
        return True
    if any(covers(text, e) for e in need.echoes):
        return True
    if not loose or len(need.keys) < KEYS_NEEDED:
        return False
    return sum(_has(hay, k) for k in need.keys) >= KEYS_NEEDED


_FUNCTION_WORDS = frozenset(
    "a an the and or but of in on at to for by with from as into about up out over is are was "
    "were be been it its he she they we you i his her their our your my me him them this that "
    "these those there so not".split()
)


@lru_cache(maxsize=_CACHED_TEXTS)
def content_words(text: str) -> frozenset[str]:
    """Normalised tokens of ``text`` without function words, a plural ``s`` dropped."""
    return frozenset(
        t[:-1] if len(t) > 3 and t.endswith("s") else t
        for t in tokens(text)
        if t not in _FUNCTION_WORDS
    )


ECHO_WORDS = 2
"""A paraphrase must keep at least this many content words of a value, and half of them."""


def paraphrase_echo(text: str, need: Need) -> str | None:
    """The content words of one of ``need``'s values that ``text`` keeps, if it keeps enough.

    Dialogues retell an event in other words; a turn the benchmark tags with the fact but that
    does not quote it still names its distinctive words. What the turn keeps is what a memory
    derived from it can keep, so attribution matches those words instead of the quote.
    """
    said = content_words(text)
    best: frozenset[str] = frozenset()
    for value in need.values:
        wanted = content_words(value)
        kept = wanted & said
        if len(kept) >= ECHO_WORDS and 2 * len(kept) >= len(wanted) and len(kept) > len(best):
            best = kept
    return " ".join(sorted(best)) if best else None


def covers(text: str, value: str) -> bool:
    """Every content word of ``value`` occurs in ``text`` (in any order)."""
    wanted = content_words(value)
    return bool(wanted) and wanted <= content_words(text)


def overlaps(text: str, value: str) -> bool:
    """Some content word of ``value`` occurs in ``text``."""
    return bool(content_words(value) & content_words(text))


def states_stale(text: str, need: Need) -> bool:
    """Whether ``text`` states a superseded value of ``need`` and not ``need`` itself."""
    if not need.stale or not text or states(text, need):
        return False
    hay = _padded(text)
    return any(_has(hay, v) for v in need.stale)


def golden_answers(question: Question) -> list[str]:
    """The gold as a list of short strings (MemTraceBench's ``golden_answers``)."""
    if question.answer_components:
        return list(question.answer_components)
    gold = question.gold
    for key in ("answer", "latest_state", "final_answer"):
        if as_text(gold.get(key)).strip():
            return [as_text(gold[key])]
    return [as_text(gold)]
