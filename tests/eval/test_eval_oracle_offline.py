"""The oracle and offline models: gold round trip, the reader's recipes, blindness to gold."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from _eval_cases import ABS, ALL, IE, TR_BETWEEN

from umb import ConfigError
from umb._dates import clock_minutes, resolve_date
from umb.bench import Question
from umb.families import FAMILIES, REQUIRED_FIELDS
from umb.models import GenerateRequest
from umb.models.offline import OfflineModel, read
from umb.models.oracle import OracleModel
from umb.run import build_request
from umb.scoring import parse_answer, score_reply

# Session 2 is on Saturday 2021-03-20, so "last Tuesday" is 2021-03-16 and "two days ago" 03-18.
HISTORY = """[Session 1 | 2021-03-06 10:15]
Alex: Hi, I'm Alex. Tell me a bit about yourself, Maya.
Maya: I work at Acme. I live in Porto.

[Session 2 | 2021-03-20 18:30]
Alex: Hey Maya, good to talk again. What's new since last time?
Maya: I finally adopted a dog last Tuesday, a beagle called Biscuit.
Alex: Oh wow, tell me more.
Maya: The adoption fee was $1,249. It cost a lot, honestly.
Maya: Two days ago at 9:00 am, I took Biscuit to the vet at Paws Clinic.

