"""Similarity search over growing lists of texts: BM25 (bm25s), dense (wordllama) and fusion.

Both indexes take texts with :meth:`add` and score a query against every text with
:meth:`scores`; the work of (re)indexing happens lazily, at the first query after new texts.
"""

from __future__ import annotations

import functools
import logging
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from umb.memory._text import index_terms

FloatArray = npt.NDArray[np.float32]

#: The reciprocal-rank-fusion constant of Cormack et al. (2009).
RRF_K = 60


class LexicalIndex:
    """Okapi BM25 over stemmed content words; rebuilt at the first query after an :meth:`add`."""

    def __init__(self) -> None:
        self._terms: list[list[str]] = []
        self._model: Any = None
        self._df: Counter[str] = Counter()

    def __len__(self) -> int:
        return len(self._terms)

    def add(self, texts: Sequence[str]) -> None:
        """Append ``texts``; their positions continue from the current length."""
        self._terms.extend(index_terms(t) for t in texts)
        self._model = None

    def scores(self, query: str) -> FloatArray:
        """BM25 score of ``query`` against every text (0 where no term is shared)."""
        return self.term_scores(index_terms(query))

    def term_scores(self, terms: Sequence[str]) -> FloatArray:
        """BM25 score of the (already analysed) query ``terms`` against every text."""
        if not self._terms or not terms:
            return np.zeros(len(self._terms), dtype=np.float32)
        if self._model is None:
            import bm25s

            self._model = bm25s.BM25()
            self._model.index(self._terms, show_progress=False)
            self._df = Counter(t for terms in self._terms for t in set(terms))
        return np.asarray(self._model.get_scores(list(terms)), dtype=np.float32)

    def terms(self, position: int) -> list[str]:
        """The indexed terms of the text at ``position``."""
        return self._terms[position]

    def document_frequency(self) -> Counter[str]:
        """How many texts hold each term (as of the last query)."""
        return self._df


@functools.lru_cache(maxsize=1)
def load_embedder() -> Any:
    """Load wordllama's bundled ``l2_supercat`` 256-d weights once per process, never downloading.

    wordllama looks for weights first in its own package folder, where the wheel ships them;
    pointing ``cache_dir`` there too keeps it from ever touching ``~/.cache`` or the network.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    import wordllama

    # wordllama calls logging.basicConfig() on import; that root handler would print every
    # library's debug log (bm25s logs each index build at DEBUG) on stderr.
    for handler in [h for h in root.handlers if h not in handlers]:
        root.removeHandler(handler)
    root.setLevel(level)

    package_dir = Path(wordllama.__file__).parent
    return wordllama.WordLlama.load(
        "l2_supercat", dim=256, disable_download=True, cache_dir=package_dir
    )


@functools.lru_cache(maxsize=1)
def _unpadded_tokenizer() -> Any:
    """wordllama's tokenizer without the padding it turns on: pooling needs no pad tokens."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_str(load_embedder().tokenizer.to_str())
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


SPARSE_FROM = 32
"""Batches of this many texts or more are pooled by one sparse product; smaller ones (a query, a
few candidate facts) row by row, where building the sparse matrix would cost more than it saves."""


def embed(texts: Sequence[str]) -> FloatArray:
    """Unit-length embeddings of ``texts`` (a text with no known token maps to zeros).

    wordllama's own ``embed`` is the mean of a text's token vectors, computed over padded
    batches of 64. Here the sum is taken over the unpadded tokens, which costs about half the
    CPU on a dialogue's turns. The mean and the sum differ by a positive factor only, which the
    normalising removes (the vectors agree to float rounding, about 1e-7).
    """
    if not texts:
        return np.zeros((0, 256), dtype=np.float32)
    table = load_embedder().embedding
    encodings = _unpadded_tokenizer().encode_batch_fast(list(texts), add_special_tokens=False)
    if len(texts) < SPARSE_FROM:
        vectors = np.zeros((len(texts), table.shape[1]), dtype=np.float32)
        for row, encoding in enumerate(encodings):
            if encoding.ids:
                ids = np.clip(np.asarray(encoding.ids, dtype=np.intp), 0, table.shape[0] - 1)
                vectors[row] = table[ids].sum(axis=0)
    else:
        vectors = _sparse_sums(encodings, table)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    # A text without tokens has a zero sum: it stays zero rather than dividing by nothing.
    unit: FloatArray = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
    return unit


