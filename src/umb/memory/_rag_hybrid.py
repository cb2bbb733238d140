"""``rag_hybrid``: BM25 and dense rankings fused by reciprocal rank (k = 60)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from umb.memory._api import MemoryConfig
from umb.memory._index import DenseIndex, LexicalIndex, ranking, reciprocal_rank_fusion
from umb.memory._rag import RagMemory
from umb.memory._rag_bm25 import bm25_ranking
from umb.models._api import ModelAPI


class RagHybrid(RagMemory):
    """Retrieve the ``top_k`` chunks by reciprocal rank fusion of BM25 and dense rankings."""

    name = "rag_hybrid"

    def __init__(self, config: MemoryConfig, extractor: ModelAPI | None = None) -> None:
        super().__init__(config, extractor)
        self.lexical = LexicalIndex()
        self.dense = DenseIndex()

    def index(self, texts: Sequence[str]) -> None:
        """Queue texts for both indexes."""
        self.lexical.add(texts)
        self.dense.add(texts)

    def rank(self, query: str, allowed: npt.NDArray[np.bool_]) -> list[int]:
        """Fuse the two full rankings with ``1 / (60 + rank)``."""
        return reciprocal_rank_fusion(
            [bm25_ranking(self.lexical, query, allowed), ranking(self.dense.scores(query), allowed)]
        )
