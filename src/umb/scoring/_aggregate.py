"""Aggregating per-question records into results, one group per (system, model).

Two overall numbers, because they answer different questions:

- **sample-weighted**: the mean over every scored item, so big families weigh more;
- **task-balanced**: the unweighted mean of the family means, so each family weighs the same.

Confidence intervals are percentile bootstraps (seeded). The task-balanced interval resamples
within each family (a stratified bootstrap), because the family sizes are fixed by design.
Unscored items (``score`` is ``None``) are counted and left out of every mean; invalid JSON is
scored 0 and also counted.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

from umb._errors import DataError
from umb.families import FAMILIES

# numpy is imported by the functions that use it: a run needs it only to write its results.
if TYPE_CHECKING:
    import numpy as np

AGGREGATE_VERSION: Final = "1"

#: Keys a per-question record must have for :func:`aggregate`.
RECORD_KEYS: Final = (
    "system", "model", "family", "score", "invalid_json", "context_tokens", "latency_s",
)  # fmt: skip

# Resamples are drawn in chunks so memory stays near this many indices at once.
_CHUNK_CELLS: Final = 1 << 20


def _bootstrap_means(values: np.ndarray, resamples: int, rng: np.random.Generator) -> np.ndarray:
    import numpy as np

    n = len(values)
    out = np.empty(resamples)
    step = max(1, _CHUNK_CELLS // max(n, 1))
    for lo in range(0, resamples, step):
        hi = min(resamples, lo + step)
        idx = rng.integers(0, n, size=(hi - lo, n))
        out[lo:hi] = values[idx].mean(axis=1)
    return out


def _ci(means: np.ndarray, confidence: float) -> list[float]:
    import numpy as np

    tail = (1 - confidence) / 2 * 100
    lo, hi = np.percentile(means, [tail, 100 - tail])
    return [float(lo), float(hi)]


def bootstrap_ratio_ci(
    numerators: Iterable[float],
    denominators: Iterable[float],
    *,
    key: str,
    seed: int = 0,
    resamples: int = 1000,
    confidence: float = 0.95,
) -> list[float] | None:
    """Percentile-bootstrap interval of ``sum(numerators) / sum(denominators)``, resampling
    the pairs together (a cluster bootstrap: one pair per dialogue, say).

    ``key`` names the quantity, so each gets its own generator and adding one changes no other.
    None when there is nothing to resample or a resample's denominator is 0.
    """
    import numpy as np

    num = np.asarray(list(numerators), dtype=float)
    den = np.asarray(list(denominators), dtype=float)
    if not num.size or num.size != den.size:
        return None
    seeds = [seed, zlib.crc32(key.encode())]
    # Two generators from one seed draw the same indices: the resampled pairs stay pairs.
    top = _bootstrap_means(num, resamples, np.random.default_rng(seeds))
    bottom = _bootstrap_means(den, resamples, np.random.default_rng(seeds))
    if np.any(bottom == 0):
        return None
    return _ci(top / bottom, confidence)


def _percentiles(values: list[float]) -> dict[str, float | None]:
    import numpy as np

    if not values:
        return {"p50": None, "p95": None}
    p50, p95 = np.percentile(np.asarray(values, dtype=float), [50, 95])
    return {"p50": float(p50), "p95": float(p95)}


def _family_order(families: Iterable[str]) -> list[str]:
    present = set(families)
    return [f for f in FAMILIES if f in present] + sorted(present - set(FAMILIES))


def _group_results(
    system: str,
    model: str,
    records: list[Mapping[str, Any]],
    *,
    resamples: int,
    seed: int,
    confidence: float,
) -> dict[str, Any]:
    import numpy as np

    # One generator per group, derived from its name, so adding a group changes no other CI.
    rng = np.random.default_rng([seed, zlib.crc32(f"{system}\x00{model}".encode())])
    by_family: dict[str, list[Mapping[str, Any]]] = {}
    for r in records:
        by_family.setdefault(str(r["family"]), []).append(r)

    families: dict[str, Any] = {}
    family_boot: list[np.ndarray] = []
    family_means: list[float] = []
    for fam in _family_order(by_family):
        rows = by_family[fam]
        values = np.asarray([float(r["score"]) for r in rows if r["score"] is not None])
        entry: dict[str, Any] = {
            "n": len(rows),
            "scored": int(values.size),
            "unscored": len(rows) - int(values.size),
            "invalid_json": sum(bool(r["invalid_json"]) for r in rows),
            "invalid_json_rate": sum(bool(r["invalid_json"]) for r in rows) / len(rows),
            "distribution": {
                k: int(np.sum(values == v)) for k, v in (("0", 0), ("0.5", 0.5), ("1", 1))
            },
            "mean": None,
            "ci95": None,
        }
        if values.size:
            boot = _bootstrap_means(values, resamples, rng)
            entry["mean"] = float(values.mean())
            entry["ci95"] = _ci(boot, confidence)
            family_boot.append(boot)
            family_means.append(float(values.mean()))
        families[fam] = entry

    all_values = np.asarray([float(r["score"]) for r in records if r["score"] is not None])
    sample_weighted: dict[str, Any] = {"mean": None, "ci95": None}
    if all_values.size:
        sample_weighted = {
            "mean": float(all_values.mean()),
            "ci95": _ci(_bootstrap_means(all_values, resamples, rng), confidence),
        }
    task_balanced: dict[str, Any] = {"mean": None, "ci95": None, "families": []}
    if family_means:
        task_balanced = {
            "mean": float(np.mean(family_means)),
            "ci95": _ci(np.mean(np.stack(family_boot), axis=0), confidence),
            "families": [f for f, e in families.items() if e["mean"] is not None],
        }

    n = len(records)
    invalid = sum(bool(r["invalid_json"]) for r in records)
    tokens = [float(r["context_tokens"]) for r in records if r.get("context_tokens") is not None]
    latencies = [float(r["latency_s"]) for r in records if r.get("latency_s") is not None]
    return {
        "system": system,
        "model": model,
        "n": n,
        "scored": int(all_values.size),
        "unscored": n - int(all_values.size),
        "errors": sum(1 for r in records if r.get("error")),
        "invalid_json": invalid,
        "invalid_json_rate": invalid / n,
        "sample_weighted": sample_weighted,
        "task_balanced": task_balanced,
        "families": families,
        "context_tokens_mean": float(np.mean(tokens)) if tokens else None,
        "latency_s": _percentiles(latencies),
    }


def aggregate(
    records: Iterable[Mapping[str, Any]],
    *,
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> dict[str, Any]:
    """Aggregate per-question records into a JSON-serialisable results dict.

    Args:
        records: Plain dicts with the keys of :data:`RECORD_KEYS`: ``system``, ``model``,
            ``family``, ``score`` (0/0.5/1 or ``None`` for unscored), ``invalid_json``
            (bool), ``context_tokens`` and ``latency_s`` (numbers or ``None``). An optional
            ``error`` (a failed model call) is counted under ``errors``.
        resamples: Bootstrap resamples per interval.
        seed: Seed of the bootstrap.
        confidence: Interval coverage (0.95 gives 95 % intervals).

    Returns:
        ``{"aggregate_version", "bootstrap", "groups": [...]}``, one group per (system, model)
        in order of first appearance, each with per-family means and intervals, the
        sample-weighted and task-balanced overall, invalid-JSON rate, unscored and error counts,
        mean context tokens per question and latency p50/p95.

    Raises:
        DataError: A record lacks a required key.
    """
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for i, r in enumerate(records):
        missing = [k for k in RECORD_KEYS if k not in r]
        if missing:
            raise DataError("records", None, f"record {i} lacks {', '.join(missing)}")
        groups.setdefault((str(r["system"]), str(r["model"])), []).append(r)
    return {
        "aggregate_version": AGGREGATE_VERSION,
        "bootstrap": {"resamples": resamples, "seed": seed, "confidence": confidence},
        "groups": [
            _group_results(s, m, rows, resamples=resamples, seed=seed, confidence=confidence)
            for (s, m), rows in groups.items()
        ],
    }
