"""``umb validate`` fails precisely on corrupted copies of a valid benchmark."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from umb.bench import check
from umb.bench._validate import _stamp_ok, validate


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def _edit_line(path: Path, lineno: int, edit: Callable[[dict], None]) -> None:
    lines = path.read_text().splitlines()
    record = json.loads(lines[lineno - 1])
    edit(record)
    lines[lineno - 1] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")


def _first_line(path: Path, family: str) -> int:
    for i, line in enumerate(path.read_text().splitlines(), start=1):
        if json.loads(line)["family"] == family:
            return i
    raise AssertionError(family)


def test_dangling_evidence_turn(demo_bench: Path, tmp_path: Path) -> None:
    bench = _copy(demo_bench, tmp_path / "b")
    n = _first_line(bench / "questions.jsonl", "IE")
    _edit_line(
        bench / "questions.jsonl",
        n,
        lambda q: q["evidence"].__setitem__("turn_ids", ["D0001:S999:T0001"]),
    )
    problems = validate(bench)
    assert f"questions.jsonl:{n}: evidence turn id D0001:S999:T0001 does not exist" in problems
    assert "questions.jsonl: sha256 differs from the manifest (file was edited)" in problems


def test_question_leaking_its_answer(demo_bench: Path, tmp_path: Path) -> None:
    bench = _copy(demo_bench, tmp_path / "b")
    n = _first_line(bench / "questions.jsonl", "IE")
    _edit_line(
        bench / "questions.jsonl",
        n,
        lambda q: q.__setitem__("query", q["query"] + f" (hint: {q['gold']['answer']})"),
    )
    assert any(
        p.startswith(f"questions.jsonl:{n}: query leaks its answer") for p in validate(bench)
    )


def test_broken_json_line(demo_bench: Path, tmp_path: Path) -> None:
    bench = _copy(demo_bench, tmp_path / "b")
    lines = (bench / "dialogues.jsonl").read_text().splitlines()
    lines[2] = lines[2][:50]
    (bench / "dialogues.jsonl").write_text("\n".join(lines) + "\n")
    problems = validate(bench)
    assert problems[0].startswith("dialogues.jsonl:3: invalid JSON")


@pytest.mark.parametrize(
    "name", ["questions.jsonl", "dialogues.jsonl", "manifest.json", "facts.jsonl"]
)
def test_missing_file(demo_bench: Path, tmp_path: Path, name: str) -> None:
    bench = _copy(demo_bench, tmp_path / "b")
    (bench / name).unlink()
    assert validate(bench) == [f"{name}: missing file"]


def test_wrong_tr_day_count(demo_bench: Path, tmp_path: Path) -> None:
    bench = _copy(demo_bench, tmp_path / "b")
    n = _first_line(bench / "questions.jsonl", "TR")
    _edit_line(bench / "questions.jsonl", n, lambda q: q["gold"].__setitem__("days", -3))
    assert any(p.startswith(f"questions.jsonl:{n}: TR days -3") for p in validate(bench))


def test_evidence_after_asked_at(demo_bench: Path, tmp_path: Path) -> None:
    bench = _copy(demo_bench, tmp_path / "b")
    n = _first_line(bench / "questions.jsonl", "IE")
    _edit_line(
        bench / "questions.jsonl", n, lambda q: q.__setitem__("asked_at", "2019-01-01T00:00")
    )
    assert any(
        p.startswith(f"questions.jsonl:{n}: evidence turn") and "not before asked_at" in p
        for p in validate(bench)
    )


def test_ku_without_old_value_in_dialogue(demo_bench: Path, tmp_path: Path) -> None:
    bench = _copy(demo_bench, tmp_path / "b")
    n = _first_line(bench / "questions.jsonl", "KU")
    _edit_line(
        bench / "questions.jsonl",
        n,
        lambda q: q["gold"].__setitem__("deprecated_state", "a purple submarine"),
    )
    assert (
        f"questions.jsonl:{n}: KU deprecated value 'a purple submarine' is never stated in the "
        "dialogue"
    ) in validate(bench)


def test_unknown_fact_in_turn(demo_bench: Path, tmp_path: Path) -> None:
    bench = _copy(demo_bench, tmp_path / "b")

    def edit(d: dict) -> None:
        d["sessions"][0]["turns"][1]["fact_ids"] = ["nope"]

    _edit_line(bench / "dialogues.jsonl", 2, edit)
    assert any(
        p.startswith("dialogues.jsonl:2: turn") and "unknown fact id nope" in p
        for p in validate(bench)
    )


def test_hand_edited_text_only_fails_the_hash(demo_bench: Path, tmp_path: Path) -> None:
    bench = _copy(demo_bench, tmp_path / "b")
    _edit_line(
        bench / "dialogues.jsonl",
        1,
        lambda d: d["sessions"][0]["turns"][0].__setitem__("text", "edited"),
    )
    assert validate(bench) == [
        "dialogues.jsonl: sha256 differs from the manifest (file was edited)"
    ]


def test_progress_starts_before_the_facts_and_questions_are_read(demo_bench: Path) -> None:
    # A large benchmark's facts and questions take seconds: the bar must not wait for them.
    calls: list[tuple[int, int]] = []
    manifest = json.loads((demo_bench / "manifest.json").read_text())
    total = manifest["counts"]["dialogues"]
    assert not check(demo_bench, progress=lambda done, n: calls.append((done, n))).items
    assert calls[0] == (0, total)
    assert calls[1:] == [(k, total) for k in range(1, total + 1)]


@pytest.mark.parametrize(
    ("stamp", "ok"),
    [
        ("2020-02-29T10:10", True),
        ("9999-12-31T23:59", True),
        ("2021-02-29T10:10", False),
        ("2020-13-01T00:00", False),
        ("2020-01-01T24:00", False),
        ("2020-01-01T23:60", False),
        ("0000-01-01T00:00", False),
        ("2020-01-01T00:00\n", False),
        ("2020-01-01 00:00", False),
    ],
)
def test_stamp_check_keeps_its_verdicts(stamp: str, ok: bool) -> None:
    # The fast path (fromisoformat) must refuse what strptime refuses.
    assert _stamp_ok(stamp) is ok