def _sparse_sums(encodings: Sequence[Any], table: FloatArray) -> FloatArray:
    """Each encoding's sum of token vectors: its token counts (a sparse matrix) times the table."""
    import scipy.sparse

    lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.int64, count=len(encodings))
    ids = np.fromiter(
        (i for e in encodings for i in e.ids), dtype=np.int64, count=int(lengths.sum())
    )
    np.clip(ids, 0, table.shape[0] - 1, out=ids)  # as wordllama clamps ids beyond its table
    offsets = np.concatenate(([0], np.cumsum(lengths)))
    counts = scipy.sparse.csr_matrix(
        (np.ones(ids.size, dtype=np.float32), ids, offsets), shape=(len(encodings), table.shape[0])
    )
    sums: FloatArray = np.asarray(counts @ table, dtype=np.float32)
    return sums


@functools.lru_cache(maxsize=1)
def _blas() -> Any:
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def similarities(matrix: FloatArray, vector: FloatArray) -> FloatArray:
    """``matrix @ vector`` on one BLAS thread.

    An evaluation makes thousands of small products (a few thousand turns by 256). OpenBLAS
    splits each over every core and its threads then spin-wait between calls: on 1,600 questions
    of the umb preset that made a `rag_hybrid` run cost 67 % more CPU and save no wall time
    (docs/performance.md, "RAG evaluation cost").
    """
    with _blas().limit(limits=1, user_api="blas"):
        product: FloatArray = matrix @ vector
    return product


class DenseIndex:
    """Cosine similarity over wordllama embeddings; new texts are embedded in one batch."""

    def __init__(self) -> None:
        self._matrix: FloatArray = np.zeros((0, 256), dtype=np.float32)
        self._pending: list[str] = []

    def __len__(self) -> int:
        return int(self._matrix.shape[0]) + len(self._pending)

    def add(self, texts: Sequence[str]) -> None:
        """Append ``texts``; their positions continue from the current length."""
        self._pending.extend(texts)

    def scores(self, query: str) -> FloatArray:
        """Cosine similarity of ``query`` with every text."""
        if self._pending:
            self._matrix = np.vstack([self._matrix, embed(self._pending)])
            self._pending = []
        if self._matrix.shape[0] == 0:
            return np.zeros(0, dtype=np.float32)
        return similarities(self._matrix, embed([query])[0])


def ranking(scores: FloatArray, allowed: npt.NDArray[np.bool_] | None = None) -> list[int]:
    """Positions by falling score (ties keep the earlier position), skipping disallowed ones."""
    order = np.argsort(-scores, kind="stable")
    if allowed is not None:
        order = order[allowed[order]]
    return [int(i) for i in order]


def standardised(scores: FloatArray, allowed: npt.NDArray[np.bool_]) -> FloatArray:
    """``scores`` as standard scores over the ``allowed`` positions (0 where all are equal).

    Fusing standard scores puts a lexical and a dense ranker on one scale whatever the spread
    of their raw scores, so a fusion weight means the same for every query.
    """
    out = np.zeros_like(scores)
    if not allowed.any():
        return out
    kept = scores[allowed]
    spread = float(kept.std())
    if spread > 0:
        out = (scores - float(kept.mean())) / spread
    return out.astype(np.float32)


def reciprocal_rank_fusion(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> list[int]:
    """Fuse rankings by ``sum(1 / (k + rank))`` (rank counted from 1); best first.

    Ties are broken by the position itself, so the result is deterministic.
    """
    fused: dict[int, float] = {}
    for ranked in rankings:
        for rank, position in enumerate(ranked, start=1):
            fused[position] = fused.get(position, 0.0) + 1.0 / (k + rank)
    return sorted(fused, key=lambda p: (-fused[p], p))
