"""``rag_bm25``: lexical retrieval with BM25 (bm25s) over turns, rounds or sessions."""

from __future__ import annotations

from umb.memory import _rank_options
from umb.memory._rag import RagMemory


class RagBM25(RagMemory):
    """Retrieve the ``top_k`` chunks with the best BM25 score; chunks with no query term are out."""

    name = "rag_bm25"
    description = "Retrieval of the top-k units by BM25."
    options = _rank_options.BM25
