"""The simulated world a benchmark is drawn from: characters, their dated events and state
changes, built from one seed with one random stream per purpose and entity (shards give the same
bytes as a whole run).

Everything above reads the world, never the reverse: the renderers turn its events into dialogue
(with the English morphology here, so that the parts of a sentence agree), and the question
families take their gold answers from it, never from the rendered text.
"""

from umb.world._build import CharacterWorld, WorldBuilder
from umb.world._facts import PROFILE_KIND, as_told_by
from umb.world._morph import (
    article,
    base_phrase,
    capitalise,
    definite,
    gerund,
    plural,
    second_person,
)
from umb.world._records import Character, Event, Relation, SpeechProfile, StateChange
from umb.world._rng import rng_for
from umb.world._simulate import DEFAULT_PER_YEAR

__all__ = [
    "DEFAULT_PER_YEAR",
    "PROFILE_KIND",
    "Character",
    "CharacterWorld",
    "Event",
    "Relation",
    "SpeechProfile",
    "StateChange",
    "WorldBuilder",
    "article",
    "as_told_by",
    "base_phrase",
    "capitalise",
    "definite",
    "gerund",
    "plural",
    "rng_for",
    "second_person",
]
