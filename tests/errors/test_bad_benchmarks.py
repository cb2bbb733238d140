# ruff: noqa: E501
"""Broken benchmarks: ``umb validate`` lists each problem as ``file:line: reason`` and exits 2;
``umb eval`` refuses the same benchmark with one line before writing any record."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from _umbcli import copy_bench, edit_line, lines, one_error_line, umb, write_lines

Q, D, M, W = "questions.jsonl", "dialogues.jsonl", "manifest.json", "world.json"


def _manifest(root: Path, change: Callable[[dict], object]) -> None:
    data = json.loads((root / M).read_text())
    change(data)
    (root / M).write_text(json.dumps(data))


def _dialogue(root: Path, change: Callable[[dict], None], index: int = 0) -> None:
    records = lines(root / D)
    change(records[index])
    write_lines(root / D, records)


def _dup_question(root: Path) -> None:
    records = lines(root / Q)
    records[1]["id"] = records[0]["id"]
    write_lines(root / Q, records)


def _dup_dialogue(root: Path) -> None:
    records = lines(root / D)
    records[1]["id"] = records[0]["id"]
    write_lines(root / D, records)


def _two_user_turns(d: dict) -> None:
    turns = d["sessions"][0]["turns"]
    turns[1]["role"] = turns[0]["role"]


def _set_session(d: dict, **fields: object) -> None:
    d["sessions"][0].update(fields)


DEEP = "[" * 100_000 + "]" * 100_000


def _nest(path: Path, index: int, field: str | None, text: str) -> None:
    """Set ``field`` of record ``index`` to the JSON text ``text`` (no field: the whole line)."""
    rows = path.read_text().splitlines()
    if field is None:
        rows[index] = text
    else:
        rows[index] = json.dumps({**json.loads(rows[index]), field: "@@"}).replace('"@@"', text)
    path.write_text("\n".join(rows) + "\n")


CASES: dict[str, tuple[Callable[[Path], object], str]] = {
    "null query": (lambda r: edit_line(r / Q, 0, query=None), "questions.jsonl:1: query: expected str, got null"),
    "gold a list": (lambda r: edit_line(r / Q, 0, gold=[]), "questions.jsonl:1: gold: expected object, got array"),
    "evidence a string": (lambda r: edit_line(r / Q, 2, evidence="T1"), "questions.jsonl:3: evidence: expected object, got str"),
    "answer_components a string": (lambda r: edit_line(r / Q, 0, answer_components="x"), "questions.jsonl:1: answer_components: expected array, got str"),
    "asked_at a number": (lambda r: edit_line(r / Q, 0, asked_at=5), "questions.jsonl:1: asked_at: expected str, got int"),
    "asked_at not a time": (lambda r: edit_line(r / Q, 0, asked_at="2025-13-45T99:99"), "questions.jsonl:1: asked_at: bad time '2025-13-45T99:99'"),
    "unknown family": (lambda r: edit_line(r / Q, 0, family="XX"), "questions.jsonl:1: family: unknown family 'XX'"),
    "unknown dialogue": (lambda r: edit_line(r / Q, 0, dialogue_id="D9999"), "questions.jsonl:1: dialogue_id: unknown dialogue id D9999"),
    "duplicate question id": (_dup_question, "questions.jsonl:2: duplicate question id"),
    "duplicate dialogue id": (_dup_dialogue, "dialogues.jsonl:2: duplicate dialogue id"),
    "started_at a number": (lambda r: _dialogue(r, lambda d: _set_session(d, started_at=5)), "dialogues.jsonl:1: sessions[0].started_at: expected str, got int"),
    "session null": (lambda r: _dialogue(r, lambda d: d["sessions"].__setitem__(0, None)), "dialogues.jsonl:1: sessions[0]: expected object, got null"),
    "two user turns in a row": (lambda r: _dialogue(r, _two_user_turns), "in a row (speakers alternate)"),
    "manifest a list": (lambda r: (r / M).write_text("[]"), "manifest.json: expected object, got array"),
    "manifest files entry a string": (lambda r: _manifest(r, lambda m: m["files"].__setitem__(Q, "x")), "manifest.json: files[...]: expected object, got str"),
    "manifest without files": (lambda r: _manifest(r, lambda m: m.pop("files")), "manifest.json: object missing required field files"),
    "format_version 99": (lambda r: _manifest(r, lambda m: m.__setitem__("format_version", 99)), "manifest.json: format_version: 99 is not supported"),
    "format not-umb": (lambda r: _manifest(r, lambda m: m.__setitem__("format", "not-umb")), "manifest.json: format: 'not-umb' is not 'umb-benchmark'"),
    "world a list": (lambda r: (r / W).write_text("[]"), "world.json: expected object, got array"),
    "questions empty": (lambda r: (r / Q).write_text(""), "questions.jsonl: empty file; the manifest expects "),  # count: see test_an_empty_file_is_the_one_problem_named
    "dialogues empty": (lambda r: (r / D).write_text("\n"), "dialogues.jsonl: empty file; the manifest expects 10 dialogues"),
    "gold nested 100,000 deep": (lambda r: _nest(r / Q, 1, "gold", f'{{"answer": {DEEP}}}'), "questions.jsonl:2: nested too deeply (limit 128)"),
    "meta nested 129 deep": (lambda r: _nest(r / Q, 0, "meta", "[" * 129 + "]" * 129), "questions.jsonl:1: nested too deeply (limit 128)"),
    "a line of 100,000 arrays": (lambda r: _nest(r / Q, 2, None, DEEP), "questions.jsonl:3: nested too deeply (limit 128)"),
    "unknown dialogue field nested 100,000 deep": (lambda r: _nest(r / D, 0, "junk", DEEP), "dialogues.jsonl:1: nested too deeply (limit 128)"),
    "world nested 100,000 deep": (lambda r: (r / W).write_text(f'{{"events": {DEEP}}}'), "world.json:1: nested too deeply (limit 128)"),
    "gold edited, manifest not": (lambda r: edit_line(r / Q, 0, gold={**lines(r / Q)[0]["gold"], "answer": "Edited"}), "questions.jsonl: sha256 differs from the manifest"),
    "questions a directory": (lambda r: ((r / Q).unlink(), (r / Q).mkdir()), "questions.jsonl: is a directory, not a file"),
    "JSON syntax error": (lambda r: (r / Q).write_text((r / Q).read_text().replace("}\n", "}\n{oops\n", 1)), "questions.jsonl:2: invalid JSON at column 2"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(CASES))
def test_broken_benchmark_is_refused_by_validate_and_eval(
    case: str, demo_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = copy_bench(demo_bench, tmp_path / "bench")
    mutate, expected = CASES[case]
    mutate(bench)
    code, _, err = umb(capsys, "validate", bench)
    assert code == 2 and "Traceback" not in err, err
    *problems, verdict = err.strip().splitlines()
    assert verdict.endswith(f"INVALID ({len(problems)} problem(s) shown)")
    assert any(expected in p for p in problems), err
    for p in problems:
        assert re.match(r"^(warning: )?[\w.]+(:\d+)?: \S", p), p
    code, _, err = umb(capsys, "eval", "--bench", bench, "--out", tmp_path / "run",
                       "--system", "no_context", "--limit", "3", "--no-progress")  # fmt: skip
    assert code == 2
    line = one_error_line(err)
    assert "not a valid benchmark" in line and str(bench) in line, line
    assert not (tmp_path / "run" / "records.jsonl").exists()


def test_a_duplicate_is_named_once(
    demo_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = copy_bench(demo_bench, tmp_path / "bench")
    _dup_dialogue(bench)
    _, _, err = umb(capsys, "validate", bench)
    problems = err.strip().splitlines()[:-1]
    assert sum("duplicate dialogue id" in p for p in problems) == 1, err
    assert not any("evidence turn id" in p for p in problems), err


def test_resume_refuses_a_benchmark_edited_since(
    demo_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = copy_bench(demo_bench, tmp_path / "bench")
    args = ("eval", "--bench", bench, "--out", tmp_path / "run", "--system", "no_context",
            "--limit", "3", "--no-progress")  # fmt: skip
    assert umb(capsys, *args)[0] == 0
    assert (tmp_path / "run" / "bench-check.json").exists()
    assert umb(capsys, *args)[0] == 0  # unchanged files: the cached verdict
    gold = lines(bench / Q)[0]["gold"]
    edit_line(bench / Q, 0, gold={**gold, "answer": "Edited"})
    code, _, err = umb(capsys, *args)
    assert code == 2
    assert "questions.jsonl: sha256 differs from the manifest" in one_error_line(err)
    assert len(lines(tmp_path / "run" / "records.jsonl")) == 3  # nothing lost


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file(
    demo_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = copy_bench(demo_bench, tmp_path / "bench")
    (bench / Q).chmod(0)
    code, _, err = umb(capsys, "validate", bench)
    assert code == 2 and "questions.jsonl: Permission denied" in err
    code, _, err = umb(capsys, "stats", bench)
    assert code == 2 and "Permission denied" in one_error_line(err)


def test_stats_on_a_directory_for_a_file(
    demo_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = copy_bench(demo_bench, tmp_path / "bench")
    (bench / Q).unlink()
    (bench / Q).mkdir()
    code, _, err = umb(capsys, "stats", bench)
    assert code == 2
    assert "questions.jsonl: is a directory, not a file" in one_error_line(err)


@pytest.mark.parametrize(("name", "key"), [(Q, "questions"), (D, "dialogues")])
def test_an_empty_file_is_the_one_problem_named(
    name: str, key: str, demo_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = copy_bench(demo_bench, tmp_path / "bench")
    expects = f"{json.loads((bench / M).read_text())['counts'][key]:,} {key}"
    (bench / name).write_text("")
    code, _, err = umb(capsys, "validate", bench)
    assert code == 2
    assert err.strip().splitlines()[0] == f"{name}: empty file; the manifest expects {expects}"
    assert err.strip().splitlines()[1:] == [f"{bench}: INVALID (1 problem(s) shown)"], err


def _without_world(bench: Path, **manifest: object) -> None:
    (bench / W).unlink()
    _manifest(bench, lambda m: (m["files"].pop(W), m.update(manifest)))


def test_a_generated_benchmark_without_its_world(
    demo_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = copy_bench(demo_bench, tmp_path / "bench")
    _without_world(bench)
    code, _, err = umb(capsys, "validate", bench)
    assert code == 2
    assert err.strip().splitlines() == [
        "world.json: missing file; a generated benchmark needs its world (memory metrics and "
        "the audit read it)",
        f"{bench}: INVALID (1 problem(s) shown)",
    ]
    # eval goes on without it, and says what it leaves out
    code, out, err = umb(capsys, "eval", "--bench", bench, "--out", tmp_path / "run",
                         "--system", "mem0_style", "--limit", "3", "--no-progress")  # fmt: skip
    assert code == 0, err
    assert err.strip().splitlines() == [
        "umb: note: memory metrics and audit skipped: no world.json"
    ]
    metrics = json.loads((tmp_path / "run" / "memory_metrics.json").read_text())
    assert metrics["systems"] == {} and metrics["skipped"] == {"mem0_style": "no world.json"}


def test_an_imported_benchmark_says_it_has_no_world(
    demo_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = copy_bench(demo_bench, tmp_path / "bench")
    _without_world(bench, source={"format": "locomo", "file": "locomo10.json"})
    code, out, err = umb(capsys, "validate", bench)
    assert code == 0, err
    assert err.strip().splitlines() == [
        "note: world.json: none: an imported peer benchmark has no world; memory metrics and "
        "the audit do not apply"
    ]
    code, out, err = umb(capsys, "eval", "--bench", bench, "--out", tmp_path / "run",
                         "--system", "no_context", "--limit", "3", "--no-progress")  # fmt: skip
    assert code == 0, err
    assert (
        "umb: note: memory metrics and audit skipped: an imported peer benchmark has no world"
        in err
    )
