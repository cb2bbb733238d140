"""Curves of a state-tracking run against prompt tokens (PNG, SVG) and a self-contained page."""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from umb._jsonio import atomic_write_bytes
from umb.statetrack._tasks import TASKS

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Run = tuple[str, Sequence[dict[str, Any]]]
"""(label, rows of :func:`umb.statetrack._records.aggregate`)."""

_PALETTE: Final = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#b07aa1")
_TABLE_COLUMNS: Final = (
    "level", "task", "samples", "avg_prompt_tokens", "avg_facts_lines", "short_samples",
    "parse_rate", "prompt_exact_rate", "char_exact_rate", "schema_accuracy", "schema_coverage",
)  # fmt: skip


def curves_figure(runs: Sequence[Run]) -> Figure:
    """One panel per task: schema accuracy (solid) and prompt-exact rate (dashed) of each run
    against the mean prompt tokens of each level (log scale)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import LogLocator, NullFormatter, NullLocator

    tasks = [t for t in TASKS if any(r["task"] == t for _, rows in runs for r in rows)]
    cols = 2 if len(tasks) > 1 else 1
    n_rows = (len(tasks) + cols - 1) // cols
    # A fixed layout: constrained layout measures every tick label and costs seconds.
    n_lines = 2 * len(runs)
    fig = Figure(figsize=(5.2 * cols, 3.2 * n_rows + 0.17 * ((n_lines + 1) // 2)), dpi=100)
    FigureCanvasAgg(fig)
    axes = fig.subplots(n_rows, cols, squeeze=False)
    for i, task in enumerate(tasks):
        ax = axes[i // cols][i % cols]
        for j, (label, rows) in enumerate(runs):
            # In level order: x grows with the level except where distractors pad small levels.
            pts = [(r["avg_prompt_tokens"], r) for r in sorted(rows, key=lambda r: r["level"])
                   if r["task"] == task]  # fmt: skip
            if not pts:
                continue
            xs = [x for x, _ in pts]
            colour = _PALETTE[j % len(_PALETTE)]
            ax.plot(xs, [r["schema_accuracy"] for _, r in pts], "o-", ms=3, color=colour,
                    label=f"{label}: schema accuracy")  # fmt: skip
            ax.plot(xs, [r["prompt_exact_rate"] for _, r in pts], "s--", ms=2.5, color=colour,
                    alpha=0.75, label=f"{label}: prompt exact")  # fmt: skip
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=10, numticks=8))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_ylim(-0.03, 1.03)
        ax.set_title(task, fontsize=10)
        ax.set_xlabel("prompt tokens (mean per level, ≈ chars / 4)", fontsize=8)
        ax.set_ylabel("rate", fontsize=8)
        ax.grid(alpha=0.3)
        ax.tick_params(labelsize=8)
    for k in range(len(tasks), n_rows * cols):
        axes[k // cols][k % cols].set_visible(False)
    handles, labels = axes[0][0].get_legend_handles_labels()
    legend_rows = (len(labels) + 1) // 2
    bottom = (0.1 + 0.17 * legend_rows) / fig.get_figheight()
    if labels:
        fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=7, frameon=False)
    fig.subplots_adjust(
        left=0.08, right=0.98, bottom=bottom + 0.55 / fig.get_figheight(), top=0.95,
        wspace=0.22, hspace=0.5,
    )  # fmt: skip
    return fig


def _table(label: str, rows: Sequence[dict[str, Any]]) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in _TABLE_COLUMNS)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(r[c]))}</td>" for c in _TABLE_COLUMNS) + "</tr>"
        for r in rows
    )
    return f"<h2>{html.escape(label)}</h2><table><tr>{head}</tr>{body}</table>"


def write_report(out: Path, runs: Sequence[Run]) -> list[Path]:
    """Write ``curves.png``, ``curves.svg`` and ``index.html`` (the SVG inlined) into ``out``.

    Returns:
        The paths written.
    """
    fig = curves_figure(runs)
    png, svg = io.BytesIO(), io.StringIO()
    fig.savefig(png, format="png")
    import matplotlib

    # A fixed hash salt and no date keep the SVG identical from run to run.
    with matplotlib.rc_context({"svg.hashsalt": "umb-statetrack"}):
        fig.savefig(svg, format="svg", metadata={"Date": None})
    atomic_write_bytes(out / "curves.png", png.getvalue())
    atomic_write_bytes(out / "curves.svg", svg.getvalue().encode())
    svg_inline = svg.getvalue()
    svg_inline = svg_inline[svg_inline.find("<svg") :]
    tables = "".join(_table(label, rows) for label, rows in runs)
    title = "State tracking: " + ", ".join(label for label, _ in runs)
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; font-size: 12px; margin-bottom: 2em; }}
th, td {{ border: 1px solid #ccc; padding: 2px 6px; text-align: right; }}
th {{ background: #f3f3f3; }}
svg {{ max-width: 100%; height: auto; }}
</style></head><body>
<h1>{html.escape(title)}</h1>
<p>Solid: schema accuracy (share of (person, state group) answers exactly right). Dashed:
prompt-exact rate (share of prompts with every answer right). x: mean estimated prompt tokens of
each ladder level.</p>
{svg_inline}
{tables}
</body></html>
"""
    atomic_write_bytes(out / "index.html", page.encode())
    return [out / "curves.png", out / "curves.svg", out / "index.html"]
