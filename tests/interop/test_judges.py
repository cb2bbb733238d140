"""The Mem0 judge (J) and the judges' prompt templates from a file or a LongMemEval checkout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from umb import ConfigError, DataError
from umb.bench import Evidence, Question
from umb.interop.locomo._mem0_judge import Mem0Judge
from umb.interop.longmemeval._judge import LongMemEvalJudge
from umb.run import JudgeTemplates

from .conftest import ScriptedJudge


def _q(qid: str, cat: int, answer: str) -> Question:
    meta = {"source": "locomo", "native_category": cat, "native_answer": answer}
    return Question(
        qid, "conv-1", "IE", f"question {qid}?", "2023-01-01T00:00", {}, (), Evidence(), meta
    )


def _lme_q(qid: str, qtype: str) -> Question:
    meta = {"source": "longmemeval", "native_category": qtype, "native_id": qid,
            "native_answer": "Biscuit"}  # fmt: skip
    return Question(qid, qid, "IE", "Dog's name?", "2023-05-30T23:40", {}, (), Evidence(), meta)


def test_mem0_judge_labels_skips_category_5_and_counts_errors() -> None:
    def reply(prompt: str) -> str:
        if "question q3?" in prompt:
            return "I think it is right"  # no JSON: a judge error
        if "Generated answer: Paris" in prompt:
            return '```json\n{"reason": "same city", "label": "CORRECT"}\n```'
        return '{"reason": "no", "label": "WRONG"}'

    judge = ScriptedJudge(reply)
    qs = [_q("q1", 4, "Paris"), _q("q2", 2, "May 2023"), _q("q3", 1, "x"), _q("q4", 5, "y")]
    recs = Mem0Judge(judge).score_many(qs, ["Paris", "June", "x", "Not mentioned"])
    assert [r["score"] for r in recs] == [1.0, 0.0, None, None]
    assert recs[3]["skipped"] and len(judge.requests) == 3  # category 5 is never asked
    req = judge.requests[0]
    assert (req.temperature, req.json_mode, len(req.messages)) == (0.0, True, 1)
    assert recs[2]["judge_error"] == "reply is not JSON"
    agg = Mem0Judge(judge).aggregate(recs)
    assert agg["per_category"] == {"2": {"n": 1, "J": 0.0}, "4": {"n": 1, "J": 1.0}}
    assert (agg["J"], agg["n"], agg["n_skipped"], agg["n_judge_errors"]) == (0.5, 2, 1, 1)
    assert agg["template_set"] == "umb"


def test_mem0_judge_votes_average() -> None:
    replies = iter(['{"label": "CORRECT"}', '{"label": "WRONG"}', '{"label": "CORRECT"}'])
    judge = ScriptedJudge(lambda p: next(replies))
    (rec,) = Mem0Judge(judge, votes=3).score_many([_q("q1", 4, "Paris")], ["Paris"])
    assert rec["score"] == pytest.approx(2 / 3) and rec["votes"] == [1.0, 0.0, 1.0]


def test_template_file_is_checked_and_used(tmp_path: Path) -> None:
    good = tmp_path / "mem0.json"
    text = "Q={question} G={gold_answer} A={generated_answer}"
    head = {"format": "umb-judge-templates", "scorer": "mem0_judge"}
    good.write_text(json.dumps({**head, "templates": {"default": text}}))
    templates = JudgeTemplates(file=good).load("mem0_judge")
    assert templates is not None and templates.name == "file:mem0.json"
    judge = ScriptedJudge(lambda p: '{"label": "CORRECT"}')
    (rec,) = Mem0Judge(judge, templates).score_many([_q("q1", 4, "Paris")], ["Rome"])
    assert judge.requests[0].messages[0].content == "Q=question q1? G=Paris A=Rome"
    assert rec["template_set"] == "file:mem0.json" and rec["prompt_hash"] == templates.sha256
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "umb-judge-templates", "scorer": "mem0_judge",
                               "templates": {"default": "{question} {gold}"}}))  # fmt: skip
    with pytest.raises(DataError, match=r"bad.json: template 'default' uses \{gold\}"):
        JudgeTemplates(file=bad).load("mem0_judge")
    with pytest.raises(DataError, match="templates are for 'mem0_judge', not 'longmemeval_judge'"):
        JudgeTemplates(file=good).load("longmemeval_judge")


def test_longmemeval_checkout_function_is_called_without_running_its_module(
    tmp_path: Path,
) -> None:
    src = tmp_path / "LongMemEval" / "src" / "evaluation"
    src.mkdir(parents=True)
    # The module's imports would fail here: only the function may run.
    (src / "evaluate_qa.py").write_text(
        "import not_an_installed_module\n\n"
        "def get_anscheck_prompt(task, question, answer, response, abstention=False):\n"
        "    return f'{task}|{question}|{answer}|{response}|{abstention}'\n"
    )
    templates = JudgeTemplates(checkout=tmp_path / "LongMemEval").load("longmemeval_judge")
    assert templates is not None and templates.name == "checkout"
    judge = ScriptedJudge(lambda p: "yes")
    qs = [_lme_q("a1", "temporal-reasoning"), _lme_q("a2_abs", "multi-session")]
    recs = LongMemEvalJudge(judge, templates).score_many(qs, ["19 days", "no idea"])
    prompts = [r.messages[0].content for r in judge.requests]
    assert prompts == [
        "temporal-reasoning|Dog's name?|Biscuit|19 days|False",
        "multi-session|Dog's name?|Biscuit|no idea|True",
    ]
    assert {r["template_set"] for r in recs} == {"checkout"}
    with pytest.raises(ConfigError, match="not found; give the root of a LongMemEval checkout"):
        JudgeTemplates(checkout=tmp_path).load("longmemeval_judge")


def test_a_checkout_is_for_the_judges_that_read_one(demo_bench: Path, tmp_path: Path) -> None:
    from umb.run import score_predictions

    # mem0's judge has no checkout reader: its prompts come from a file or umb's wording.
    assert JudgeTemplates(checkout=tmp_path).load("mem0_judge") is None
    predictions = tmp_path / "p.jsonl"
    predictions.write_text('{"question_id": "q1", "prediction": "x"}\n')
    with pytest.raises(ConfigError, match="template-from is for --scorer longmemeval_judge"):
        score_predictions(demo_bench, predictions, tmp_path / "out", ["mem0_judge"],
                          judge="oracle", templates=JudgeTemplates(checkout=tmp_path))  # fmt: skip
