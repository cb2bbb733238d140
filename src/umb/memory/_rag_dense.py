"""``rag_dense``: dense retrieval with wordllama's bundled embeddings, fully offline."""

from __future__ import annotations

from umb.memory import _rank_options
from umb.memory._rag import RagMemory


class RagDense(RagMemory):
    """Retrieve the ``top_k`` chunks most cosine-similar to the question."""

    name = "rag_dense"
    description = "Retrieval of the top-k units by dense embeddings."
    options = _rank_options.DENSE
