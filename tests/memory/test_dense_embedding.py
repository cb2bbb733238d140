"""The dense index's embeddings are wordllama's own, pooled without its padded batches."""

from __future__ import annotations

import numpy as np
import pytest

from umb.memory._index import SPARSE_FROM, embed, load_embedder

TEXTS = [
    "Maya moved to Lisbon in May 2023 for the job at the clinic.",
    "",
    "ok",
    "Did you ever hear back from Oscar about the bakery?",
    "zzqxj",
    "Lisbon " * 80,  # a text far longer than the rest of its batch
]


@pytest.mark.parametrize("copies", [1, SPARSE_FROM], ids=["row by row", "sparse product"])
def test_embeddings_are_wordllamas_normalised_means(copies: int) -> None:
    texts = TEXTS * copies
    vectors = np.asarray(load_embedder().embed(texts, norm=False), dtype=np.float64)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    expected = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
    got = embed(texts)
    assert got.shape == (len(texts), 256) and got.dtype == np.float32
    np.testing.assert_allclose(got, expected, atol=1e-6)
    assert not got[1].any()  # the empty text has no direction
    np.testing.assert_allclose(np.linalg.norm(got[[0, 2, 3, 4, 5]], axis=1), 1.0, atol=1e-6)


def test_a_text_embeds_the_same_alone_as_in_a_batch() -> None:
    many = TEXTS * (SPARSE_FROM // len(TEXTS) + 1)  # pooled by the sparse product
    assert len(many) >= SPARSE_FROM
    batch = embed(many)
    for i, text in enumerate(TEXTS):
        np.testing.assert_allclose(embed([text])[0], batch[i], atol=1e-6)
    np.testing.assert_allclose(embed(TEXTS), batch[: len(TEXTS)], atol=1e-6)
