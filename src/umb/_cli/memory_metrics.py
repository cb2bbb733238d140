"""``umb memory-metrics``: measure each memory system's write path of a traced run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

#: Column header -> rate key, in the order the table shows them.
COLUMNS = {
    "recall": "extraction_recall",
    "precision": "extraction_precision",
    "fabricated": "fabrication_rate",
    "update acc": "update_accuracy",
    "omitted": "omission_rate",
}


def _cell(rate: dict[str, Any]) -> str:
    if rate["value"] is None:
        return "—"
    ci = rate.get("ci95")
    return f"{rate['value']:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else f"{rate['value']:.3f}"


def format_memory_metrics(summary: dict[str, Any]) -> str:
    """Per system: the headline rates with their 95% intervals, units per fact; then skips."""
    head = ["system", *COLUMNS, "units/fact"]
    rows = []
    for system, entry in summary["systems"].items():
        per_fact = entry["cost"]["units_per_fact"]
        rows.append([system, *(_cell(entry["rates"][k]) for k in COLUMNS.values()),
                     "—" if per_fact is None else f"{per_fact:.2f}"])  # fmt: skip
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in
                       enumerate(zip(r, widths, strict=True))) for r in [head, *rows]]  # fmt: skip
    out = [lines[0], "  ".join("-" * w for w in widths), *lines[1:]]
    out += [f"skipped {system}: {why}" for system, why in summary["skipped"].items()]
    return "\n".join(out)


@click.command("memory-metrics")
@click.argument("run", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option(
    "--bench",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="Benchmark directory (default: the one the run's header names).",
)
@click.option("--seed", default=0, show_default=True, help="Bootstrap seed of the CIs.")
def memory_metrics(run: Path, bench: Path | None, seed: int) -> None:
    """Measure what each memory system of RUN extracted, fabricated, updated and lost.

    Compares the memory units in RUN's traces with the benchmark's gold facts, without a judge
    (docs/memory-metrics.md). Writes RUN/memory_metrics.json (rates with 95% CIs, per attribute
    and event kind, write cost), RUN/memory_metrics.jsonl (the facts and units behind each
    count, per dialogue) and a summary into RUN/results.json. `umb eval` does this itself at the
    end of a traced run.
    """
    from umb.attribute import memory_metrics_run

    summary = memory_metrics_run(run, bench=bench, seed=seed)
    click.echo(format_memory_metrics(summary))
    click.echo(f"{len(summary['systems'])} systems measured; {run / 'memory_metrics.json'}")
