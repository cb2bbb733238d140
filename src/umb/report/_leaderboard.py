"""The leaderboard as rows, and as plain text for the terminal (no plotting imports here)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def leaderboard_rows(groups: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Aggregate groups as leaderboard rows, best task-balanced score first.

    Args:
        groups: Groups of :func:`umb.scoring.aggregate` (``results.json["groups"]``); a group may
            carry a ``run`` key naming its run.

    Returns:
        One flat dict per group: ``system``, ``model``, ``run``, ``task_balanced`` and
        ``sample_weighted`` (mean and ``ci95``), ``families`` (family -> mean), ``n``,
        ``invalid_json_rate``, ``errors``, ``unscored``, ``context_tokens_mean``,
        ``latency_p50_s``.
    """
    rows = []
    for g in groups:
        rows.append(
            {
                "run": g.get("run"),
                "system": g["system"],
                "model": g["model"],
                "task_balanced": g["task_balanced"],
                "sample_weighted": g["sample_weighted"],
                "families": {f: e.get("mean") for f, e in g.get("families", {}).items()},
                "n": g["n"],
                "invalid_json_rate": g.get("invalid_json_rate", 0.0),
                "errors": g.get("errors", 0),
                "unscored": g.get("unscored", 0),
                "context_tokens_mean": g.get("context_tokens_mean"),
                "latency_p50_s": (g.get("latency_s") or {}).get("p50"),
            }
        )
    return sorted(rows, key=lambda r: -(r["task_balanced"]["mean"] or 0.0))


def fmt_score(block: dict[str, Any]) -> str:
    """``0.452 [0.401, 0.503]`` from a ``{"mean", "ci95"}`` block; ``–`` when unscored."""
    mean = block.get("mean")
    if mean is None:
        return "–"
    ci = block.get("ci95")
    return f"{mean:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else f"{mean:.3f}"


def format_leaderboard(results: dict[str, Any]) -> str:
    """A fixed-width text table of a ``results.json``, for printing after a run."""
    header = ("system", "model", "task-balanced [95% CI]", "sample-weighted [95% CI]",
              "invalid", "errors", "ctx tok", "n")  # fmt: skip
    lines = [header]
    for r in leaderboard_rows(results.get("groups", [])):
        tokens = r["context_tokens_mean"]
        lines.append(
            (
                r["system"],
                r["model"],
                fmt_score(r["task_balanced"]),
                fmt_score(r["sample_weighted"]),
                f"{100 * r['invalid_json_rate']:.1f}%",
                str(r["errors"]),
                "–" if tokens is None else f"{tokens:,.0f}",
                str(r["n"]),
            )
        )
    widths = [max(len(row[i]) for row in lines) for i in range(len(header))]
    numeric = {4, 5, 6, 7}
    out = []
    for k, row in enumerate(lines):
        cells = [
            c.rjust(w) if i in numeric else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        out.append("  ".join(cells).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)
