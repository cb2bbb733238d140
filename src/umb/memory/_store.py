"""The store that holds ``mem0_style``'s memory units, with similarity search over them."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from umb.memory._index import FloatArray, embed, similarities
from umb.memory._units import MemoryUnit, MemoryVersion


class MemoryStore:
    """Memory units by id, with embedding-based similarity search over their texts."""

    def __init__(self) -> None:
        self.units: dict[str, MemoryUnit] = {}
        self._live: dict[str, MemoryUnit] = {}
        self._vectors: dict[str, FloatArray] = {}

    def live(self) -> list[MemoryUnit]:
        """Units not deleted, in creation order."""
        return list(self._live.values())

    def with_text(self, text: str) -> MemoryUnit | None:
        """A live unit whose current text is exactly ``text``, if any."""
        return next((u for u in reversed(self._live.values()) if u.text == text), None)

    def add(self, version: MemoryVersion, key: str | None = None) -> MemoryUnit:
        """Create a unit whose first version is ``version``."""
        # Ids are unique within one store, which serves one dialogue (as the tracer expects).
        unit_id = f"m{len(self.units) + 1}"
        unit = MemoryUnit(unit_id, (dataclasses.replace(version, version=1, event="ADD"),), key)
        self.units[unit_id] = self._live[unit_id] = unit
        return unit

    def append(self, unit_id: str, version: MemoryVersion) -> MemoryUnit:
        """Give ``unit_id`` a new version (an ``UPDATE`` or a ``DELETE``)."""
        unit = self.units[unit_id]
        numbered = dataclasses.replace(version, version=unit.version + 1)
        unit = dataclasses.replace(unit, versions=(*unit.versions, numbered))
        self.units[unit_id] = unit
        if unit.deleted:
            self._live.pop(unit_id, None)
        else:
            self._live[unit_id] = unit  # updating keeps creation order
        return unit

    def similarity(self, query: str, texts: Sequence[str]) -> FloatArray:
        """Cosine similarity of ``query`` with each of ``texts`` (embeddings are cached)."""
        missing = [t for t in dict.fromkeys([*texts, query]) if t not in self._vectors]
        for text, vector in zip(missing, embed(missing), strict=True):
            self._vectors[text] = vector
        if not texts:
            return np.zeros(0, dtype=np.float32)
        matrix = np.stack([self._vectors[t] for t in texts])
        return similarities(matrix, self._vectors[query])

    def search(
        self, query: str, k: int, units: Sequence[MemoryUnit] | None = None
    ) -> list[tuple[MemoryUnit, float]]:
        """The ``k`` live units (or of ``units``) most similar to ``query``, best first."""
        pool = self.live() if units is None else list(units)
        scores = self.similarity(query, [u.text for u in pool])
        order = np.argsort(-scores, kind="stable")[:k]
        return [(pool[i], float(scores[i])) for i in order]
