"""``umb parametric retention``: CSVs, figures, a summary and an HTML page for one run."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from umb._errors import DataError
from umb._jsonio import atomic_write_bytes, dumps_pretty
from umb.parametric._checkpoints import read_run_header
from umb.parametric._config import SPLIT_TYPES
from umb.parametric._evallog import RECORDS, read_records
from umb.parametric._html import render_page
from umb.parametric._plots import curves, heatmaps
from umb.parametric._retention import RetentionConfig, SplitRetention, retention
from umb.parametric._tables import write_tables


def _mean(values: np.ndarray) -> float | None:
    finite = values[np.isfinite(values)]
    return float(finite.mean()) if finite.size else None


def split_summary(res: SplitRetention) -> dict[str, Any]:
    """Headline numbers of one split (all task-balanced, as the contextual overall)."""
    n = res.stages
    final = res.mean_rates.get(n, {})
    return {
        "split_type": SPLIT_TYPES[res.split],
        "untrained_mean": _mean(res.matrix[0]),
        "current_stage_mean": _mean(np.array([res.matrix[s, s - 1] for s in range(1, n + 1)])),
        "final_checkpoint_mean": _mean(res.matrix[n]),
        "final_mean_retention_rate": final.get("mean_retention_rate"),
        "final_retention_ci": [final.get("ci_low"), final.get("ci_high")],
        "flags": {f"c{c}_s{s}": flag for (c, s), flag in sorted(res.flags.items())},
    }


def _clean(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def write_retention(
    run_dir: str | Path,
    *,
    out: str | Path | None = None,
    config: RetentionConfig | None = None,
) -> dict[str, Any]:
    """Analyse a run's evaluation records and write the retention outputs.

    Layout of ``out`` (default ``RUN/retention``): ``<metric>/`` with the three CSVs,
    ``figures/heatmap_<metric>.{png,svg}`` and ``curves_<metric>.{png,svg}`` (a row per
    split), ``summary.json`` and ``index.html``.

    Returns:
        The summary: ``{metric: {split: headline numbers}}`` plus ``model`` and ``stages``.

    Raises:
        DataError: The run has no evaluation records yet.
    """
    config = config or RetentionConfig()
    run = Path(run_dir)
    header = read_run_header(run)
    stages = int(header["stages"])
    records = read_records(run / "eval" / RECORDS)
    if not records:
        raise DataError(str(run / "eval" / RECORDS), None, "no evaluation records; run eval first")
    target = Path(out) if out is not None else run / "retention"
    results = retention(records, stages, config)
    model = str(header.get("model_label", "model"))
    summary: dict[str, Any] = {"model": model, "stages": stages, "metrics": {}}
    figures: dict[str, list[Path]] = {}
    for metric, splits in results.items():
        write_tables(target / metric, splits, model, "eval/records.jsonl", config.min_baseline)
        summary["metrics"][metric] = {s: split_summary(r) for s, r in splits.items()}
        fig_base = target / "figures"
        figures[metric] = heatmaps(splits, metric, fig_base / f"heatmap_{metric}")
        figures[metric] += curves(splits, metric, fig_base / f"curves_{metric}")
    summary = _clean(summary)
    atomic_write_bytes(target / "summary.json", dumps_pretty(summary))
    page = render_page(summary, results, figures, target)
    atomic_write_bytes(target / "index.html", page.encode())
    return summary
