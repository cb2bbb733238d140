"""Importing LongMemEval files (synthetic, in the release's schema): variants, abstention,
``has_answer`` evidence, retrieval gold, oracle ordering, pitfalls; native export round trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from umb.bench import Benchmark
from umb.interop import export_longmemeval, import_longmemeval
from umb.interop.longmemeval._import import detect_variant

from .conftest import lme_instance


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("longmemeval_s.json", ("s", False)),
        ("longmemeval_m.json", ("m", False)),
        ("longmemeval_oracle.json", ("oracle", False)),
        ("longmemeval_s_cleaned.json", ("s", True)),
        ("longmemeval_m_cleaned.json", ("m", True)),
        ("my_copy.json", ("unknown", False)),
    ],
)
def test_file_variants(name: str, expected: tuple[str, bool]) -> None:
    assert detect_variant(name) == expected


def _write(tmp_path: Path, name: str, data: object) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def _instances() -> list[dict]:
    assistant = lme_instance("a1b2", "single-session-assistant", "Keep them short.")
    for turn in assistant["haystack_sessions"][1]:
        turn["has_answer"] = turn["content"].startswith("Keep")
    return [
        lme_instance("e47becba", "single-session-user", "Biscuit"),
        lme_instance(
            "e47becba_abs",
            "single-session-user",
            "You never mentioned a cat; you mentioned a dog named Biscuit.",
        ),
        lme_instance("ku01", "knowledge-update", 3),
        lme_instance("tr01", "temporal-reasoning", "9 days"),
        lme_instance("ms01", "multi-session", "2"),
        lme_instance("pref01", "single-session-preference", "The user would like beagle tips."),
        assistant,
    ]


def test_import_s_file(tmp_path: Path) -> None:
    m = import_longmemeval(
        _write(tmp_path, "longmemeval_s_cleaned.json", _instances()), tmp_path / "b"
    )
    assert m["source"]["variant"] == "s" and m["source"]["cleaned"] is True
    assert m["abstention_questions"] == 1
    assert m["import_warning_counts"] == {"answer_not_string": 1}
    b = Benchmark.open(tmp_path / "b")
    qs = {q.id: q for q in b.questions}
    assert [q.family for q in b.questions] == ["IE", "ABS", "KU", "TR", "MSR", "IE", "IE"]
    q = qs["e47becba"]
    assert q.asked_at == "2023-05-30T23:40"
    assert q.evidence.turn_ids == ("e47becba:answer_e47becba_1_1",)
    assert q.evidence.session_ids == ("e47becba:answer_e47becba_1",)
    assert q.gold["evidence_snippets"] == ["I just adopted a beagle named Biscuit!"]
    assert q.meta["retrieval_gold"] == {
        "turn": ["e47becba:answer_e47becba_1_1"],
        "session": ["e47becba:answer_e47becba_1"],
    }
    assert qs["e47becba_abs"].gold == {"answerable": False, "answer": "not mentioned"}
    assert qs["e47becba_abs"].meta["native_category"] == "single-session-user"
    assert qs["ku01"].gold["latest_state"] == "3" and qs["ku01"].meta["native_answer"] == 3
    assert qs["pref01"].meta["answer_is_rubric"] is True
    # Evidence said by the assistant only: the turn is evidence, but not retrieval gold.
    assert qs["a1b2"].evidence.turn_ids == ("a1b2:answer_a1b2_1_4",)
    assert qs["a1b2"].meta["retrieval_gold"] == {"turn": [], "session": []}
    d = next(b.iter_dialogues())
    assert d.id == "e47becba" and [s.id for s in d.sessions] == [
        "e47becba:sharegpt_yywfgrD_0",
        "e47becba:answer_e47becba_1",
        "e47becba:ultrachat_42",
    ]
    assert d.sessions[0].started_at == "2023-05-20T10:00"
    assert [t.role for t in d.sessions[1].turns] == ["user", "assistant", "user", "assistant"]
    out = tmp_path / "back.json"
    assert export_longmemeval(tmp_path / "b", out).entries == []
    assert json.loads(out.read_text()) == _instances()


def test_oracle_sessions_are_sorted_and_restored(tmp_path: Path) -> None:
    inst = lme_instance("o1", "single-session-user", "Biscuit")
    for key in ("haystack_session_ids", "haystack_dates", "haystack_sessions"):
        inst[key] = inst[key][::-1]
    path = _write(tmp_path, "longmemeval_oracle.json", [inst])
    import_longmemeval(path, tmp_path / "b")
    b = Benchmark.open(tmp_path / "b")
    starts = [s.started_at for s in next(b.iter_dialogues()).sessions]
    assert starts == sorted(starts)
    assert b.questions[0].meta["native_session_order"] == inst["haystack_session_ids"]
    out = tmp_path / "back.json"
    export_longmemeval(tmp_path / "b", out)
    assert json.loads(out.read_text()) == [inst]


def test_pitfalls_are_logged(tmp_path: Path) -> None:
    broken = lme_instance(
        "bad1", "mystery-type", "x", question_date="someday", answer_session_ids=["answer_gone"]
    )
    broken["haystack_dates"] = broken["haystack_dates"][:2]
    broken["haystack_sessions"][0][0]["role"] = "system"
    broken["haystack_sessions"][0][1]["content"] = None
    dup = lme_instance("dup", "multi-session", "y")
    dup["haystack_session_ids"][2] = dup["haystack_session_ids"][0]
    data = [broken, dup, dup, "junk", {"question_id": "noq"}]
    m = import_longmemeval(_write(tmp_path, "lme.json", data), tmp_path / "b")
    counts = m["import_warning_counts"]
    for code in (
        "question_type_unknown",
        "question_date_unparsed",
        "answer_session_missing",
        "haystack_length_mismatch",
        "turn_role_unknown",
        "turn_text_not_string",
        "session_id_duplicate",
        "question_id_duplicate",
        "instance_malformed",
        "question_malformed",
        "file_variant_unknown",
    ):
        assert counts.get(code), code
    assert m["counts"]["questions"] == 3
