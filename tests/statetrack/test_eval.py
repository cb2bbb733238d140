"""``run_statetrack_eval``: oracle = 1.0, the baseline's curve, resuming, outputs, API path."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from umb import ConfigError
from umb.models import ModelOptions
from umb.statetrack import (
    EvalConfig,
    Ladder,
    LadderOptions,
    build_ladder,
    parse_levels,
    run_statetrack_eval,
)
from umb.statetrack._records import CSV_COLUMNS


def run(config: EvalConfig) -> dict:
    """Evaluate without drawing (one test below checks the drawings)."""
    return run_statetrack_eval(EvalConfig(**{**config.__dict__, "report": False}))


RATES = ("parse_rate", "prompt_exact_rate", "char_exact_rate", "schema_accuracy", "schema_coverage")


def test_oracle_scores_one_at_every_level_and_task(dense_ladder: Path, tmp_path: Path):
    result = run(EvalConfig(dense_ladder, tmp_path, model="oracle"))
    rows = result["rows"]
    assert len(rows) == 7 * 4  # levels × tasks
    assert all(r[k] == 1.0 for r in rows for k in RATES), rows


def test_baseline_with_a_large_window_applies_every_rule_exactly(dense_bench: Path, tmp_path: Path):
    # Shuffled lines, relative days and distractors: the baseline reads only the prompt text,
    # so agreeing with the golds everywhere checks prompts, golds and accepted answers at once.
    opts = LadderOptions(samples=3, seed=5, order="shuffled", dates="relative", distractors=12)
    build_ladder(dense_bench, tmp_path / "ladder", opts, parse_levels("L04,L12,L20"))
    result = run(EvalConfig(tmp_path / "ladder", tmp_path / "run", baseline_window=10**6))
    assert all(r[k] == 1.0 for r in result["rows"] for k in RATES), result["rows"]


def test_baseline_curve_falls_once_facts_outgrow_its_window(dense_ladder: Path, tmp_path: Path):
    rows = run(EvalConfig(dense_ladder, tmp_path, baseline_window=600))["rows"]
    acc = {(r["level"], r["task"]): r["schema_accuracy"] for r in rows}
    for task in ("schema_longest", "latest", "value_at", "num_changes"):
        assert acc[("L01", task)] == 1.0 and acc[("L10", task)] == 1.0
        assert acc[("L20", task)] < acc[("L01", task)]
    assert acc[("L20", "schema_longest")] < 0.9


def test_rerun_resumes_and_a_cut_last_line_is_asked_again(dense_ladder: Path, tmp_path: Path):
    config = EvalConfig(dense_ladder, tmp_path, levels=parse_levels("L01-L03"), samples=2)
    first = run(config)
    assert first["asked"] == 3 * 2 * 4
    assert run(config)["asked"] == 0
    log = tmp_path / "records.jsonl"
    data = log.read_bytes()
    log.write_bytes(data[: len(data) - 40])  # a kill in the middle of the last record
    again = run(config)
    assert again["asked"] == 1

    def scores(rows: list[dict]) -> list[dict]:
        return [{k: v for k, v in r.items() if k != "avg_latency_s"} for r in rows]

    assert scores(again["rows"]) == scores(first["rows"])
    assert len(log.read_bytes().splitlines()) == 24
    more = run(EvalConfig(dense_ladder, tmp_path, levels=parse_levels("L01-L03"), samples=3))
    assert more["asked"] == 3 * 4 and {r["samples"] for r in more["rows"]} == {3}


def test_a_run_directory_belongs_to_one_model(dense_ladder: Path, tmp_path: Path):
    run(EvalConfig(dense_ladder, tmp_path, model="oracle", levels=parse_levels("L01"), samples=1))
    with pytest.raises(ConfigError, match="another model"):
        run(EvalConfig(dense_ladder, tmp_path, model="offline", levels=parse_levels("L01")))


def test_outputs_table_curves_and_page(dense_ladder: Path, tmp_path: Path):
    run_statetrack_eval(
        EvalConfig(dense_ladder, tmp_path, levels=parse_levels("L01,L02,L20"), samples=2)
    )
    with (tmp_path / "levels.csv").open() as f:
        table = list(csv.DictReader(f))
    assert tuple(table[0]) == CSV_COLUMNS and len(table) == 3 * 4
    assert (tmp_path / "curves.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "curves.svg").read_text().lstrip().startswith("<?xml")
    page = (tmp_path / "index.html").read_text()
    assert "<svg" in page and "schema_longest" in page and "src=" not in page
    record = json.loads((tmp_path / "records.jsonl").read_text().splitlines()[0])
    assert {"level", "sample_id", "task", "reply", "details", "prompt_tokens"} <= set(record)


def test_openai_backend_errors_are_recorded_then_retried(
    dense_ladder: Path, tmp_path: Path, openai_server
):
    ladder = Ladder.open(dense_ladder)
    lv = parse_levels("L02")[0]
    rules = []
    for sample in ladder.samples(lv):
        entry = sample["data"][0]  # schema_longest
        first_fact = ladder.lines(sample)[0].fact
        body = json.dumps(entry["GT"])[:-1] + ",}"  # fenced, with a trailing comma
        rules.append({"match": first_fact, "reply": f"```json\n{body}\n```"})
    openai_server.set_rules({"status": 500, "times": 1}, *rules)
    options = ModelOptions(
        base_url=openai_server.base_url, max_retries=0, api_key_env="UMB_TEST_KEY"
    )
    config = EvalConfig(
        dense_ladder, tmp_path, model="openai/test-model", levels=[lv],
        tasks=["schema_longest"], options=options,
    )  # fmt: skip
    import os

    os.environ.setdefault("UMB_TEST_KEY", "sk-test")
    first = run(config)
    (row,) = first["rows"]
    assert row["samples"] == 3 and row["call_errors"] == 1
    assert row["prompt_exact_rate"] == pytest.approx(2 / 3, abs=1e-3)
    assert run(config)["asked"] == 0
    retry = run(EvalConfig(**{**config.__dict__, "retry_errors": True}))
    assert retry["asked"] == 1
    (row,) = retry["rows"]
    assert row["call_errors"] == 0 and row["prompt_exact_rate"] == 1.0
