"""Figures of a retention analysis, one pair per metric with a row per split: heatmaps of
M(c, s) and r(c, s), and learning/forgetting curves. Each is written as PNG and SVG (the SVG
without a timestamp, so reruns give the same bytes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from umb.parametric._retention import SplitRetention
from umb.parametric._stats import nanmean

METRIC_TITLES = {
    "loglik": "gold log-likelihood score",
    "generation": "generation score (family scorers)",
}
SPLIT_TITLES = {
    "seen": "seen characters (questions trained)",
    "held_out": "held-out characters (dialogue trained, questions not)",
    "control": "control characters (never trained)",
}


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "umb"
    return plt


def _save(fig: Any, base: Path) -> list[Path]:
    # One layout pass here; constrained layout re-measures every label many times over.
    fig.tight_layout()
    base.parent.mkdir(parents=True, exist_ok=True)
    png, svg = base.with_suffix(".png"), base.with_suffix(".svg")
    fig.savefig(png, dpi=100, metadata={"Software": None})
    fig.savefig(svg, metadata={"Date": None, "Creator": None})
    return [png, svg]


def _heat(ax: Any, data: np.ndarray, rows: list[str], title: str, vmax: float) -> Any:
    image = ax.imshow(np.ma.masked_invalid(data), cmap="viridis", vmin=0.0, vmax=vmax,
                      aspect="auto")  # fmt: skip
    ax.set_xticks(range(data.shape[1]), [str(s) for s in range(1, data.shape[1] + 1)])
    ax.set_yticks(range(data.shape[0]), rows)
    ax.set_xlabel("evaluated stage s")
    ax.set_ylabel("checkpoint c")
    ax.set_title(title, fontsize=9)
    for (r, c), value in np.ndenumerate(data):
        if not np.isnan(value):
            shade = "black" if value > 0.6 * vmax else "white"
            ax.text(c, r, f"{value:.2f}", ha="center", va="center", fontsize=7, color=shade)
    return image


def heatmaps(splits: dict[str, SplitRetention], metric: str, base: Path) -> list[Path]:
    """M(c, s) and r(c, s) side by side, one row per split."""
    plt = _pyplot()
    n = next(iter(splits.values())).stages
    size = (4.0 + 1.6 * n, (1.6 + 0.45 * n) * len(splits))
    fig, axes = plt.subplots(len(splits), 2, figsize=size, squeeze=False)
    labels = ["untrained"] + [str(c) for c in range(1, n + 1)]
    for row, (split, res) in enumerate(splits.items()):
        name = SPLIT_TITLES.get(split, split)
        image = _heat(axes[row, 0], res.matrix, labels, f"M(c, s): {name}", 1.0)
        fig.colorbar(image, ax=axes[row, 0])
        rates = res.rates[1:]
        top = max(1.0, float(np.nanmax(rates))) if np.isfinite(rates).any() else 1.0
        image = _heat(axes[row, 1], rates, labels[1:], "r(c, s) = M(c, s) / M(s, s)", top)
        fig.colorbar(image, ax=axes[row, 1])
    fig.suptitle(METRIC_TITLES.get(metric, metric), fontsize=10)
    paths = _save(fig, base)
    plt.close(fig)
    return paths


def _learning(ax: Any, res: SplitRetention, title: str) -> None:
    n = res.stages
    x = np.arange(1, n + 1)
    for s in range(1, n + 1):
        ax.plot(np.arange(s, n + 1), res.matrix[s:, s - 1], color="0.72", linewidth=0.9,
                marker=".", markersize=4)  # fmt: skip
    current = [res.matrix[c, c - 1] for c in x]
    old = [nanmean(res.matrix[c, : c - 1]) if c > 1 else np.nan for c in x]
    ax.plot(x, current, color="tab:blue", marker="o", linewidth=2, label="current stage M(c, c)")
    ax.plot(x, old, color="tab:red", marker="s", linewidth=2, label="old stages: mean M(c, s<c)")
    untrained = nanmean(res.matrix[0])
    if np.isfinite(untrained):
        ax.axhline(untrained, color="black", linestyle="--", linewidth=1, label="untrained")
    ax.set_xticks(x)
    ax.set_xlabel("checkpoint c (grey: one line per stage s)")
    ax.set_ylabel("M")
    ax.set_ylim(0, 1.02)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, loc="center right")


def _retention(ax: Any, res: SplitRetention) -> None:
    cs = sorted(c for c, e in res.mean_rates.items() if e["mean_retention_rate"] is not None)
    if cs:
        mean = [res.mean_rates[c]["mean_retention_rate"] for c in cs]
        lo = [res.mean_rates[c]["ci_low"] for c in cs]
        hi = [res.mean_rates[c]["ci_high"] for c in cs]
        ax.fill_between(cs, lo, hi, color="tab:purple", alpha=0.2, label="95% bootstrap CI")
        ax.plot(cs, mean, color="tab:purple", marker="o", label="mean r(c, s) over s < c")
        ax.legend(fontsize=7, loc="best")
    else:
        ax.text(0.5, 0.5, "no old stage with a usable baseline", ha="center",
                transform=ax.transAxes, color="0.4")  # fmt: skip
    ax.axhline(1.0, color="0.5", linestyle=":", linewidth=1)
    ax.set_xticks(np.arange(1, res.stages + 1))
    ax.set_ylim(bottom=0)
    ax.set_xlabel("checkpoint c")
    ax.set_ylabel("retention rate")
    ax.set_title("retention of old stages", fontsize=9)


def curves(splits: dict[str, SplitRetention], metric: str, base: Path) -> list[Path]:
    """Learning (current stage) and forgetting (old stages) over checkpoints, per split."""
    plt = _pyplot()
    fig, axes = plt.subplots(len(splits), 2, figsize=(10, 3.2 * len(splits)), squeeze=False)
    for row, (split, res) in enumerate(splits.items()):
        _learning(axes[row, 0], res, SPLIT_TITLES.get(split, split))
        _retention(axes[row, 1], res)
    fig.suptitle(METRIC_TITLES.get(metric, metric), fontsize=10)
    paths = _save(fig, base)
    plt.close(fig)
    return paths
