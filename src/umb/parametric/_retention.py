"""Retention matrices: M(checkpoint, stage), retention rates and their intervals.

``M(c, s)`` is the task-balanced overall (the unweighted mean of family means, the statistic of
the contextual headline too) of checkpoint ``c`` on stage ``s``'s items of one split. The
retention rate is ``r(c, s) = M(c, s) / M(s, s)``; where the baseline ``M(s, s)`` is below
``min_baseline`` the ratio is noise and is flagged and left out instead of divided.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np

from umb.families import FAMILY_NAMES
from umb.parametric._config import SPLIT_TYPES
from umb.parametric._stats import Strata, nanmean, percentile_ci, safe_ratio

#: Record field holding each metric's item score.
METRIC_FIELDS: Final = {"loglik": "ll_score", "generation": "gen_score"}


@dataclass(frozen=True)
class RetentionConfig:
    """Bootstrap and flagging settings."""

    resamples: int = 1000
    confidence: float = 0.95
    min_baseline: float = 0.05
    """Below this current-stage score a retention ratio is flagged and not computed."""
    seed: int = 0


@dataclass
class SplitRetention:
    """Everything computed for one metric and one split."""

    split: str
    stages: int
    matrix: np.ndarray
    """``(stages + 1, stages)``: row c (0 = untrained), column s - 1; NaN where not scored."""
    ci: np.ndarray
    """``(stages + 1, stages, 2)`` bootstrap interval of each cell."""
    rates: np.ndarray
    """``(stages + 1, stages)``: r(c, s) for s <= c, NaN elsewhere or where flagged."""
    rate_ci: np.ndarray
    flags: dict[tuple[int, int], str] = field(default_factory=dict)
    mean_rates: dict[int, dict[str, Any]] = field(default_factory=dict)
    cells: list[dict[str, Any]] = field(default_factory=list)
    family_cells: list[dict[str, Any]] = field(default_factory=list)


def _item_values(
    records: list[dict[str, Any]], metric: str
) -> dict[tuple[str, int, int], dict[str, tuple[str, float, bool]]]:
    key = METRIC_FIELDS[metric]
    out: dict[tuple[str, int, int], dict[str, tuple[str, float, bool]]] = defaultdict(dict)
    for r in records:
        value = r.get(key)
        if value is None:
            continue
        cell = (str(r["split"]), int(r["checkpoint_stage"]), int(r["eval_stage"]))
        out[cell][str(r["item_id"])] = (str(r["family"]), float(value), bool(r.get("invalid_json")))
    return out


def metrics_present(records: list[dict[str, Any]]) -> list[str]:
    """The metrics some record has a value for, in a fixed order."""
    return [m for m, f in METRIC_FIELDS.items() if any(r.get(f) is not None for r in records)]


def _relation(c: int, s: int) -> str:
    return "untrained" if c == 0 else "current" if c == s else "old" if s < c else "future"


def split_retention(
    cells: dict[tuple[str, int, int], dict[str, tuple[str, float, bool]]],
    split: str,
    stages: int,
    config: RetentionConfig,
    label: str,
) -> SplitRetention:
    """Compute matrix, intervals, rates and per-family cells of one split."""
    shape = (stages + 1, stages)
    res = SplitRetention(
        split, stages, np.full(shape, np.nan), np.full((*shape, 2), np.nan),
        np.full(shape, np.nan), np.full((*shape, 2), np.nan),
    )  # fmt: skip
    boots: dict[tuple[int, int], np.ndarray] = {}
    for s in range(1, stages + 1):
        present = [cells[(split, c, s)] for c in range(stages + 1) if (split, c, s) in cells]
        if not present:
            continue
        common = set.intersection(*(set(p) for p in present))
        strata = Strata.build(
            {i: present[0][i][0] for i in common},
            config.resamples,
            config.seed,
            f"{label}:{split}:{s}",
        )
        for c in range(stages + 1):
            items = cells.get((split, c, s))
            if not items or not common:
                continue
            values = {i: items[i][1] for i in common}
            boots[(c, s)] = strata.balanced_resamples(values)
            res.matrix[c, s - 1] = strata.balanced(values)
            res.ci[c, s - 1] = percentile_ci(boots[(c, s)], config.confidence)
            invalid = sum(items[i][2] for i in common)
            res.cells.append(
                {
                    "checkpoint_stage": c, "eval_stage": s, "stage_relation": _relation(c, s),
                    "overall_score": res.matrix[c, s - 1],
                    "sample_weighted_score": float(np.mean(list(values.values()))),
                    "num_examples": len(common), "invalid_json_count": invalid,
                    "invalid_json_rate": invalid / len(common),
                    "ci_low": res.ci[c, s - 1, 0], "ci_high": res.ci[c, s - 1, 1],
                }
            )  # fmt: skip
            for family, vec in strata.vectors(values).items():
                fam_invalid = sum(items[i][2] for i in strata.item_ids[family])
                res.family_cells.append(
                    {
                        "checkpoint_stage": c, "eval_stage": s, "task_type": family,
                        "task_name_long": FAMILY_NAMES.get(family, family),
                        "task_score": float(vec.mean()), "num_examples": len(vec),
                        "invalid_json_count": fam_invalid,
                        "invalid_json_rate": fam_invalid / len(vec),
                    }
                )  # fmt: skip
    _rates(res, boots, config)
    return res


def _rates(
    res: SplitRetention, boots: dict[tuple[int, int], np.ndarray], config: RetentionConfig
) -> None:
    ratio_boots: dict[tuple[int, int], np.ndarray] = {}
    for c in range(1, res.stages + 1):
        for s in range(1, c + 1):
            base = res.matrix[s, s - 1]
            if (c, s) not in boots or (s, s) not in boots or np.isnan(base):
                continue
            if base < config.min_baseline:
                res.flags[(c, s)] = "baseline_too_small"
                continue
            res.rates[c, s - 1] = res.matrix[c, s - 1] / base
            ratio_boots[(c, s)] = safe_ratio(boots[(c, s)], boots[(s, s)])
            res.rate_ci[c, s - 1] = percentile_ci(ratio_boots[(c, s)], config.confidence)
            if res.rates[c, s - 1] > 2:
                res.flags[(c, s)] = "rate_above_2"
    for c in range(2, res.stages + 1):
        old = [s for s in range(1, c) if (c, s) in ratio_boots]
        rates = [float(res.rates[c, s - 1]) for s in old]
        scored = [s for s in range(1, c) if not np.isnan(res.matrix[c, s - 1])]
        entry: dict[str, Any] = {
            "num_old_stages": len(scored),
            "num_valid_old_stages": len(old),
            "mean_retention_rate": float(np.mean(rates)) if rates else None,
            "std_retention_rate": float(np.std(rates, ddof=1))
            if len(rates) > 1
            else (0.0 if rates else None),
            "ci_low": None,
            "ci_high": None,
        }
        if old:
            stacked = nanmean(np.stack([ratio_boots[(c, s)] for s in old]), axis=0)
            entry["ci_low"], entry["ci_high"] = percentile_ci(stacked, config.confidence)
        res.mean_rates[c] = entry


def retention(
    records: list[dict[str, Any]], stages: int, config: RetentionConfig
) -> dict[str, dict[str, SplitRetention]]:
    """``{metric: {split: SplitRetention}}`` for every metric and split the records have."""
    out: dict[str, dict[str, SplitRetention]] = {}
    for metric in metrics_present(records):
        cells = _item_values(records, metric)
        splits = [s for s in SPLIT_TYPES if any(k[0] == s for k in cells)]
        out[metric] = {
            split: split_retention(cells, split, stages, config, metric) for split in splits
        }
    return out
