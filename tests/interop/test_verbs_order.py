"""The interop verbs take the source first, then its format, then the destination; one scorer
name is one scorer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import umb


def test_import_and_export_take_source_format_destination(umb_bench: Path, tmp_path: Path) -> None:
    umb.export_benchmark(umb_bench, "locomo", tmp_path / "locomo.json")
    back = umb.import_benchmark(tmp_path / "locomo.json", "locomo", tmp_path / "back")
    assert len(back.questions) == len(umb.load_benchmark(umb_bench).questions)


def test_the_old_import_order_is_named(umb_bench: Path, tmp_path: Path) -> None:
    umb.export_benchmark(umb_bench, "locomo", tmp_path / "locomo.json")
    with pytest.raises(umb.ConfigError, match=r"takes \(path, fmt, out\) now"):
        umb.import_benchmark("locomo", tmp_path / "locomo.json", tmp_path / "back")
    assert not (tmp_path / "back").exists()


def test_one_scorer_name_is_one_scorer(umb_bench: Path, tmp_path: Path) -> None:
    preds = tmp_path / "answers.jsonl"
    questions = umb.load_benchmark(umb_bench).questions
    preds.write_text("".join(json.dumps({"question_id": q.id, "answer": "x"}) + "\n"
                             for q in questions))  # fmt: skip
    outcome = umb.score(umb_bench, preds, tmp_path / "run", "locomo_f1", report=False)
    (group,) = outcome.results["groups"]
    assert set(group["scores"]) == {"locomo_f1"}
