"""ABS: questions about things that never happened to the character."""

from __future__ import annotations

import random

from umb.bench import Evidence, Question
from umb.qa._context import QAContext

ABSENT: tuple[tuple[str, str], ...] = (
    ("wedding", "Where did {first}'s wedding take place in {year}?"),
    ("concert", "Which band did {first} see live in {year}?"),
    ("adopt_pet", "What was the name of the pet {first} adopted in {year}?"),
    ("race", "What was {first}'s finishing time in the race {pronoun} ran in {year}?"),
    ("car_purchase", "What car did {first} buy in {year}?"),
    ("book", "Which book did {first} read in {year}?"),
    ("injury", "How did {first} get injured in {year}?"),
    ("conference", "Which conference did {first} attend in {year}?"),
    ("move", "Which city did {first} move to in {year}?"),
)


def abs_questions(ctx: QAContext, rng: random.Random, n: int) -> list[Question]:
    happened = {(e.kind, e.at[:4]) for e in ctx.world.events}
    years = sorted({e.at[:4] for e in ctx.own_events()})
    options = [(k, q, y) for k, q in ABSENT for y in years if (k, y) not in happened]
    rng.shuffle(options)
    out: list[Question] = []
    for _kind, pattern, year in options[:n]:
        query = pattern.format(first=ctx.first, year=year, pronoun=ctx.pronoun)
        out.append(
            ctx.question(
                "ABS",
                len(out) + 1,
                query,
                ctx.end_at,
                {"answerable": False, "answer": "not mentioned"},
                [],
                Evidence(),
                {"kind": "never_happened"},
            )
        )
    return out
