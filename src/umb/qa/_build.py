"""Build every family's questions for one character's dialogue."""

from __future__ import annotations

from collections.abc import Callable

from umb.bench import Dialogue, Question
from umb.qa._absent import abs_questions
from umb.qa._chains import msr_questions
from umb.qa._context import QAContext
from umb.qa._premise import ma_questions
from umb.qa._slots import ie_questions
from umb.qa._state import ku_questions
from umb.qa._summary import es_questions
from umb.qa._temporal import tr_questions
from umb.world import CharacterWorld, rng_for

DEFAULT_COUNTS: dict[str, int] = {"IE": 4, "MSR": 2, "ES": 2, "TR": 3, "KU": 2, "MA": 3, "ABS": 1}

BUILDERS: dict[str, Callable[..., list[Question]]] = {
    "IE": ie_questions,
    "MSR": msr_questions,
    "ES": es_questions,
    "TR": tr_questions,
    "KU": ku_questions,
    "MA": ma_questions,
    "ABS": abs_questions,
}


def build_questions(
    seed: int, world: CharacterWorld, dialogue: Dialogue, counts: dict[str, int]
) -> list[Question]:
    """Questions per family for one dialogue, in family order."""
    ctx = QAContext(world, dialogue)
    out: list[Question] = []
    for family, builder in BUILDERS.items():
        n = counts.get(family, 0)
        if n > 0:
            out += builder(ctx, rng_for(seed, "qa", family, world.character.id), n)
    return out
