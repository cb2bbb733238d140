"""``rag_bm25``: lexical retrieval with BM25 (bm25s) over turns, rounds or sessions."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from umb.memory._api import MemoryConfig
from umb.memory._index import LexicalIndex, ranking
from umb.memory._rag import RagMemory
from umb.models._api import ModelAPI


def bm25_ranking(index: LexicalIndex, query: str, allowed: npt.NDArray[np.bool_]) -> list[int]:
    """Allowed positions sharing at least one term with ``query``, by falling BM25 score."""
    scores = index.scores(query)
    # A zero score means no shared term: such a chunk is not a lexical match at all.
    return ranking(scores, allowed & (scores > 0))


class RagBM25(RagMemory):
    """Retrieve the ``top_k`` chunks with the highest BM25 score for the question."""

    name = "rag_bm25"

    def __init__(self, config: MemoryConfig, extractor: ModelAPI | None = None) -> None:
        super().__init__(config, extractor)
        self.lexical = LexicalIndex()

    def index(self, texts: Sequence[str]) -> None:
        """Queue texts for the BM25 index, rebuilt at the next query."""
        self.lexical.add(texts)

    def rank(self, query: str, allowed: npt.NDArray[np.bool_]) -> list[int]:
        """Chunks by BM25 score; chunks with no query term are left out."""
        return bm25_ranking(self.lexical, query, allowed)
