"""Mem0 harness metrics, LongMemEval's judge (scripted model) and retrieval metrics."""

from __future__ import annotations

import math

import pytest

from umb.bench import Evidence, Question
from umb.interop.locomo._mem0_scorers import bleu1, set_f1, simple_tokens
from umb.interop.longmemeval._judge import (
    PROMPT_SET_HASH,
    TEMPLATES,
    LongMemEvalJudge,
    build_prompt,
)
from umb.interop.longmemeval._retrieval import LongMemEvalRetrieval, dcg, evaluate_ranking
from umb.scoring import load_peer_scorer

from .conftest import ScriptedJudge


def _locomo_q(cat: int, answer: object) -> Question:
    return Question(
        "Q-1",
        "conv-1",
        "IE",
        "q?",
        "2023-01-01T00:00",
        {},
        (),
        Evidence(),
        {"source": "locomo", "native_category": cat, "native_answer": answer},
    )


@pytest.mark.parametrize(
    ("pred", "gold", "expected"),
    [
        ("The cat, the hat.", "the cat", 0.8),  # sets {the, cat, hat} vs {the, cat}
        ("running", "run", 0.0),  # no stemming
        ("Paris!", "paris", 1.0),
        ("a-b", "a b", 0.0),  # '-' is not a separator
        ("", "x", 0.0),
        ("x", "", 0.0),
        ("the the cat", "cat the", 1.0),  # sets, not multisets
    ],
)
def test_set_f1(pred: str, gold: str, expected: float) -> None:
    assert set_f1(pred, gold) == pytest.approx(expected)


def test_simple_tokens() -> None:
    assert simple_tokens("Hi, there! Ok? Yes.") == {"hi", "there", "ok", "yes"}


@pytest.mark.parametrize(
    ("pred", "gold", "expected"),
    [
        ("the cat sat", "the cat", 2 / 3),  # p1 = 2/3, no brevity penalty
        ("cat", "the cat", math.exp(1 - 2)),  # p1 = 1, brevity penalty e^(1 - 2/1)
        ("Paris.", "Paris", 0.5),  # the final period is a token: p1 = 1/2
        ("dog", "cat", 0.0),
        ("", "cat", 0.0),
    ],
)
def test_bleu1(pred: str, gold: str, expected: float) -> None:
    assert bleu1(pred, gold) == pytest.approx(expected)


def test_mem0_scorers_skip_adversarial_and_aggregate() -> None:
    f1 = load_peer_scorer("mem0_f1")
    b1 = load_peer_scorer("mem0_bleu1")
    recs = [
        f1.score(_locomo_q(4, "Paris"), "Paris"),
        f1.score(_locomo_q(2, 2022), "In 2022"),
        f1.score(_locomo_q(5, None), "Not mentioned"),
    ]
    assert recs[2]["skipped"] and recs[2]["score"] is None
    assert recs[1]["score"] == pytest.approx(2 / 3)
    agg = f1.aggregate(recs)
    assert (agg["n"], agg["n_skipped"]) == (2, 1)
    assert agg["overall_micro"] == pytest.approx((1 + 2 / 3) / 2)
    r = b1.score(_locomo_q(1, "Paris"), "Paris")
    assert r["score"] == 1.0
    assert r["tokenizer"] in ("punkt", "punkt-tab-english", "punkt-untrained")
    assert r["scorer"] == "mem0_bleu1" and r["scorer_version"] == "2"


def _lme_q(qid: str, qtype: str, answer: str, family: str = "IE") -> Question:
    return Question(
        qid,
        qid,
        family,
        f"question {qid}?",
        "2023-05-30T23:40",
        {},
        (),
        Evidence(),
        {
            "source": "longmemeval",
            "native_id": qid,
            "native_category": qtype,
            "native_answer": answer,
            "is_abstention": "_abs" in qid,
        },
    )


def test_judge_templates_semantics_and_records() -> None:
    qs = [
        _lme_q("u1", "single-session-user", "Biscuit"),
        _lme_q("t1", "temporal-reasoning", "18 days", "TR"),
        _lme_q("k1", "knowledge-update", "Globex", "KU"),
        _lme_q("p1", "single-session-preference", "Suggest beagle-friendly parks"),
        _lme_q("u2_abs", "single-session-user", "No cat was mentioned.", "ABS"),
        _lme_q("m1", "multi-session", "3", "MSR"),
    ]

    # Yes for prompts that carry the word Biscuit / 19 days / parks / unanswerable; an endpoint
    # failure for m1; otherwise a reply that contains no "yes".
    def reply(prompt: str) -> str:
        if "question m1?" in prompt:
            return "ERROR:timeout"
        if any(
            k in prompt.split("Model response:")[1]
            for k in ("Biscuit", "19", "parks", "don't know")
        ):
            return "Yes."
        return "No"

    judge = ScriptedJudge(reply)
    scorer = LongMemEvalJudge(judge)
    preds = ["It is Biscuit.", "19 days", "Acme", "Try parks", "I don't know that.", "3"]
    recs = scorer.score_many(qs, preds)
    assert [r["score"] for r in recs] == [1.0, 1.0, 0.0, 1.0, 1.0, None]
    assert [r["template"] for r in recs] == [
        "standard",
        "temporal-reasoning",
        "knowledge-update",
        "single-session-preference",
        "abstention",
        "standard",
    ]
    req = judge.requests[1]
    assert (req.max_tokens, req.temperature, req.json_mode) == (10, 0.0, False)
    assert len(req.messages) == 1 and req.messages[0].role == "user"
    assert "off-by-one" in req.messages[0].content
    assert "Rubric: Suggest" in judge.requests[3].messages[0].content
    assert "Explanation: No cat" in judge.requests[4].messages[0].content
    r = recs[0]
    assert (r["judge_model"], r["scorer"], r["scorer_version"]) == (
        "scripted/judge",
        "longmemeval_judge",
        "1",
    )
    assert r["prompt_hash"] and r["prompt_set_hash"] == PROMPT_SET_HASH
    assert recs[5]["judge_error"] == "timeout"
    agg = scorer.aggregate(recs)
    assert agg["per_type"]["single-session-user"] == {"n": 2, "accuracy": 1.0}
    assert agg["overall_accuracy"] == pytest.approx(4 / 5)
    assert agg["task_averaged_accuracy"] == pytest.approx((1 + 1 + 0 + 1) / 4)
    assert (agg["abstention_accuracy"], agg["n_abstention"]) == (1.0, 1)
    assert agg["n_judge_errors"] == 1 and agg["judge_is_reference"] is False


