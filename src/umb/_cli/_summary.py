"""The per-family and attribution tables that ``umb eval`` prints under its leaderboard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from umb._cli._table import format_table
from umb._cli.attribute import format_summary
from umb._jsonio import read_json
from umb.attribute import ATTRIBUTION_SUMMARY
from umb.bench import Benchmark
from umb.families import FAMILIES


def _num(value: Any) -> str:
    return "–" if value is None else f"{float(value):.3f}"


def family_table(results: dict[str, Any]) -> str:
    """Mean per family for each (system, model), then failed calls and invalid JSON in all."""
    groups = results.get("groups", [])
    seen = {f for g in groups for f in g.get("families", {})}
    families = [f for f in FAMILIES if f in seen] + sorted(seen - set(FAMILIES))
    if not families:
        return ""
    n = {f: max(g["families"].get(f, {}).get("n", 0) for g in groups) for f in families}
    rows = []
    for g in groups:
        fams = g.get("families", {})
        invalid = sum(int(b.get("invalid_json", 0)) for b in fams.values())
        rows.append([g["system"], g["model"],
                     *(_num(fams.get(f, {}).get("mean")) for f in families),
                     str(g.get("errors", 0)), str(invalid)])  # fmt: skip
    header = ["system", "model", *families, "errors", "invalid"]
    counts = ", ".join(f"{f} {n[f]:,}" for f in families)
    return f"{format_table(header, rows, left=2)}\nquestions per family: {counts}"


def attribution_table(run_dir: Path) -> str:
    """Failed questions per system × error type, when the run was attributed ('' if not)."""
    path = run_dir / ATTRIBUTION_SUMMARY
    if not path.exists():
        return ""
    summary = read_json(path)
    if not isinstance(summary, dict) or not summary.get("systems"):
        return ""
    return format_summary(summary)


def world_note(bench: Path) -> str:
    """What ``umb eval`` leaves out for want of ``world.json`` ('' when the world is there)."""
    benchmark = Benchmark(bench)
    if benchmark.has_world:
        return ""
    if benchmark.manifest.get("source") is not None:
        return "memory metrics and audit skipped: an imported peer benchmark has no world"
    return "memory metrics and audit skipped: no world.json"


def eval_summary(results: dict[str, Any], run_dir: Path) -> str:
    """Both tables with their titles, for the terminal ('' when there is nothing to show)."""
    parts = []
    families = family_table(results)
    if families:
        parts.append(f"mean score per family (errors: failed calls; invalid: replies not JSON)\n"
                     f"{families}")  # fmt: skip
    attribution = attribution_table(run_dir)
    if attribution:
        parts.append(f"failed questions by attributed error type ({run_dir / ATTRIBUTION_SUMMARY})"
                     f"\n{attribution}")  # fmt: skip
    return "\n\n".join(parts)
