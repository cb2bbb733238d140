"""Retention matrices, rates, flags and intervals on records with known answers."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from umb.parametric import RetentionConfig, retention, write_retention
from umb.parametric._plots import heatmaps
from umb.parametric._tables import OVERALL_COLUMNS, RATE_COLUMNS, TASKWISE_COLUMNS

ORIGINAL_OVERALL = [
    "model_name", "checkpoint_stage", "eval_stage", "stage_relation", "overall_score",
    "num_examples", "invalid_json_count", "invalid_json_rate", "split_type", "source_file",
]  # fmt: skip
ORIGINAL_TASKWISE = [
    "model_name", "checkpoint_stage", "eval_stage", "task_type", "task_name_long", "task_score",
    "num_examples", "invalid_json_count", "invalid_json_rate", "split_type",
]  # fmt: skip
ORIGINAL_RATE = [
    "model", "checkpoint_stage", "mean_retention_rate", "std_retention_rate", "num_old_stages",
    "num_valid_old_stages",
]  # fmt: skip


def _records(values: dict[tuple[str, int, int], dict[str, list[float]]]) -> list[dict[str, Any]]:
    out = []
    for (split, c, s), by_family in values.items():
        for family, scores in by_family.items():
            for k, v in enumerate(scores):
                record = {"checkpoint_stage": c, "eval_stage": s, "split": split}
                record |= {"item_id": f"S{s}::{family}::{k}", "family": family}
                out.append(
                    {**record, "ll_score": v, "gen_score": round(v), "invalid_json": v < 0.2}
                )
    return out


# seen: three IE items and one TR item per stage, so sample-weighted != task-balanced
RECORDS = _records(
    {
        ("seen", 0, 1): {"IE": [0.0, 0.0, 0.0], "TR": [0.0]},
        ("seen", 0, 2): {"IE": [0.0, 0.0, 0.0], "TR": [0.0]},
        ("seen", 1, 1): {"IE": [1.0, 1.0, 1.0], "TR": [0.5]},
        ("seen", 2, 1): {"IE": [0.5, 0.5, 0.5], "TR": [0.25]},
        ("seen", 2, 2): {"IE": [1.0, 1.0, 1.0], "TR": [1.0]},
        ("held_out", 1, 1): {"IE": [0.01, 0.02, 0.0], "TR": [0.01]},
        ("held_out", 2, 1): {"IE": [0.3, 0.3, 0.3], "TR": [0.3]},
        ("held_out", 2, 2): {"IE": [0.4, 0.4, 0.4], "TR": [0.4]},
    }
)


def test_matrix_rates_and_flags() -> None:
    out = retention(RECORDS, 2, RetentionConfig(resamples=300))
    seen = out["loglik"]["seen"]
    assert seen.matrix[1, 0] == pytest.approx(0.75)  # mean of family means (1.0, 0.5)
    assert seen.matrix[2, 0] == pytest.approx(0.375)
    assert seen.matrix[0, 0] == 0.0 and np.isnan(seen.matrix[1, 1])
    assert seen.rates[2, 0] == pytest.approx(0.5)
    # Items within a family agree, so every paired resample gives exactly the same ratio.
    assert seen.rate_ci[2, 0] == pytest.approx([0.5, 0.5])
    assert seen.mean_rates[2]["mean_retention_rate"] == pytest.approx(0.5)
    cell = next(c for c in seen.cells if (c["checkpoint_stage"], c["eval_stage"]) == (1, 1))
    assert cell["sample_weighted_score"] == pytest.approx(3.5 / 4)
    assert cell["stage_relation"] == "current" and cell["num_examples"] == 4
    held = out["loglik"]["held_out"]
    assert held.flags[(2, 1)] == "baseline_too_small" and np.isnan(held.rates[2, 0])
    assert held.mean_rates[2]["num_valid_old_stages"] == 0
    assert held.mean_rates[2]["mean_retention_rate"] is None
    assert set(out) == {"loglik", "generation"}


def test_bootstrap_interval_brackets_the_estimate() -> None:
    rng = np.random.default_rng(1)

    def draw(lo: float, hi: float) -> dict[str, list[float]]:
        return {
            "IE": list(rng.uniform(lo, hi, 30)),
            "TR": list(rng.uniform(lo - 0.1, hi - 0.1, 20)),
        }

    noisy = _records(
        {
            ("seen", 1, 1): draw(0.6, 1.0),
            ("seen", 2, 1): draw(0.1, 0.6),
            ("seen", 2, 2): draw(0.6, 1.0),
        }
    )
    a = retention(noisy, 2, RetentionConfig(resamples=500, seed=7))["loglik"]["seen"]
    b = retention(noisy, 2, RetentionConfig(resamples=500, seed=7))["loglik"]["seen"]
    lo, hi = a.ci[2, 0]
    assert lo < a.matrix[2, 0] < hi
    rlo, rhi = a.rate_ci[2, 0]
    assert rlo < a.rates[2, 0] < rhi and rhi - rlo < 0.5
    assert np.array_equal(a.rate_ci, b.rate_ci, equal_nan=True)  # seeded


def _read_csv(path: Path) -> list[dict[str, str]]:
    with path.open() as f:
        return list(csv.DictReader(f))


def test_write_retention_outputs(tmp_path: Path) -> None:
    run = tmp_path / "run"
    (run / "eval").mkdir(parents=True)
    header = {"format": "umb-parametric-run", "stages": 2, "model_label": "toy", "project": ""}
    (run / "run.json").write_text(json.dumps(header))
    # One metric keeps the figure count (and the test's time) down.
    records = [{k: v for k, v in r.items() if k != "gen_score"} for r in RECORDS]
    (run / "eval" / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    summary = write_retention(run, config=RetentionConfig(resamples=100))
    root = run / "retention"
    overall = root / "loglik" / "retention_overall_matrix_long.csv"
    with overall.open() as f:
        columns = next(csv.reader(f))
    assert columns[: len(ORIGINAL_OVERALL)] == ORIGINAL_OVERALL and columns == list(OVERALL_COLUMNS)
    with (root / "loglik" / "retention_taskwise_matrix_long.csv").open() as f:
        assert next(csv.reader(f))[: len(ORIGINAL_TASKWISE)] == ORIGINAL_TASKWISE
    with (root / "loglik" / "retention_rate_overall_by_model.csv").open() as f:
        assert next(csv.reader(f))[: len(ORIGINAL_RATE)] == ORIGINAL_RATE
    assert (
        list(TASKWISE_COLUMNS)[:10] == ORIGINAL_TASKWISE and list(RATE_COLUMNS)[:6] == ORIGINAL_RATE
    )
    rows = _read_csv(overall)
    row = next(r for r in rows if r["split_type"] == "supervised_character"
               and r["checkpoint_stage"] == "2" and r["eval_stage"] == "1")  # fmt: skip
    assert float(row["overall_score"]) == pytest.approx(0.375)
    assert row["stage_relation"] == "old" and float(row["retention_rate"]) == pytest.approx(0.5)
    assert row["model_name"] == "toy" and row["source_file"] == "eval/records.jsonl"
    flagged = [r for r in rows if r["retention_flag"] == "baseline_too_small"]
    assert flagged and all(r["split_type"] == "held_out_character" for r in flagged)
    ie = next(r for r in _read_csv(root / "loglik" / "retention_taskwise_matrix_long.csv")
              if r["task_type"] == "IE" and r["checkpoint_stage"] == "2"
              and r["eval_stage"] == "1" and r["split_type"] == "supervised_character")  # fmt: skip
    assert float(ie["task_score"]) == 0.5 and float(ie["retention_rate"]) == 0.5
    assert ie["task_name_long"] == "Information Extraction"
    seen = summary["metrics"]["loglik"]["seen"]
    assert seen["current_stage_mean"] == pytest.approx((0.75 + 1.0) / 2)
    assert seen["final_mean_retention_rate"] == pytest.approx(0.5)
    for kind in ("heatmap", "curves"):
        for ext in ("png", "svg"):
            assert (root / "figures" / f"{kind}_loglik.{ext}").stat().st_size > 1000
    page = (root / "index.html").read_text()
    assert "<svg" in page and "M(c, s)" in page and "baseline_too_small" in page
    assert not (root / "generation").exists()
    again = heatmaps(retention(records, 2, RetentionConfig(resamples=100))["loglik"], "loglik",
                     tmp_path / "again")  # fmt: skip
    assert again[1].read_bytes() == (root / "figures" / "heatmap_loglik.svg").read_bytes()
