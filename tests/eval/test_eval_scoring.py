"""Rule scorers: the gold scores 1, wrong answers 0, partial chains 0.5, edge cases exact."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from _eval_cases import (
    ABS,
    ALL,
    ES,
    IE,
    IE_MONEY,
    KU,
    MA_FALSE,
    MA_TRUE,
    MSR,
    TR_BETWEEN,
    TR_ORDER,
    TR_SINCE,
    with_answer,
)

from umb import ConfigError
from umb.bench import Question
from umb.families import FAMILIES
from umb.scoring import SCORERS, get_scorer, normalise_tokens, score_reply


def _score(q: Question, answer: dict[str, Any] | str) -> float | None:
    text = answer if isinstance(answer, str) else json.dumps(answer)
    return score_reply(q, text)[1].value


def test_every_family_has_a_named_versioned_scorer() -> None:
    assert set(SCORERS) == set(FAMILIES)
    names = {s.name for s in SCORERS.values()}
    assert len(names) == len(FAMILIES)
    assert all(s.version for s in SCORERS.values())


def test_unknown_family_suggests_a_close_one() -> None:
    with pytest.raises(ConfigError, match="did you mean 'MSR'"):
        get_scorer("msr")


@pytest.mark.parametrize("q", ALL, ids=lambda q: q.id)
def test_the_gold_answer_scores_one(q: Question) -> None:
    parsed, score = score_reply(q, json.dumps(q.gold))
    assert parsed.ok and score.value == 1.0, score.details
    assert score.scorer == SCORERS[q.family].name


@pytest.mark.parametrize("q", ALL, ids=lambda q: q.id)
def test_invalid_json_scores_zero_and_is_flagged(q: Question) -> None:
    parsed, score = score_reply(q, "I think: " + json.dumps(q.gold))
    assert parsed.invalid_json
    assert score.value == 0.0 and score.details["invalid_json"] is True


def test_missing_fields_score_zero_and_are_listed() -> None:
    parsed, score = score_reply(TR_BETWEEN, json.dumps({"days": 2}))
    assert score.value == 0.0
    assert score.details["reason"] == "missing_fields"
    assert score.details["missing_fields"] == ["final_answer", "start_date", "end_date"]
    assert not parsed.invalid_json


@pytest.mark.parametrize(
    ("q", "answer", "expected"),
    [
        (IE, "biscuit", 1.0),
        (IE, "Her dog is called Biscuit.", 1.0),
        (IE, "Bisky", 1.0),  # alias
        (IE, "Max", 0.0),
        (IE, "", 0.0),
        # A long list of guesses does not match by containing the value somewhere.
        (
            IE,
            "Max, Rex, Luna, Bella, Charlie, Daisy, Milo, Coco, Rocky, Ruby, Oscar, Toby, Zeus, "
            "Biscuit",
            0.0,
        ),
        (IE_MONEY, "1249", 1.0),
        (IE_MONEY, "$1,249.00", 1.0),
        (IE_MONEY, "It cost 1,249 dollars.", 1.0),
        (IE_MONEY, "$1,250", 0.0),
        (IE_MONEY, "$12,490", 0.0),
    ],
)
def test_ie_value_match_with_normalisation(q: Question, answer: str, expected: float) -> None:
    assert _score(q, with_answer(q, answer=answer)) == expected


def test_normalisation_folds_dates_numbers_case_and_articles() -> None:
    assert normalise_tokens("March 3rd, 2021") == normalise_tokens("2021-03-03")
    assert normalise_tokens("3 March 2021") == normalise_tokens("2021-03-03")
    assert normalise_tokens("The Open-Air Theatre") == normalise_tokens("open air theatre")
    assert normalise_tokens("twenty-one days") == ("21", "days")
    assert normalise_tokens("Café") == ("cafe",)
    assert normalise_tokens("3 marathons") == ("3", "marathons")


def test_ie_multi_slot_needs_every_component() -> None:
    q = replace(
        IE,
        gold={"answer": "Lisbon and Porto", "evidence_snippets": []},
        answer_components=("Lisbon", "Porto"),
        meta={"kind": "slot"},
    )
    assert _score(q, with_answer(q, answer="Porto, then Lisbon")) == 1.0
    assert _score(q, with_answer(q, answer="Lisbon")) == 0.0


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"start_date": "2021-03-18", "end_date": "2021-03-16"}, 1.0),  # swapped dates
        ({"days": "2"}, 1.0),
        ({"days": 3}, 0.0),
        ({"start_date": "2021-03-15"}, 0.0),
        ({"start_date": "16 March 2021"}, 0.0),  # not ISO
        ({"days": 2.5}, 0.0),
        ({"days": True}, 0.0),
    ],
)
def test_tr_days_between(changes: dict[str, Any], expected: float) -> None:
    assert _score(TR_BETWEEN, with_answer(TR_BETWEEN, **changes)) == expected


def test_tr_days_since_needs_the_start_date_and_days() -> None:
    assert _score(TR_SINCE, with_answer(TR_SINCE, end_date="2021-06-02")) == 1.0
    assert _score(TR_SINCE, with_answer(TR_SINCE, start_date="2021-03-17")) == 0.0
    assert _score(TR_SINCE, with_answer(TR_SINCE, days=76)) == 0.0


@pytest.mark.parametrize(
    ("final", "expected"),
    [
        ("before", 1.0),
        ("It happened before the other one.", 1.0),
        ("after", 0.0),
        ("before or after, hard to say", 0.0),
        ("same time", 0.0),
    ],
)
def test_tr_same_day_order_reads_the_word(final: str, expected: float) -> None:
    assert _score(TR_ORDER, with_answer(TR_ORDER, final_answer=final)) == expected


def test_tr_has_no_raw_text_fallback() -> None:
    # The original scored this by the first number in the text; here invalid JSON is 0.
    assert _score(TR_BETWEEN, "It was 2 days, from 2021-03-16 to 2021-03-18.") == 0.0


@pytest.mark.parametrize(
    ("latest", "expected"),
    [
        ("Northwind Labs", 1.0),
        ("She works at Northwind Labs now.", 1.0),
        ("Acme", 0.0),  # the deprecated value given as latest
        ("Northwind Labs, previously Acme", 0.0),
        ("Globex", 0.0),
    ],
)
def test_ku_latest_value_and_not_a_deprecated_one(latest: str, expected: float) -> None:
    assert _score(KU, with_answer(KU, latest_state=latest)) == expected


def test_ku_old_value_inside_the_new_one_is_not_stale() -> None:
    q = replace(
        KU,
        gold={"latest_state": "Acme Labs", "as_of_time": "", "deprecated_state": "Acme"},
        meta={"kind": "attribute", "deprecated_values": ["Acme"]},
    )
    assert _score(q, with_answer(q, latest_state="Acme Labs")) == 1.0
    assert _score(q, with_answer(q, latest_state="Acme")) == 0.0


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"corrected_facts": [], "final_answer": "It was in Lisbon; $1,100."}, 1.0),
        ({"corrected_facts": ["She moved somewhere else."], "final_answer": "$1,100"}, 0.5),
        ({"premise_verdict": "correct"}, 0.0),
        ({"premise_verdict": "Incorrect."}, 1.0),
        ({"premise_verdict": "wrong"}, 0.0),
    ],
)
def test_ma_false_premise(changes: dict[str, Any], expected: float) -> None:
    assert _score(MA_FALSE, with_answer(MA_FALSE, **changes)) == expected


def test_ma_true_premise_control() -> None:
    assert _score(MA_TRUE, with_answer(MA_TRUE, premise_verdict="correct")) == 1.0
    assert _score(MA_TRUE, with_answer(MA_TRUE, premise_verdict="incorrect")) == 0.0


@pytest.mark.parametrize(
    ("chain", "expected"),
    [
        (
            [
                "Booked a Hanoi trip via a travel agency",
                "Went snorkelling",
                "The Midnight Foxes gig",
                "Formed Paper Boats",
            ],
            1.0,
        ),
        # Two steps merged into one item still count, in the order they are written.
        (
            [
                "Booked with a travel agency, then went snorkelling",
                "Saw The Midnight Foxes",
                "Started a band",
            ],
            1.0,
        ),
        (["Booked a trip to Hanoi", "Saw The Midnight Foxes"], 0.5),  # half
        (
            [
                "Started a band",
                "Saw The Midnight Foxes",
                "went snorkelling",
                "booked a trip to Hanoi",
            ],
            0.0,
        ),  # reversed: one in order
        (["Went to Hanoi"], 0.0),  # a shared key alone names no step
        ([], 0.0),
    ],
)
def test_msr_ordered_chain_recall(chain: list[str], expected: float) -> None:
    parsed, score = score_reply(MSR, json.dumps(with_answer(MSR, event_chain=chain)))
    assert score.value == expected, score.details


def test_msr_listing_everything_earns_nothing_extra() -> None:
    filler = [f"did thing {i}" for i in range(6)]
    chain = [*filler, "booked a trip to Hanoi", "snorkelling", "The Midnight Foxes", "Paper Boats"]
    _, score = score_reply(MSR, json.dumps(with_answer(MSR, event_chain=chain)))
    assert score.value == 0.0 and score.details["unmatched_items"] == 6  # v2: precision 0.4


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        (["Got a beagle", "Moved to Lisbon", "Joined Northwind Labs"], 1.0),
        (["Got a beagle", "Moved to Lisbon"], 0.5),
        (["Moved to Lisbon", "Got Biscuit"], 0.0),  # two found, one in order: 1/3 < half
        (["Joined Northwind Labs"], 0.0),
    ],
)
def test_es_turning_point_recall(points: list[str], expected: float) -> None:
    assert _score(ES, with_answer(ES, key_turning_points=points)) == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ({"answerable": False, "answer": "no idea"}, 1.0),
        ({"answerable": "false", "answer": ""}, 1.0),
        ({"answerable": True, "answer": "That was never mentioned."}, 1.0),
        ({"answerable": True, "answer": "The history does not say."}, 1.0),
        ({"answerable": True, "answer": "Whiskers"}, 0.0),
    ],
)
def test_abs_abstains(answer: dict[str, Any], expected: float) -> None:
    assert _score(ABS, answer) == expected
