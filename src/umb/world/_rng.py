"""Deterministic random streams: one per (seed, purpose, entity ids).

Every random choice in the simulator draws from a stream named by what it is for and whom it
concerns, so a character's records do not depend on which other characters were generated in the
same process (shards give the same bytes as a whole run).
"""

from __future__ import annotations

import hashlib
import random


def rng_for(seed: int, purpose: str, *ids: object) -> random.Random:
    """A ``random.Random`` seeded from ``seed``, ``purpose`` and ``ids``."""
    key = "\x1f".join([str(seed), purpose, *map(str, ids)]).encode()
    return random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))
