"""Whether a world value found in a memory is claimed, or only a word that happens to match.

Small talk is full of nouns that are also some fact's value: "by the yoga studio" (a hobby),
"Caleb's cousin" (a travel companion), an interlocutor called Olive (a pet's name). A value is
*claimed* only in a sentence, about the character, that puts it in the role of an attribute it
is a value of (:meth:`Roles.gives`):

- the sentence names that role: the attribute's own name ("hobby", "companion", "colour"), or,
  for a tracked attribute, one of its cue words (:data:`CUES`: "lives", "moved" for a city);
  a word of the value itself is no cue ("the chess club" does not name the role "club"); or
- the sentence tells an event of the character that has that attribute as a slot (a wrong
  companion in a sentence telling the trip): it states the event's description, or two of its
  other values. A fact whose value holds the value itself does not count, or the coincidence
  would vouch for itself ("yoga studio" states the hobby "yoga"), and neither does one fact
  alone ("Caleb's cousin" states the companion of some trip, not the trip).

Sentences are judged one by one, so that one sentence of a summary does not lend its role to
another's nouns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from umb.attribute._facts import content_words, padded
from umb.bench import Fact

#: Words that put a value in a tracked attribute's role besides the attribute's own name.
CUES: Final = {
    "city": "city live living lived moved move home resident based relocated",
    "employer": "employer work working worked job joined company hired",
    "job_title": "job title work working worked role position promoted career",
    "relationship_status": "relationship single married engaged dating",
    "partner": "partner dating married engaged together girlfriend boyfriend wife husband",
    "pet": "pet adopted named",
    "car": "car drive driving drove",
    "hobby": "hobby hobbies pastime",
}

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def sentences(text: str) -> list[str]:
    """``text`` split after each ``.``, ``!`` or ``?`` that a space follows."""
    return [s for s in _SENTENCE_END.split(text) if s]


class Roles:
    """The attributes each value of the benchmark takes, and each event's slots."""

    def __init__(self, facts: Iterable[Fact]) -> None:
        self.attributes: dict[str, set[str]] = {}
        """Value -> the attributes facts give it."""
        self.slots: dict[str, set[str]] = {}
        """Event id -> the attributes of its facts."""
        for f in facts:
            self.attributes.setdefault(f.value, set()).add(f.attribute)
            self.slots.setdefault(f.event_id, set()).add(f.attribute)
        self._cues: dict[str, frozenset[str]] = {}

    def cues(self, attribute: str) -> frozenset[str]:
        """The words that name ``attribute``'s role."""
        if attribute not in self._cues:
            words = f"{attribute.replace('_', ' ')} {CUES.get(attribute, '')}"
            self._cues[attribute] = content_words(words)
        return self._cues[attribute]

    def cued(self, values: Iterable[str], text: str) -> bool:
        """Whether ``text`` names the role of some attribute of one of ``values`` (a cheap
        test on a whole unit before its sentences are read)."""
        words = content_words(text)
        return any(self.cues(a) & words for x in values for a in self.attributes.get(x, ()))

    def gives(self, value: str, sentence: str, stated: Iterable[Fact]) -> bool:
        """Whether ``sentence``, which holds ``value`` and states the ``stated`` facts of the
        character, puts ``value`` in the role of one of its attributes."""
        attributes = self.attributes.get(value, set())
        words = content_words(sentence) - content_words(value)
        if any(self.cues(a) & words for a in attributes):
            return True
        needle = padded(value)
        told: dict[str, set[str]] = {}  # event id -> the values of it the sentence tells
        for f in stated:
            if needle not in padded(f.value) and attributes & self.slots.get(f.event_id, set()):
                if f.attribute == "event":
                    return True
                told.setdefault(f.event_id, set()).add(padded(f.value))
        return any(len(values) >= 2 for values in told.values())
