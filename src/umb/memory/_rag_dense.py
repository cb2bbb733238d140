"""``rag_dense``: dense retrieval with wordllama's bundled embeddings, fully offline."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from umb.memory._api import MemoryConfig
from umb.memory._index import DenseIndex, ranking
from umb.memory._rag import RagMemory
from umb.models._api import ModelAPI


class RagDense(RagMemory):
    """Retrieve the ``top_k`` chunks most cosine-similar to the question."""

    name = "rag_dense"

    def __init__(self, config: MemoryConfig, extractor: ModelAPI | None = None) -> None:
        super().__init__(config, extractor)
        self.dense = DenseIndex()

    def index(self, texts: Sequence[str]) -> None:
        """Queue texts; they are embedded in one batch at the next query."""
        self.dense.add(texts)

    def rank(self, query: str, allowed: npt.NDArray[np.bool_]) -> list[int]:
        """Chunks by cosine similarity."""
        return ranking(self.dense.scores(query), allowed)