[Session 3 | 2021-05-02 10:00]
Maya: So I'm not at Acme anymore; I work for Northwind Labs now.
Maya: I live in Lisbon now, not Porto.
"""


def _generate(model: Any, requests: list[GenerateRequest]) -> list[Any]:
    return list(asyncio.run(model.generate(requests)))


@pytest.mark.parametrize("q", ALL, ids=lambda q: q.id)
def test_oracle_replies_gold_that_scores_one(q: Question) -> None:
    (result,) = _generate(OracleModel(), [build_request(q, HISTORY, include_gold=True)])
    assert result.error is None and json.loads(result.text) == q.gold
    assert score_reply(q, result.text)[1].value == 1.0
    assert result.input_tokens > 0 and result.output_tokens > 0


def test_oracle_without_gold_is_a_wiring_error() -> None:
    with pytest.raises(ConfigError, match="include_gold"):
        _generate(OracleModel(), [build_request(IE, HISTORY, include_gold=False)])


def _ask(q: Question, context: str = HISTORY, **task: Any) -> dict[str, Any]:
    request = build_request(q, context, include_gold=False)
    request = replace(request, task={**request.task, **task})
    (result,) = _generate(OfflineModel(), [request])
    parsed = parse_answer(result.text, q.family)
    assert parsed.ok, result.text
    assert parsed.answer is not None
    return parsed.answer


def test_offline_answers_ie_from_the_context() -> None:
    answer = _ask(IE)
    assert answer["answer"] == "Biscuit"
    assert any("Biscuit" in s for s in answer["evidence_snippets"])
    fee = replace(IE, query="How much was the adoption fee for Maya's dog?")
    assert _ask(fee)["answer"] == "$1,249"


def test_offline_resolves_relative_dates_for_days_between() -> None:
    q = replace(
        TR_BETWEEN,
        query="How many days passed between the day Maya adopted a dog and the day she took "
        "Biscuit to the vet?",
    )
    answer = _ask(q)
    assert (answer["start_date"], answer["end_date"], answer["days"]) == (
        "2021-03-16",
        "2021-03-18",
        2,
    )
    assert score_reply(q, json.dumps(answer))[1].value == 1.0


def test_offline_days_since_counts_to_the_question_date() -> None:
    q = replace(TR_BETWEEN, query="As of today, how many days ago did Maya adopt a dog?")
    answer = _ask(q)
    assert answer["start_date"] == "2021-03-16" and answer["end_date"] == "2021-06-01"
    assert answer["days"] == (date(2021, 6, 1) - date(2021, 3, 16)).days


def test_offline_says_not_mentioned_for_an_absent_topic() -> None:
    assert _ask(ABS) == {"answerable": False, "answer": "not mentioned"}
    asked = replace(ABS, query="What is the name of the dog Maya adopted?")
    assert _ask(asked) == {"answerable": True, "answer": "Biscuit"}


def test_offline_follows_a_change_for_ku() -> None:
    q = replace(ALL[5], query="Which city does Maya live in now?")
    answer = _ask(q)
    assert "Lisbon" in answer["latest_state"] and "Porto" not in answer["latest_state"]
    assert answer["as_of_time"] == "2021-05-02"


def test_offline_never_reads_the_gold() -> None:
    for q in ALL:
        clean = _ask(q)
        poisoned = _ask(q, gold={"answer": "POISON", "days": 999, "latest_state": "POISON"})
        assert clean == poisoned


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("context", ["", HISTORY, "no dates at all. just text!"])
def test_offline_always_gives_valid_json_with_the_family_fields(family: str, context: str) -> None:
    answer = read(family, "What did Maya do in 2021?", "2021-06-01T12:00", context)
    assert set(REQUIRED_FIELDS[family]) <= set(answer)
    assert parse_answer(json.dumps(answer), family).ok


def test_offline_is_deterministic_and_rejects_incomplete_tasks() -> None:
    assert _ask(IE) == _ask(IE)
    with pytest.raises(ConfigError, match="context"):
        _generate(OfflineModel(), [GenerateRequest(messages=(), task={"family": "IE"})])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I adopted a dog last Tuesday.", "2021-03-16"),
        ("Yesterday at 2:05 pm, I ran.", "2021-03-19"),
        ("Three weeks ago I moved.", "2021-02-27"),
        ("It was on March 3rd.", "2021-03-03"),
        ("On December 25th, 2020 we met.", "2020-12-25"),
        ("In May, on the 2nd of May, it rained.", "2020-05-02"),  # no year, ahead -> last year
        ("exactly one week ago", "2021-03-13"),
        ("I ran 3 marathons.", "2021-03-20"),
    ],
)
def test_time_expressions_resolve_against_the_session_date(text: str, expected: str) -> None:
    assert resolve_date(text, date(2021, 3, 20))[0].isoformat() == expected


def test_clock_times() -> None:
    assert clock_minutes("at 2:05 pm") == 14 * 60 + 5
    assert clock_minutes("at 12 am sharp") == 0
    assert clock_minutes("around 18:30") == 18 * 60 + 30
    assert clock_minutes("no time") is None


def test_demo_benchmark_oracle_is_perfect_and_offline_orders_the_systems(demo_bench: Path) -> None:
    """Oracle: 1.0 on every family. Offline: evidence-only >= full history >= nothing."""
    from umb.bench import Benchmark
    from umb.memory import render_sessions

    bench = Benchmark.open(demo_bench)
    dialogues = {d.id: d for d in bench.iter_dialogues()}
    oracle: dict[str, list[float | None]] = {}
    offline: dict[str, list[float | None]] = {"evidence": [], "full": [], "none": []}
    for q in bench.questions:
        past = [s for s in dialogues[q.dialogue_id].sessions if s.started_at < q.asked_at]
        ev = set(q.evidence.turn_ids)
        evidence = [
            replace(s, turns=tuple(t for t in s.turns if t.id in ev))
            for s in past
            if any(t.id in ev for t in s.turns)
        ]
        gold_reply = _generate(OracleModel(), [build_request(q, "", include_gold=True)])[0].text
        oracle.setdefault(q.family, []).append(score_reply(q, gold_reply)[1].value)
        for name, sessions in (("evidence", evidence), ("full", past), ("none", [])):
            answer = read(q.family, q.query, q.asked_at, render_sessions(sessions))
            offline[name].append(score_reply(q, json.dumps(answer))[1].value)
    assert set(oracle) >= {"IE", "MSR", "ES", "TR", "KU", "MA", "ABS"}
    assert all(v == 1.0 for values in oracle.values() for v in values)
    means = {k: sum(v or 0.0 for v in vs) / len(vs) for k, vs in offline.items()}
    assert means["evidence"] >= means["full"] >= means["none"]
    assert means["full"] > means["none"] + 0.2
