"""A self-contained HTML page of a retention analysis (figures inlined as SVG)."""

from __future__ import annotations

import html
import math
from pathlib import Path
from typing import Any

from umb.parametric._plots import METRIC_TITLES, SPLIT_TITLES
from umb.parametric._retention import SplitRetention

_STYLE = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.6em 0 1.2em}td,th{border:1px solid #ccc;padding:3px 8px;
text-align:right;font-size:13px}th{background:#f3f3f3}td.l,th.l{text-align:left}
.fig svg{max-width:100%;height:auto}.note{color:#555;font-size:13px}h3{margin-top:1.6em}
"""


def _num(value: Any, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:.{digits}f}"


def _inline_svg(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    start = text.find("<svg")
    return text[start:] if start >= 0 else ""


def _matrix_table(res: SplitRetention) -> str:
    n = res.stages
    head = "".join(f"<th>s={s}</th>" for s in range(1, n + 1))
    rows = []
    for c in range(n + 1):
        cells = []
        for s in range(1, n + 1):
            value = res.matrix[c, s - 1]
            if math.isnan(value):
                cells.append("<td></td>")
                continue
            lo, hi = res.ci[c, s - 1]
            rate = res.rates[c, s - 1]
            flag = res.flags.get((c, s), "")
            extra = f"<br><small>r={_num(rate, 2)}</small>" if not math.isnan(rate) else ""
            extra += f"<br><small>{html.escape(flag)}</small>" if flag else ""
            cells.append(f"<td title='95% CI {_num(lo)}–{_num(hi)}'>{_num(value)}{extra}</td>")
        label = "untrained" if c == 0 else f"c={c}"
        rows.append(f"<tr><th class='l'>{label}</th>{''.join(cells)}</tr>")
    return f"<table><tr><th></th>{head}</tr>{''.join(rows)}</table>"


def _summary_table(metric_summary: dict[str, Any]) -> str:
    rows = []
    for split, s in metric_summary.items():
        lo, hi = s["final_retention_ci"]
        rows.append(
            f"<tr><td class='l'>{html.escape(SPLIT_TITLES.get(split, split))}</td>"
            f"<td>{_num(s['untrained_mean'])}</td><td>{_num(s['current_stage_mean'])}</td>"
            f"<td>{_num(s['final_checkpoint_mean'])}</td>"
            f"<td>{_num(s['final_mean_retention_rate'])} [{_num(lo)}, {_num(hi)}]</td></tr>"
        )
    head = (
        "<tr><th class='l'>split</th><th>untrained, mean over stages</th>"
        "<th>current stage, mean M(s, s)</th><th>last checkpoint, mean M(n, s)</th>"
        "<th>mean retention at the last checkpoint [95% CI]</th></tr>"
    )
    return f"<table>{head}{''.join(rows)}</table>"


def render_page(
    summary: dict[str, Any],
    results: dict[str, dict[str, SplitRetention]],
    figures: dict[str, list[Path]],
    root: Path,
) -> str:
    """The page: per metric a summary table, its figures, then each split's matrix."""
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>Parametric memory: {html.escape(summary['model'])}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>Parametric memory and forgetting: {html.escape(summary['model'])}</h1>",
        f"<p class='note'>{summary['stages']} stages trained one after another. M(c, s) is the "
        "task-balanced score (mean of family means) of the checkpoint after stage c on stage "
        "s's questions, asked without any transcript; r(c, s) = M(c, s) / M(s, s) is the "
        "share kept. Hover a cell for its 95% bootstrap interval. CSVs: "
        + ", ".join(f"<a href='{m}/retention_overall_matrix_long.csv'>{m}</a>" for m in results)
        + ".</p>",
    ]
    for metric, splits in results.items():
        parts.append(f"<h2>{html.escape(METRIC_TITLES.get(metric, metric))}</h2>")
        parts.append(_summary_table(summary["metrics"][metric]))
        for path in figures[metric]:
            if path.suffix == ".svg":
                parts.append(f"<div class='fig'>{_inline_svg(path)}</div>")
        for split, res in splits.items():
            parts.append(f"<h3>M(c, s): {html.escape(SPLIT_TITLES.get(split, split))}</h3>")
            parts.append(_matrix_table(res))
    parts.append("</body></html>\n")
    return "\n".join(parts)
