"""Task-balanced means and paired, stratified bootstrap intervals for retention.

Every cell of stage ``s`` scores the same items, so one set of resampled indices per stage
(drawn within each family: family sizes are fixed by design) serves every checkpoint. A
retention ratio ``M(c, s) / M(s, s)`` is then computed on the *same* resample in numerator and
denominator, which is what makes its interval honest for paired data.
"""

from __future__ import annotations

import warnings
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from umb.families import FAMILIES


def family_order(families: set[str] | list[str]) -> list[str]:
    """Families in umb's order, unknown codes last."""
    present = set(families)
    return [f for f in FAMILIES if f in present] + sorted(present - set(FAMILIES))


@dataclass(frozen=True)
class Strata:
    """The items of one (split, stage) grouped by family, with resampled indices per family."""

    item_ids: dict[str, list[str]]
    """Family -> item ids in a fixed order."""
    indices: dict[str, np.ndarray]
    """Family -> ``(resamples, n_family)`` index array."""

    @classmethod
    def build(cls, items: dict[str, str], resamples: int, seed: int, label: str) -> Strata:
        """Group ``{item_id: family}`` and draw ``resamples`` stratified resamples."""
        rng = np.random.default_rng([seed, zlib.crc32(label.encode())])
        by_family: dict[str, list[str]] = {}
        for item_id in sorted(items):
            by_family.setdefault(items[item_id], []).append(item_id)
        ordered = {f: by_family[f] for f in family_order(list(by_family))}
        indices = {
            f: rng.integers(0, len(ids), size=(resamples, len(ids))) for f, ids in ordered.items()
        }
        return cls(ordered, indices)

    def vectors(self, values: dict[str, float]) -> dict[str, np.ndarray]:
        """Per family, the values of its items in this order (every item must have one)."""
        return {
            f: np.array([values[i] for i in ids], dtype=float) for f, ids in self.item_ids.items()
        }

    def balanced(self, values: dict[str, float]) -> float:
        """Task-balanced mean: the unweighted mean of the family means."""
        return float(np.mean([v.mean() for v in self.vectors(values).values()]))

    def balanced_resamples(self, values: dict[str, float]) -> np.ndarray:
        """The task-balanced mean of each resample, shape ``(resamples,)``."""
        vecs = self.vectors(values)
        return np.mean([vecs[f][self.indices[f]].mean(axis=1) for f in vecs], axis=0)


def percentile_ci(samples: np.ndarray, confidence: float) -> tuple[float | None, float | None]:
    """Percentile interval of the finite samples (None when there are none)."""
    finite = samples[np.isfinite(samples)]
    if finite.size == 0:
        return None, None
    tail = (1 - confidence) / 2 * 100
    lo, hi = np.percentile(finite, [tail, 100 - tail])
    return float(lo), float(hi)


def nanmean(values: np.ndarray, axis: int | None = None) -> Any:
    """``np.nanmean`` that gives NaN for an all-NaN slice without warning about it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(values, axis=axis)


def safe_ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """Elementwise ``num / den`` with NaN where ``den`` is 0."""
    out = np.full_like(num, np.nan, dtype=float)
    np.divide(num, den, out=out, where=den != 0)
    return out
