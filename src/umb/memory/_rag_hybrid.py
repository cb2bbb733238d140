"""``rag_hybrid``: BM25 and dense scores fused as standard scores (weights in ``HYBRID``)."""

from __future__ import annotations

from umb.memory import _rank_options
from umb.memory._rag import RagMemory


class RagHybrid(RagMemory):
    """Retrieve the ``top_k`` chunks by the weighted sum of standardised BM25 and dense scores."""

    name = "rag_hybrid"
    description = "BM25 and dense retrieval fused."
    options = _rank_options.HYBRID
