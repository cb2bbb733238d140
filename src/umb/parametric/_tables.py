"""The retention CSVs, with the original release's columns first and umb's additions after."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path
from typing import Any, Final

from umb._jsonio import atomic_write_bytes
from umb.parametric._config import SPLIT_TYPES
from umb.parametric._retention import SplitRetention

OVERALL_COLUMNS: Final = (
    "model_name", "checkpoint_stage", "eval_stage", "stage_relation", "overall_score",
    "num_examples", "invalid_json_count", "invalid_json_rate", "split_type", "source_file",
    # umb's additions
    "sample_weighted_score", "ci_low", "ci_high", "retention_rate", "retention_ci_low",
    "retention_ci_high", "retention_flag",
)  # fmt: skip
TASKWISE_COLUMNS: Final = (
    "model_name", "checkpoint_stage", "eval_stage", "task_type", "task_name_long", "task_score",
    "num_examples", "invalid_json_count", "invalid_json_rate", "split_type",
    # umb's additions
    "retention_rate",
)  # fmt: skip
RATE_COLUMNS: Final = (
    "model", "checkpoint_stage", "mean_retention_rate", "std_retention_rate", "num_old_stages",
    "num_valid_old_stages",
    # umb's additions
    "split_type", "ci_low", "ci_high",
)  # fmt: skip

OVERALL_CSV: Final = "retention_overall_matrix_long.csv"
TASKWISE_CSV: Final = "retention_taskwise_matrix_long.csv"
RATE_CSV: Final = "retention_rate_overall_by_model.csv"


def _cell(value: Any) -> Any:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return value


def write_csv(path: Path, columns: tuple[str, ...], rows: list[dict[str, Any]]) -> None:
    """Write ``rows`` (dicts) with exactly ``columns``, blanks for missing values."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(c)) for c in columns])
    atomic_write_bytes(path, buf.getvalue().encode())


def _nan_none(value: float) -> float | None:
    return None if math.isnan(value) else float(value)


def table_rows(
    splits: dict[str, SplitRetention], model: str, source_file: str, min_baseline: float
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """Rows of the overall, taskwise and rate tables for one metric."""
    overall: list[dict[str, Any]] = []
    taskwise: list[dict[str, Any]] = []
    rates: list[dict[str, Any]] = []
    for split, res in splits.items():
        split_type = SPLIT_TYPES[split]
        for cell in res.cells:
            c, s = cell["checkpoint_stage"], cell["eval_stage"]
            overall.append(
                {
                    **cell,
                    "model_name": model,
                    "split_type": split_type,
                    "source_file": source_file,
                    "retention_rate": _nan_none(res.rates[c, s - 1]),
                    "retention_ci_low": _nan_none(res.rate_ci[c, s - 1, 0]),
                    "retention_ci_high": _nan_none(res.rate_ci[c, s - 1, 1]),
                    "retention_flag": res.flags.get((c, s), ""),
                }
            )
        base = {
            (f["eval_stage"], f["task_type"]): f["task_score"]
            for f in res.family_cells
            if f["checkpoint_stage"] == f["eval_stage"]
        }
        for f in res.family_cells:
            c, s = f["checkpoint_stage"], f["eval_stage"]
            denom = base.get((s, f["task_type"]))
            ok = c >= s and denom is not None and denom >= min_baseline
            rate = f["task_score"] / denom if ok and denom else None
            taskwise.append(
                {**f, "model_name": model, "split_type": split_type, "retention_rate": rate}
            )
        for c, entry in sorted(res.mean_rates.items()):
            rates.append({**entry, "model": model, "checkpoint_stage": c, "split_type": split_type})
    return overall, taskwise, rates


def write_tables(
    out: Path,
    splits: dict[str, SplitRetention],
    model: str,
    source_file: str,
    min_baseline: float,
) -> list[Path]:
    """Write the three CSVs of one metric into ``out``."""
    overall, taskwise, rates = table_rows(splits, model, source_file, min_baseline)
    paths = [out / OVERALL_CSV, out / TASKWISE_CSV, out / RATE_CSV]
    write_csv(paths[0], OVERALL_COLUMNS, overall)
    write_csv(paths[1], TASKWISE_COLUMNS, taskwise)
    write_csv(paths[2], RATE_COLUMNS, rates)
    return paths
