"""One Scorer interface: every scorer name builds one, and each returns one Score per prediction."""

from __future__ import annotations

import asyncio

from umb.bench import Evidence, Question
from umb.scoring import (
    JUDGE_SCORERS,
    PEER_SCORERS,
    PeerAnswerMetric,
    PeerRetrievalMetric,
    Prediction,
    Score,
    Scorer,
    build_scorer,
    load_peer_scorer,
)

from .conftest import ScriptedJudge

META = {"source": "locomo", "native_category": 4, "native_answer": "Paris"}
Q = Question(
    "Q-x", "conv-1", "IE", "q?", "2023-01-01T00:00", {"answer": "Paris", "evidence_snippets": []},
    ("Paris",), Evidence(turn_ids=("conv-1:D1:3",)), {**META, "native_evidence": ["D1:3"]},
)  # fmt: skip


def test_every_scorer_is_a_scorer_and_scores_each_prediction() -> None:
    judge = ScriptedJudge(lambda p: '{"label": "CORRECT"} yes')
    preds = [
        Prediction(Q, "Paris", retrieved=("conv-1:D1:3",)),
        Prediction(Q, None, failure="model_error"),
    ]
    for name in ("umb", *PEER_SCORERS):
        scorer = build_scorer(name, judge_model=judge if name in JUDGE_SCORERS else None)
        assert isinstance(scorer, Scorer), name
        scores = asyncio.run(scorer.score_many(preds))
        assert len(scores) == 2 and all(isinstance(s, Score) for s in scores), name
        assert scores[0].scorer and scores[0].version, name
        assert isinstance(scorer.aggregate(scores), dict), name
        if scorer.reads != "retrieved":
            assert scores[1].value in (0.0, None), name  # no answer: 0, never judged
    assert asyncio.run(build_scorer("locomo_f1").score_many(preds[:1]))[0].value == 1.0


def test_peer_metric_classes_have_their_typed_shapes() -> None:
    assert isinstance(load_peer_scorer("mem0_f1"), PeerAnswerMetric)
    assert isinstance(load_peer_scorer("longmemeval_retrieval"), PeerRetrievalMetric)
