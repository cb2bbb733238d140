"""Prompts (order, fields, task) and the one strict JSON policy."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from _eval_cases import ABS, ALL, IE, KU

from umb import ConfigError
from umb.bench import Question
from umb.families import REQUIRED_FIELDS
from umb.run import FAMILY_INSTRUCTIONS, build_messages, build_request, prompt_sha256
from umb.scoring import parse_answer

HISTORY = "[Session 1 | 2021-03-20 18:30]\nMaya: I adopted a dog called Biscuit."


def test_every_family_has_an_instruction_with_its_required_fields() -> None:
    assert set(FAMILY_INSTRUCTIONS) == set(REQUIRED_FIELDS)
    for family, inst in FAMILY_INSTRUCTIONS.items():
        assert tuple(name for name, _ in inst.fields) == REQUIRED_FIELDS[family]
        assert set(inst.example) == set(REQUIRED_FIELDS[family])


def test_history_comes_before_the_date_question_and_instruction() -> None:
    system, user = build_messages(IE, HISTORY)
    assert system.role == "system" and "one JSON object" in system.content
    assert user.role == "user"
    text = user.content
    positions = [
        text.index(HISTORY),
        text.index("Current date: 2021-06-01 12:00 (Tuesday)"),
        text.index(f"Question: {IE.query}"),
        text.index("evidence_snippets"),
    ]
    assert positions == sorted(positions)


def test_empty_history_is_said_plainly() -> None:
    _, user = build_messages(ABS, "   ")
    assert "(no history is available)" in user.content


def test_request_task_carries_gold_only_when_asked() -> None:
    plain = build_request(KU, HISTORY, include_gold=False)
    assert plain.task == {
        "family": "KU",
        "query": KU.query,
        "asked_at": KU.asked_at,
        "context": HISTORY,
    }
    oracle = build_request(KU, HISTORY, include_gold=True)
    assert oracle.task["gold"] == KU.gold
    assert oracle.messages == plain.messages and oracle.json_mode


def test_prompt_hash_is_stable_and_sensitive() -> None:
    a = build_messages(IE, HISTORY)
    assert prompt_sha256(a) == prompt_sha256(build_messages(IE, HISTORY))
    assert prompt_sha256(a) != prompt_sha256(build_messages(IE, HISTORY + "!"))


@pytest.mark.parametrize("q", ALL, ids=lambda q: q.id)
def test_gold_of_every_family_parses_strictly(q: Question) -> None:
    result = parse_answer(json.dumps(q.gold), q.family)
    assert result.ok and result.answer == q.gold


@pytest.mark.parametrize(
    "text",
    [
        '{"answer": "Biscuit", "evidence_snippets": []}',
        '```json\n{"answer": "Biscuit", "evidence_snippets": []}\n```',
        '```\n{"answer": "Biscuit", "evidence_snippets": []}```',
        '  \n{"answer": "Biscuit", "evidence_snippets": []}\n',
    ],
)
def test_strict_accepts_one_object_with_at_most_one_fence(text: str) -> None:
    assert parse_answer(text, "IE").answer == {"answer": "Biscuit", "evidence_snippets": []}


@pytest.mark.parametrize(
    "text",
    [
        'Sure! {"answer": "Biscuit", "evidence_snippets": []}',
        '{"answer": "Biscuit", "evidence_snippets": []} Hope that helps.',
        '[{"answer": "Biscuit"}]',
        '{"answer": NaN, "evidence_snippets": []}',
        '{"answer": "Biscuit"',
        "",
        "The dog is called Biscuit.",
        '```json\n{"answer": "a"}\n```\n```json\n{"answer": "b"}\n```',
    ],
)
def test_strict_rejects_anything_else_as_invalid_json(text: str) -> None:
    result = parse_answer(text, "IE")
    assert result.error == "invalid_json" and result.invalid_json and result.answer is None


def test_lenient_cuts_the_first_balanced_object_out_of_prose() -> None:
    text = 'Here you go: {"answer": "a {b} \\"c\\"", "evidence_snippets": []} and {"x": 1}'
    result = parse_answer(text, "IE", policy="lenient")
    assert result.ok and result.extracted
    assert result.answer == {"answer": 'a {b} "c"', "evidence_snippets": []}
    assert parse_answer("no braces here", "IE", policy="lenient").invalid_json


def test_missing_fields_are_listed_and_null_counts_as_missing() -> None:
    result = parse_answer('{"days": 3, "final_answer": null}', "TR")
    assert result.error == "missing_fields" and not result.invalid_json
    assert result.missing_fields == ("final_answer", "start_date", "end_date")
    assert result.answer == {"days": 3, "final_answer": None}


def test_soft_defaults_fill_ie_evidence_and_ku_time_fields() -> None:
    ie = parse_answer('{"answer": "Biscuit"}', "IE")
    assert ie.ok and ie.answer == {"answer": "Biscuit", "evidence_snippets": []}
    assert ie.defaults_applied == ("evidence_snippets",)
    ku = parse_answer('{"latest_state": "Lisbon"}', "KU")
    assert ku.ok and ku.answer == {
        "latest_state": "Lisbon",
        "as_of_time": "",
        "deprecated_state": "",
    }
    # Each parse gets its own default list.
    other = parse_answer('{"answer": "x"}', "IE").answer
    assert ie.answer is not None and other is not None
    assert ie.answer["evidence_snippets"] is not other["evidence_snippets"]


def test_unknown_family_or_policy_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        parse_answer("{}", "XX")
    with pytest.raises(ConfigError):
        parse_answer("{}", "IE", policy="loose")  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        build_messages(replace(IE, family="XX"), "")
    with pytest.raises(ConfigError):
        build_messages(replace(IE, asked_at="yesterday"), "")
