"""A seeded sample of a benchmark's dialogues, for the parts of the audit that need not read all.

Every figure is a mean over questions with a 95 % interval, so a few hundred questions per family
decide a threshold as well as a hundred thousand would; the sample keeps the cost of the gate
and of BM25 retrieval flat as a benchmark grows. The same benchmark always gets the same sample.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Final

SEED: Final = 0
GATE_DIALOGUES: Final = 100
"""Dialogues the generate-time gate audits (all of them when there are fewer)."""
RETRIEVAL_DIALOGUES: Final = 100
"""Dialogues whose questions ``umb audit`` ranks with BM25 by default."""


def sample_dialogues(ids: Iterable[str], limit: int | None) -> frozenset[str] | None:
    """Up to ``limit`` of ``ids``, drawn with a fixed seed; None (every dialogue) when
    ``limit`` is None or covers them all."""
    pool = sorted(set(ids))
    if limit is None or limit >= len(pool):
        return None
    return frozenset(random.Random(SEED).sample(pool, limit))
