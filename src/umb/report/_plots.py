"""The report's figures, drawn with matplotlib's object API on the Agg canvas (no pyplot state).

Each function returns a :class:`matplotlib.figure.Figure`; ``ReportContext.figure`` saves it as
PNG and SVG and embeds the SVG in the page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from umb.report._load import Entry

_PALETTE = (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
)  # fmt: skip


def colour(i: int) -> str:
    """The colour of the ``i``-th entry (cycles after ten)."""
    return _PALETTE[i % len(_PALETTE)]


def _figure(width: float, height: float) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _yerr(blocks: Sequence[dict[str, Any]]) -> np.ndarray:
    lo, hi = [], []
    for b in blocks:
        mean, ci = b.get("mean"), b.get("ci95")
        if mean is None or not ci:
            lo.append(0.0)
            hi.append(0.0)
        else:
            lo.append(max(mean - ci[0], 0.0))
            hi.append(max(ci[1] - mean, 0.0))
    return np.asarray([lo, hi])


def overall_bars(entries: Sequence[Entry]) -> Figure:
    """Horizontal bars of the task-balanced overall score with 95% intervals, best on top."""
    ordered = sorted(entries, key=lambda e: e.group["task_balanced"].get("mean") or 0.0)
    fig = _figure(8, 0.45 * len(ordered) + 1.2)
    ax = fig.add_subplot()
    blocks = [e.group["task_balanced"] for e in ordered]
    means = [b.get("mean") or 0.0 for b in blocks]
    index = {e.key: i for i, e in enumerate(entries)}
    ax.barh(
        range(len(ordered)),
        means,
        xerr=_yerr(blocks),
        color=[colour(index[e.key]) for e in ordered],
        capsize=3,
    )
    ax.set_yticks(range(len(ordered)), [e.key for e in ordered])
    ax.set_xlim(0, 1)
    ax.set_xlabel("task-balanced score (mean of family means), 95% CI")
    ax.grid(axis="x", alpha=0.3)
    return fig


def family_bars(entries: Sequence[Entry], families: Sequence[str]) -> Figure:
    """Grouped bars: one group per family plus the task-balanced overall, one bar per entry."""
    labels = [*families, "overall"]
    n = max(len(entries), 1)
    width = 0.8 / n
    fig = _figure(max(8, 1.1 * len(labels) + 0.25 * n), 4.2)
    ax = fig.add_subplot()
    x = np.arange(len(labels))
    for i, e in enumerate(entries):
        fams = e.group.get("families", {})
        blocks = [fams.get(f, {}) for f in families] + [e.group["task_balanced"]]
        means = [b.get("mean") or 0.0 for b in blocks]
        ax.bar(
            x - 0.4 + width * (i + 0.5),
            means,
            width,
            yerr=_yerr(blocks),
            color=colour(i),
            label=e.key,
            capsize=2,
            error_kw={"elinewidth": 0.8},
        )
    ax.set_xticks(x, labels)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("mean score (95% CI)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    return fig


def score_vs_tokens(entries: Sequence[Entry]) -> Figure:
    """Each question's score against the context tokens it was given, with each entry's mean.

    Scores sit on 0, 0.5 and 1, so points are jittered vertically (seeded: the same run draws
    the same picture); the x axis is symmetric-log so an empty context (0 tokens) still shows.
    """
    fig = _figure(8.5, 4.2)
    ax = fig.add_subplot()
    rng = np.random.default_rng(0)
    top = 10.0
    for i, e in enumerate(entries):
        rows = [r for r in e.records if r.get("score") is not None]
        if not rows:
            continue
        xs = np.asarray([float(r.get("context_tokens") or 0) for r in rows])
        ys = np.asarray([float(r["score"]) for r in rows])
        top = max(top, float(xs.max()))
        jitter = rng.uniform(-0.05, 0.05, size=len(ys))
        ax.scatter(xs, ys + jitter, s=9, alpha=0.45, color=colour(i), label=e.key, linewidths=0)
        ax.scatter([xs.mean()], [ys.mean()], s=90, color=colour(i), edgecolors="black", zorder=3)
    ax.set_xscale("symlog", linthresh=10)
    ax.set_xlim(-1, top * 1.5)
    ax.set_ylim(-0.12, 1.12)
    ax.set_yticks([0, 0.5, 1])
    ax.set_xlabel("context tokens handed to the answerer (symlog)")
    ax.set_ylabel("score (jittered); big dot = mean")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    return fig
