"""Answer profiles and peer scoring in the runner: prompts, letter mapping, failures, the
LongMemEval judge through a real endpoint, and the scorer option's checks."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from umb import ConfigError
from umb.bench import Benchmark, Question
from umb.interop import import_longmemeval
from umb.interop._common import text_hash
from umb.interop.locomo._profile import NOT_MENTIONED_OPTION
from umb.interop.longmemeval._judge import TEMPLATES
from umb.memory import RetrievedContext
from umb.models import GenerateRequest, GenerateResult, ModelOptions
from umb.models.offline import OfflineModel
from umb.run import RunConfig, ScoringOptions, answer_question, read_records, run_eval
from umb.run._profiles import build_profile_request, profile_for
from umb.scoring import PeerScoring, answer_scorer_names, check_scorer
from umb.testing import OpenAIServer

from .conftest import lme_instance


def _locomo(bench: Path, category: int) -> Question:
    return next(q for q in Benchmark.open(bench).questions if q.meta["native_category"] == category)


def test_adversarial_questions_become_a_two_option_choice(locomo_bench: Path) -> None:
    q = _locomo(locomo_bench, 5)
    request = build_profile_request(q, "[Session 1 | 2023-05-08 13:56]\nA: hi", include_gold=True)
    user = request.messages[-1].content
    options = profile_for(q).options(q)  # type: ignore[attr-defined]
    assert options is not None and NOT_MENTIONED_OPTION in options.values()
    assert f"(a) {options['a']} (b) {options['b']}" in user
    assert str(q.meta["adversarial_answer"]) in options.values()
    assert request.task["family"] == "ABS" and request.task["query"] == q.query
    assert request.task["gold"] == {"answer": NOT_MENTIONED_OPTION}
    # The order is fixed per question, so prompts (and cached replies) repeat exactly.
    again = build_profile_request(q, "[Session 1 | 2023-05-08 13:56]\nA: hi", include_gold=True)
    assert again.messages == request.messages
    profile = profile_for(q)
    # LoCoMo's get_cat_5_answer: any 1- or 3-character reply is an option, nothing else is.
    for reply, letter in (("a", "a"), ("(b)", "b"), ("x", "b"), ("b12", "b"), ("(A)", "a")):
        assert profile.prediction(q, {"answer": reply}) == options[letter], reply
    for text in ("an apple", "not mentioned", "b.", "a)", "(a) whatever"):
        assert profile.prediction(q, {"answer": text}) == text


def test_locomo_prompts_ask_for_a_short_phrase(locomo_bench: Path) -> None:
    temporal, single = _locomo(locomo_bench, 2), _locomo(locomo_bench, 4)
    t = build_profile_request(temporal, "x", include_gold=False)
    s = build_profile_request(single, "x", include_gold=False)
    assert "dates of the sessions" in t.messages[-1].content
    assert "dates of the sessions" not in s.messages[-1].content
    for request in (t, s):
        assert '{"answer": "..."}' in request.messages[-1].content
        assert request.task["family"] == "IE" and "gold" not in request.task
        assert "Current date" not in request.messages[-1].content  # as LoCoMo's prompt
    profile = profile_for(single)
    assert profile.prediction(single, {"answer": ["Paris", "Rome"]}) == "Paris, Rome"
    assert profile.prediction(single, {"answer": 7}) == "7"


def test_the_offline_reader_answers_every_profile(locomo_bench: Path) -> None:
    model = OfflineModel()
    context = (
        "[Session 1 | 2023-05-08 13:56]\nCaroline: I went to a LGBTQ support group yesterday.\n"
        "Melanie: That sounds great!"
    )
    for category in (1, 2, 3, 4, 5):
        q = _locomo(locomo_bench, category)
        request = build_profile_request(q, context, include_gold=False)
        (result,) = asyncio.run(model.generate([request]))
        assert isinstance(json.loads(result.text)["answer"], str), category


class _Scripted:
    def __init__(self, text: str = "", error: str | None = None) -> None:
        self.spec, self.text, self.error = "scripted", text, error

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        return [GenerateResult(self.text, error=self.error) for _ in requests]


@pytest.mark.parametrize(
    ("model", "status", "reason"),
    [
        (_Scripted("The answer is 7 May."), "invalid_json", "invalid_json"),
        (_Scripted('{"answer": null}'), "missing_fields", "missing_fields"),
        (_Scripted(error="HTTP 500"), "error", "model_error"),
    ],
)
def test_replies_without_an_answer_score_zero(
    locomo_bench: Path, model: _Scripted, status: str, reason: str
) -> None:
    q = _locomo(locomo_bench, 4)
    record = asyncio.run(
        answer_question(
            model, q, RetrievedContext("x"), system="s", include_gold=False,
            peer=PeerScoring("locomo_f1"),
        )
    )  # fmt: skip
    assert record["parse_status"] == status and record["score"] == 0.0
    assert record["prediction"] is None and record["score_details"]["reason"] == reason
    assert record["score_details"]["scorer"] == "locomo_f1"


def test_failed_records_keep_peer_skips(locomo_bench: Path) -> None:
    q = _locomo(locomo_bench, 5)
    assert PeerScoring("mem0_bleu1").failed(q, "invalid_json")["score"] is None
    assert PeerScoring("locomo_f1").failed(q, "invalid_json")["score"] == 0.0


def test_scorer_option_checks() -> None:
    assert answer_scorer_names()[0] == "umb"
    assert {"locomo_f1", "mem0_f1", "mem0_bleu1", "longmemeval_judge"} <= set(answer_scorer_names())
    check_scorer("umb", "offline")
    check_scorer("longmemeval_judge", "openai/x")
    for name, judge, message in (
        ("locomo_recall", None, "retrieval metric"),
        ("locomo_fl", None, "did you mean 'locomo_f1'"),
        ("longmemeval_judge", None, "give --judge"),
        ("mem0_f1", "openai/x", "drop --judge"),
    ):
        with pytest.raises(ConfigError, match=message):
            check_scorer(name, judge)


@pytest.fixture
def lme_bench(tmp_path: Path) -> Path:
    instances = [
        lme_instance("q1", "single-session-user", "Biscuit"),
        lme_instance("q2_abs", "single-session-user", "You never mentioned a cat."),
        lme_instance(
            "q3", "single-session-preference", "The user would like toys for a beagle.",
            question="Can you suggest a dog toy?",
        ),
        lme_instance("q4", "temporal-reasoning", "3 days"),
    ]  # fmt: skip
    src = tmp_path / "longmemeval_s_cleaned.json"
    src.write_text(json.dumps(instances))
    import_longmemeval(src, tmp_path / "lme")
    return tmp_path / "lme"


def test_longmemeval_judge_scores_through_the_judge_model(
    lme_bench: Path, tmp_path: Path, openai_server: OpenAIServer
) -> None:
    openai_server.set_rules(
        {"match": "treat the question as unanswerable", "reply": "no"},
        {"match": "Model response: Biscuit", "reply": "Yes."},
        {"match": "suggest a dog toy", "reply": "Try a rope toy!"},
        {"match": "History chats:", "reply": '{"answer": "Biscuit"}'},
    )
    spec = "openai/umb-test"
    config = RunConfig(
        bench=lme_bench, out=tmp_path / "run", systems=("rag_bm25",), model=spec,
        judge=spec, scoring=ScoringOptions(scorer="longmemeval_judge"),
        options=ModelOptions(base_url=openai_server.base_url, api_key_env="UMB_TEST_NO_KEY",
                             max_retries=0),
    )  # fmt: skip
    (group,) = run_eval(config, progress=False).results["groups"]
    records = {r["question_id"]: r for r in read_records(tmp_path / "run" / "records.jsonl")}
    assert {k: r["score"] for k, r in records.items()} == {
        "q1": 1.0, "q2_abs": 0.0, "q3": 0.0, "q4": 1.0
    }  # fmt: skip
    assert records["q3"]["parse_status"] == "invalid_json"
    assert records["q1"]["judge_model"] == spec and records["q1"]["answer_profile"] == (
        "longmemeval@2"
    )
    assert records["q1"]["judge_prompt_hash"] == text_hash(TEMPLATES["standard"])
    assert records["q4"]["judge_prompt_hash"] == text_hash(TEMPLATES["temporal-reasoning"])
    assert records["q2_abs"]["judge_prompt_hash"] == text_hash(TEMPLATES["abstention"])
    peer = group["peer"]
    assert peer["overall_accuracy"] == 0.5 and peer["abstention_accuracy"] == 0.0
    assert peer["judge_model"] == spec
    native = group["native"]["longmemeval"]
    assert native["abstention"]["n"] == 1 and native["overall_micro"]["mean"] == 0.5
    # LongMemEval's retrieval metrics, with abstention skipped.
    assert records["q2_abs"]["retrieval"]["skipped"] is True
    for qid in ("q1", "q4"):
        ret: dict[str, Any] = records[qid]["retrieval"]
        assert ret["scorer"] == "longmemeval_retrieval" and ret["unit"] == "round"
        assert ret["turn/recall_any@10"] == 1.0 and "turn/recall_any@30" not in ret
    assert group["retrieval"]["longmemeval_retrieval"]["n"] == 3
    header = json.loads((tmp_path / "run" / "header.json").read_text())
    assert header["scorer"]["name"] == "longmemeval_judge"
    assert len(header["scorer"]["judge_prompt_set_hash"]) == 16
    assert header["parameters"]["judge_votes"] is None