def test_judge_parse_rule_is_substring_yes() -> None:
    q = _lme_q("u1", "single-session-user", "Biscuit")
    assert LongMemEvalJudge(ScriptedJudge(lambda p: "  YES, correct")).score(q, "x")["score"] == 1
    assert LongMemEvalJudge(ScriptedJudge(lambda p: "eyes")).score(q, "x")["score"] == 1
    assert LongMemEvalJudge(ScriptedJudge(lambda p: "no")).score(q, "x")["score"] == 0


def test_judge_for_umb_questions_uses_family_types() -> None:
    q = Question(
        "Q-D1-ABS-01",
        "D1",
        "ABS",
        "What is the cat called?",
        "2023-01-01T00:00",
        {"answerable": False, "answer": "not mentioned"},
        (),
        Evidence(),
    )
    assert build_prompt(q, "no idea").startswith(TEMPLATES["abstention"].split("{")[0][:40])
    tr = Question(
        "Q-D1-TR-01",
        "D1",
        "TR",
        "How long?",
        "2023-01-01T00:00",
        {"final_answer": "43 days", "days": 43, "start_date": "", "end_date": ""},
        (),
        Evidence(),
    )
    assert "Correct answer: 43 days" in build_prompt(tr, "43")


def test_dcg_and_ranking_by_hand() -> None:
    assert dcg([1, 1, 1], 3) == pytest.approx(1 + 1 + 1 / math.log2(3))
    corpus = ["a", "b", "c", "d"]
    ranked = ["a", "b", "c", "d"]
    assert evaluate_ranking(ranked, ["b", "d"], corpus, 1) == (0.0, 0.0, 0.0)
    assert evaluate_ranking(ranked, ["b", "d"], corpus, 2) == (1.0, 0.0, 0.5)
    assert evaluate_ranking(ranked, ["b", "d"], corpus, 4) == (1.0, 1.0, 0.75)


def test_retrieval_turn_and_projected_session_metrics() -> None:
    q = Question(
        "q1",
        "q1",
        "IE",
        "?",
        "2023-05-30T23:40",
        {},
        (),
        Evidence(turn_ids=("q1:answer_x_1",)),
        {
            "source": "longmemeval",
            "native_id": "q1",
            "retrieval_gold": {"turn": ["q1:answer_x_1"], "session": ["q1:answer_x"]},
        },
    )
    ranked = ["q1:s1_1", "q1:s1_3", "q1:answer_x_1", "q1:s2_1"]
    r = LongMemEvalRetrieval().score_ranking(q, ranked, ks=(1, 2, 3), corpus_ids=ranked)
    assert r["turn/recall_any@2"] == 0.0 and r["turn/recall_any@3"] == 1.0
    assert r["turn/ndcg_any@3"] == pytest.approx(1 / math.log2(3))
    # Sessions s1, s1, answer_x, s2: k = 2 widens to 3 rows to cover two distinct sessions.
    assert r["turn2session/recall_any@1"] == 0.0
    assert r["turn2session/recall_any@2"] == 1.0
    assert r["turn2session/ndcg_any@2"] == pytest.approx(1 / math.log2(3))
    assert r["corpus"] == "given" and r["score"] == r["turn/recall_all@3"] == 1.0
    s = LongMemEvalRetrieval().score_ranking(
        q, ["q1:s1", "q1:answer_x"], level="session", ks=(1, 2)
    )
    assert (s["session/recall_all@1"], s["session/recall_all@2"]) == (0.0, 1.0)
    assert s["session/ndcg_any@2"] == pytest.approx(1.0 / 1.0)  # rank 2 is not discounted


def test_retrieval_skips_abstention_and_no_gold() -> None:
    scorer = load_peer_scorer("longmemeval_retrieval")
    abs_q = Question(
        "q_abs", "q_abs", "ABS", "?", "2023-01-01T00:00", {}, (), Evidence(), {"native_id": "q_abs"}
    )
    none_q = Question("q2", "q2", "IE", "?", "2023-01-01T00:00", {}, (), Evidence())
    recs = [scorer.score_ranking(abs_q, ["x"]), scorer.score_ranking(none_q, ["x"])]
    assert [r["skip_reason"] for r in recs] == ["abstention question", "no gold ids"]
    umb_q = Question(
        "Q", "D1", "IE", "?", "2023-01-01T00:00", {}, (), Evidence(turn_ids=("D1:S002:T0003",))
    )
    rec = scorer.score_ranking(umb_q, ["D1:S001:T0001", "D1:S002:T0003"], ks=(1, 2))
    assert rec["turn/recall_any@2"] == 1.0 and rec["corpus"] == "ranked+gold"
    assert rec["turn2session/recall_any@1"] == 0.0
    agg = scorer.aggregate(recs + [rec])
    assert (agg["n"], agg["n_skipped"]) == (1, 2) and agg["turn/recall_any@2"] == 1.0
