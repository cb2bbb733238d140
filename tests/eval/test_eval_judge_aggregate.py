"""The optional judge (votes, median, failures) and aggregation (overalls, CIs, counts)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest
from _eval_cases import ES, IE, MA_FALSE, MSR, with_answer

from umb.models import GenerateRequest, GenerateResult
from umb.scoring import JUDGE_PROMPT_SHA256, RECORD_KEYS, Judge, aggregate, score_replies


class ScriptedJudge:
    """A judge model that answers with a fixed list of verdicts, in order."""

    spec = "scripted/judge"

    def __init__(self, replies: list[str]) -> None:
        self.replies = list(replies)
        self.requests: list[GenerateRequest] = []

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        self.requests += requests
        out = []
        for _ in requests:
            reply = self.replies.pop(0)
            if reply == "ERROR":
                out.append(GenerateResult(text="", error="timed out"))
            else:
                out.append(GenerateResult(text=reply))
        return out


def verdict(v: str) -> str:
    return json.dumps({"verdict": v, "reason": "because"})


def _judge_scores(replies: list[str], answers: list[dict[str, Any]], questions: list[Any]) -> Any:
    model = ScriptedJudge(replies)
    judge = Judge(model, votes=3)
    texts = [json.dumps(a) for a in answers]
    return asyncio.run(score_replies(questions, texts, judge=judge)), model


def test_judge_median_can_lower_but_not_raise_the_rule_score() -> None:
    gold_msr = MSR.gold
    (result,), model = _judge_scores(
        [verdict("wrong"), verdict("partial"), verdict("wrong")], [gold_msr], [MSR]
    )
    _, score = result
    assert score.value == 0.5  # rule 1, judge 0 -> floor((1 + 0) / 2)
    judge = score.details["judge"]
    assert judge["model"] == "scripted/judge" and judge["prompt_sha256"] == JUDGE_PROMPT_SHA256
    assert judge["votes"] == [0.0, 0.5, 0.0] and judge["value"] == 0.0
    assert score.details["rule"]["value"] == 1.0
    # Votes differ in wording so a response cache cannot collapse them.
    assert len({r.messages[1].content for r in model.requests}) == 3

    half = with_answer(MA_FALSE, corrected_facts=[], final_answer="$1,100")
    (result,), _ = _judge_scores([verdict("correct")] * 3, [half], [MA_FALSE])
    assert result[1].value == 0.5  # rule 0.5, judge 1 -> stays 0.5


@pytest.mark.parametrize(
    ("votes", "expected"),
    [(["correct", "correct", "partial"], 1.0), (["partial", "correct", "partial"], 0.5)],
)
def test_judge_takes_the_median_vote(votes: list[str], expected: float) -> None:
    (result,), _ = _judge_scores([verdict(v) for v in votes], [ES.gold], [ES])
    assert result[1].value == expected


@pytest.mark.parametrize("bad", ["ERROR", "not json", json.dumps({"verdict": "maybe"})])
def test_a_failed_vote_leaves_the_item_unscored(bad: str) -> None:
    (result,), _ = _judge_scores([verdict("correct"), bad, verdict("correct")], [MSR.gold], [MSR])
    assert result[1].value is None
    assert result[1].details["judge"]["error"]


def test_judge_is_only_asked_where_it_can_change_something() -> None:
    wrong_chain = with_answer(MSR, event_chain=["did nothing"])
    answers = [IE.gold, wrong_chain, ES.gold]
    results, model = _judge_scores([verdict("correct")] * 3, answers, [IE, MSR, ES])
    assert len(model.requests) == 3  # only ES: IE has no judged field, the MSR rule gave 0
    assert [s.value for _, s in results] == [1.0, 0.0, 1.0]
    assert "judge" not in results[0][1].details


def _records(values: Mapping[str, Sequence[float | None]], **extra: Any) -> list[dict[str, Any]]:
    rows = []
    for family, scores in values.items():
        for i, v in enumerate(scores):
            rows.append(
                {
                    "system": "full_context",
                    "model": "offline",
                    "family": family,
                    "score": v,
                    "invalid_json": False,
                    "context_tokens": 100 * (i + 1),
                    "latency_s": 0.01 * (i + 1),
                    **extra,
                }
            )
    return rows


def test_task_balanced_and_sample_weighted_differ_as_expected() -> None:
    records = _records({"IE": [1.0] * 9 + [0.0], "TR": [0.0, 0.0]})
    g = aggregate(records, resamples=200)["groups"][0]
    assert g["sample_weighted"]["mean"] == pytest.approx(9 / 12)
    assert g["task_balanced"]["mean"] == pytest.approx((0.9 + 0.0) / 2)
    assert g["families"]["IE"]["mean"] == pytest.approx(0.9)
    assert g["families"]["IE"]["distribution"] == {"0": 1, "0.5": 0, "1": 9}
    for key in ("sample_weighted", "task_balanced"):
        lo, hi = g[key]["ci95"]
        assert lo <= g[key]["mean"] <= hi
    lo, hi = g["families"]["IE"]["ci95"]
    assert lo < 0.9 < hi


def test_unscored_invalid_and_errors_are_counted_not_averaged() -> None:
    records = _records({"MSR": [1.0, None, 0.5]})
    records[2]["invalid_json"] = True
    records[2]["score"] = 0.0
    records[1]["error"] = "judge failed"
    g = aggregate(records, resamples=100)["groups"][0]
    assert g["n"] == 3 and g["scored"] == 2 and g["unscored"] == 1 and g["errors"] == 1
    assert g["sample_weighted"]["mean"] == pytest.approx(0.5)
    assert g["invalid_json"] == 1 and g["invalid_json_rate"] == pytest.approx(1 / 3)
    assert g["families"]["MSR"]["invalid_json_rate"] == pytest.approx(1 / 3)


def test_tokens_latency_groups_and_determinism() -> None:
    records = _records({"IE": [1.0, 0.0, 1.0, 1.0]})
    other = [{**r, "system": "rag_bm25"} for r in records]
    first = aggregate(records + other, seed=7, resamples=300)
    again = aggregate(records + other, seed=7, resamples=300)
    assert first == again
    json.dumps(first)  # JSON-serialisable
    groups = {(g["system"], g["model"]): g for g in first["groups"]}
    assert set(groups) == {("full_context", "offline"), ("rag_bm25", "offline")}
    g = groups[("full_context", "offline")]
    assert g["context_tokens_mean"] == pytest.approx(250)
    assert g["latency_s"]["p50"] == pytest.approx(0.025)
    assert g["latency_s"]["p95"] == pytest.approx(np.percentile([0.01, 0.02, 0.03, 0.04], 95))
    # Adding a group does not move another group's interval.
    alone = aggregate(records, seed=7, resamples=300)["groups"][0]
    assert alone["sample_weighted"] == g["sample_weighted"]


def test_empty_families_and_missing_keys() -> None:
    g = aggregate(_records({"KU": [None, None]}), resamples=50)["groups"][0]
    assert g["sample_weighted"] == {"mean": None, "ci95": None}
    assert g["task_balanced"]["mean"] is None and g["families"]["KU"]["mean"] is None
    record = _records({"IE": [1.0]})[0]
    del record["latency_s"]
    with pytest.raises(ValueError, match="latency_s"):
        aggregate([record])
    assert "family" in RECORD_KEYS


def test_public_names_are_importable() -> None:
    import umb.run
    import umb.scoring

    for module in (umb.run, umb.scoring):
        assert all(hasattr(module, name) for name in module.__all__)
