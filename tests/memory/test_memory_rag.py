from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from memory_helpers import ingest, question, retrieve, run, session

from umb.memory import MemoryConfig, RagMemory, build_memory
from umb.memory._index import reciprocal_rank_fusion, standardised

DIALOGUE = [
    session(
        1,
        "2021-01-05T19:00",
        [
            ("user", "Did you do anything fun this weekend?"),
            ("assistant", "I went hiking near the lake with my cousin."),
            ("user", "Sounds lovely. How is the new flat?"),
            ("assistant", "Cosy, but the heating is loud at night."),
        ],
    ),
    session(
        2,
        "2021-02-11T18:30",
        [
            ("user", "What have you been up to?"),
            ("assistant", "I started xylophone lessons on Thursdays."),
            ("user", "That is unusual!"),
            ("assistant", "My teacher says I have a good sense of rhythm."),
        ],
    ),
    session(
        3,
        "2021-03-20T18:30",
        [
            ("user", "Any news?"),
            ("assistant", "I finally adopted a puppy, a beagle called Biscuit."),
            ("user", "Oh nice! How old is he?"),
            ("assistant", "Just ten weeks, he chews everything."),
        ],
    ),
]


def test_bm25_finds_a_turn_by_a_rare_word() -> None:
    _, ctx = run("rag_bm25", DIALOGUE, "Which lessons on the xylophone?", granularity="turn")
    assert ctx.item_ids[0] == "D0001:S002:T0002"
    assert "[Session 2 | 2021-02-11 18:30]\nMaya: I started xylophone lessons" in ctx.text


@pytest.mark.parametrize("top_k", [1, 2, 3])
def test_bm25_respects_top_k_and_keeps_time_order(top_k: int) -> None:
    _, ctx = run("rag_bm25", DIALOGUE, "lessons hiking puppy", granularity="turn", top_k=top_k)
    assert len(ctx.item_ids) == top_k
    assert list(ctx.item_ids) == sorted(ctx.item_ids)  # ids sort in time order here
    headers = [line for line in ctx.text.splitlines() if line.startswith("[Session")]
    assert headers == sorted(headers)


def test_bm25_leaves_out_chunks_without_a_shared_term() -> None:
    _, ctx = run("rag_bm25", DIALOGUE, "xylophone", granularity="turn", top_k=5)
    assert ctx.item_ids == ("D0001:S002:T0002",)


def test_granularity_round_and_session() -> None:
    _, rnd = run("rag_bm25", DIALOGUE, "xylophone", granularity="round", top_k=1)
    assert rnd.item_ids == ("D0001:S002:T0001",)
    assert rnd.source_turn_ids == ("D0001:S002:T0001", "D0001:S002:T0002")
    _, ses = run("rag_bm25", DIALOGUE, "xylophone", granularity="session", top_k=1)
    assert ses.item_ids == ("D0001:S002",)
    assert len(ses.source_turn_ids) == 4
    assert ses.meta["granularity"] == "session"


def test_index_is_rebuilt_after_new_sessions() -> None:
    system = build_memory("rag_bm25", MemoryConfig(granularity="turn"))
    ingest(system, DIALOGUE[:1])
    assert retrieve(system, question("xylophone")).item_ids == ()
    ingest(system, DIALOGUE[1:])
    assert retrieve(system, question("xylophone")).item_ids == ("D0001:S002:T0002",)


def test_retrieval_never_sees_sessions_after_the_question() -> None:
    early = question("beagle puppy Biscuit", asked_at="2021-03-01T00:00")
    _, ctx = run("rag_bm25", DIALOGUE, early, granularity="turn")
    assert all(not t.startswith("D0001:S003") for t in ctx.source_turn_ids)


def test_dense_works_offline(offline_embedder: Any) -> None:
    _, ctx = run(
        "rag_dense", DIALOGUE, "What kind of dog did Maya get?", granularity="turn", top_k=1
    )
    assert ctx.item_ids == ("D0001:S003:T0002",)
    assert "beagle called Biscuit" in ctx.text


def test_hybrid_fuses_lexical_and_dense(offline_embedder: Any) -> None:
    query = "What breed is the new dog, and what about the lessons?"
    config: dict[str, Any] = {"granularity": "turn", "top_k": 1}
    bm25, _ = run("rag_bm25", DIALOGUE, query, **config)
    dense, _ = run("rag_dense", DIALOGUE, query, **config)
    hybrid, _ = run("rag_hybrid", DIALOGUE, query, **config)
    assert isinstance(hybrid, RagMemory) and isinstance(bm25, RagMemory)
    assert isinstance(dense, RagMemory)
    everything = np.ones(len(hybrid.chunks), dtype=np.bool_)
    lexical, semantic = bm25.rank(query, everything), dense.rank(query, everything)
    fused = hybrid.rank(query, everything)
    # BM25 leaves out the turns that share no query term; the hybrid ranks every turn, with
    # the lexical matches first here (they are also high in the dense ranking, which with the
    # neighbouring question's share reorders the weaker ones), then the dense ranker's best
    # turn among the rest.
    assert len(lexical) < len(fused) == len(semantic) == len(hybrid.chunks)
    assert fused[:2] == lexical[:2] and set(fused[: len(lexical)]) == set(lexical)
    assert fused[len(lexical)] == next(i for i in semantic if i not in lexical)


def test_standard_scores_make_a_fusion_weight_scale_free() -> None:
    scores = np.array([3.0, 0.0, 1.0, 2.0, 5.0], dtype=np.float32)
    allowed = np.array([True, True, True, True, False])
    z = standardised(scores, allowed)
    assert np.allclose(standardised(10 * scores + 4, allowed), z, atol=1e-5)
    assert abs(float(z[allowed].mean())) < 1e-6 and abs(float(z[allowed].std()) - 1) < 1e-5
    assert not standardised(np.ones(5, dtype=np.float32), allowed).any()


def test_reciprocal_rank_fusion_scores() -> None:
    # 7: 1/61 + 1/62; 3: 1/62 + 1/61 (tie, lower position first); 5: 1/63.
    assert reciprocal_rank_fusion([[7, 3, 5], [3, 7]]) == [3, 7, 5]
    assert reciprocal_rank_fusion([[1], [2, 1]]) == [1, 2]
