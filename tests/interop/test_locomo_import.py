"""Importing LoCoMo: counts, id mapping, gold and every loader pitfall of the real file."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from umb import DataError
from umb._dates import format_locomo_datetime, parse_locomo_datetime
from umb.bench import Benchmark
from umb.interop import convert_locomo


def test_counts_match_the_release(locomo_bench: Path) -> None:
    b = Benchmark.open(locomo_bench)
    dialogues = list(b.iter_dialogues())
    assert [d.id for d in dialogues] == [
        "conv-26",
        "conv-30",
        "conv-41",
        "conv-42",
        "conv-43",
        "conv-44",
        "conv-47",
        "conv-48",
        "conv-49",
        "conv-50",
    ]
    assert sum(len(d.sessions) for d in dialogues) == 272
    assert sum(len(d.turns()) for d in dialogues) == 5882
    assert len(b.questions) == 1986
    cats = Counter(q.meta["native_category"] for q in b.questions)
    assert cats == {1: 282, 2: 321, 3: 96, 4: 841, 5: 446}
    per_conv = Counter(q.dialogue_id for q in b.questions)
    assert [per_conv[d.id] for d in dialogues] == [199, 105, 193, 260, 242, 158, 190, 239, 196, 204]
    assert Counter(q.family for q in b.questions) == {"IE": 937, "ABS": 446, "TR": 321, "MSR": 282}
    m = b.manifest
    assert m["counts"]["turns"] == 5882
    assert m["native_category_counts"] == {"1": 282, "2": 321, "3": 96, "4": 841, "5": 446}
    assert m["source"]["unmodified_release"] is True
    assert m["source"]["file"] == "locomo10.json"
    assert m["has_turn_evidence"] is True


def test_pitfalls_are_logged_not_fatal(locomo_bench: Path) -> None:
    m = Benchmark.open(locomo_bench).manifest
    counts = m["import_warning_counts"]
    assert counts["date_key_without_session"] == 16
    assert counts["answer_not_string"] == 6
    assert counts["answer_with_explanation"] == 11
    assert counts["evidence_malformed"] == 6
    assert counts["evidence_empty"] == 4
    assert counts["evidence_unknown_id"] == 3
    assert counts["adversarial_answer_only"] == 444
    assert counts["adversarial_with_answer"] == 2
    assert counts["image_turn_caption"] == 1226
    assert counts["caption_without_img_url"] == 1226 - 910
    assert sum(1 for e in m["import_warnings"] if e["where"].startswith("conv-26 session_")) == 16


def _q(b: Benchmark, sid: str, k: int) -> Any:
    return next(q for q in b.questions if q.meta["native_id"] == f"{sid}#{k}")


def test_malformed_evidence_is_repaired(locomo_bench: Path) -> None:
    b = Benchmark.open(locomo_bench)
    q = _q(b, "conv-26", 37)
    assert q.meta["native_evidence"] == ["D8:6; D9:17"]
    assert q.evidence.turn_ids == ("conv-26:D8:6", "conv-26:D9:17")
    assert q.evidence.session_ids == ("conv-26:S8", "conv-26:S9")
    assert "conv-43:D11:26" in _q(b, "conv-43", 18).evidence.turn_ids
    assert _q(b, "conv-50", 69).evidence.turn_ids == ("conv-50:D30:5",)
    bare_d = _q(b, "conv-42", 88)
    assert "D" in bare_d.meta["native_evidence"]
    assert len(bare_d.evidence.turn_ids) == len(bare_d.meta["native_evidence"]) - 1
    assert _q(b, "conv-26", 30).evidence.turn_ids == ()


def test_ids_gold_and_meta(locomo_bench: Path) -> None:
    b = Benchmark.open(locomo_bench)
    first = next(b.iter_dialogues())
    s1 = first.sessions[0]
    assert (s1.id, s1.started_at) == ("conv-26:S1", "2023-05-08T13:56")
    assert s1.turns[0].id == "conv-26:D1:1" and s1.turns[0].role == "user"
    assert s1.turns[1].role == "assistant" and s1.turns[1].speaker == "Melanie"
    assert s1.turns[4].text.endswith(
        " and shared a photo of a dog walking past a wall with a painting of a woman."
    )
    q = _q(b, "conv-26", 0)
    assert q.id == "Q-conv-26-0001" and q.family == "TR"
    assert q.gold["final_answer"] == "7 May 2023"
    assert q.asked_at == "2023-10-23T09:55"  # a day after the last real session (session 19)
    int_answer = _q(b, "conv-26", 1)
    assert int_answer.meta["native_answer"] == 2022 and int_answer.gold["final_answer"] == "2022"
    od = next(
        q
        for q in b.questions
        if q.meta["native_category"] == 3 and ";" in str(q.meta["native_answer"])
    )
    assert od.family == "IE" and ";" in od.gold["answer"] and ";" not in od.answer_components[0]
    mh = next(q for q in b.questions if q.meta["native_category"] == 1)
    assert mh.family == "MSR" and mh.meta["mem0_paper_label"] == "single-hop"
    assert mh.gold["event_chain"] and mh.gold["final_outcome"] == mh.meta["native_answer"]
    adv = next(q for q in b.questions if q.meta["native_category"] == 5)
    assert adv.gold == {"answerable": False, "answer": "not mentioned"}
    assert "native_answer" not in adv.meta and adv.meta["adversarial_answer"]
    assert {q.meta["mem0_paper_label"] for q in b.questions if q.meta["native_category"] == 4} == {
        "open-domain"
    }


def test_dates_round_trip_and_reject_garbage() -> None:
    assert parse_locomo_datetime("12:09 am on 13 September, 2023") == "2023-09-13T00:09"
    assert parse_locomo_datetime("12:30 pm on 1 Jan, 2024") == "2024-01-01T12:30"
    assert parse_locomo_datetime("13:00 pm on 1 May, 2023") is None
    assert parse_locomo_datetime("yesterday") is None
    assert format_locomo_datetime("2023-05-08T13:56") == "1:56 pm on 8 May, 2023"
    assert format_locomo_datetime("2023-09-13T00:09") == "12:09 am on 13 September, 2023"


def test_broken_synthetic_sample_is_logged() -> None:
    data = [
        {
            "sample_id": "x",
            "conversation": {
                "speaker_a": "A",
                "speaker_b": "B",
                "session_1_date_time": "not a date",
                "session_1": [
                    {"speaker": "A", "dia_id": "D1:1", "text": "hi"},
                    {"speaker": "C", "dia_id": "D1:1", "text": 5},
                    "junk",
                ],
                "session_3": [{"speaker": "B", "dia_id": "D3:1", "text": "bye"}],
                "session_3_date_time": "9:00 am on 2 May, 2023",
            },
            "qa": [
                {"question": "q?", "answer": "a", "evidence": "D1:1", "category": 9},
                {"question": "q2?", "evidence": ["(D3:1)"], "category": 4},
                {"answer": "no question"},
            ],
        },
        "not a sample",
    ]
    r = convert_locomo(data)
    codes = r.log.counts()
    for code in (
        "session_date_unparsed",
        "turn_id_invalid",
        "speaker_unknown",
        "turn_text_not_string",
        "turn_malformed",
        "sessions_not_contiguous",
        "category_unknown",
        "evidence_malformed",
        "answer_missing",
        "question_malformed",
        "sample_malformed",
    ):
        assert codes.get(code), code
    assert [q.evidence.turn_ids for q in r.questions] == [("x:D1:1",), ("x:D3:1",)]
    assert r.dialogues[0].sessions[0].turns[1].id == "x:D1:2"


def test_not_a_list_is_a_data_error() -> None:
    with pytest.raises(DataError):
        convert_locomo({"qa": []})


@pytest.mark.parametrize("evidence", [None, 3, "E001", ["E001"]])
def test_an_unusable_umb_extension_is_logged_and_ignored(evidence: object) -> None:
    """``umb_question`` (written by our own export) with a broken ``evidence`` falls back to the
    native fields rather than failing the import."""
    ext = {"id": "Q-1", "family": "IE", "asked_at": "2023-05-09T09:00", "gold": {"answer": "a"}}
    data = [
        {
            "sample_id": "x",
            "conversation": {
                "speaker_a": "A",
                "speaker_b": "B",
                "session_1_date_time": "9:00 am on 2 May, 2023",
                "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "hi"}],
            },
            "qa": [
                {"question": "q?", "answer": "a", "evidence": ["D1:1"], "category": 4,
                 "umb_question": {**ext, "evidence": evidence}},
            ],
        }
    ]
    r = convert_locomo(data)
    (q,) = r.questions
    assert q.evidence.turn_ids == ("x:D1:1",)
    assert r.log.counts().get("umb_extension_mismatch") == 1
    assert q.id == "Q-x-0001"
