"""``umb score``: score a predictions file made outside umb, as each scorer's authors do."""

from __future__ import annotations

from pathlib import Path

import click

from umb._cli._options import ListedHelp, scorer_list

#: How many unknown or missing ids the terminal lists before it only counts.
_SHOWN = 10


@click.command()
@click.option(
    "--bench",
    type=click.Path(path_type=Path),
    required=True,
    help="Benchmark directory the predictions answer (umb generate / umb import).",
)
@click.option(
    "--predictions",
    type=click.Path(path_type=Path),
    required=True,
    help='JSONL: {"question_id", "answer", "retrieved"?} a line; umb or native ids.',
)
@click.option(
    "--scorer",
    "scorers",
    default="umb",
    show_default=True,
    cls=ListedHelp,
    listing=scorer_list,
    help="Comma-separated: ",
)
@click.option("--judge", help="Judge model, for mem0_judge, longmemeval_judge or umb's judge.")
@click.option(
    "--judge-template",
    type=click.Path(path_type=Path),
    help="JSON file of judge prompt templates (docs/interop.md); default: umb's wording.",
)
@click.option(
    "--judge-template-from",
    type=click.Path(path_type=Path),
    help="Your LongMemEval checkout: its get_anscheck_prompt writes longmemeval_judge's prompts.",
)
@click.option("--system", help="Name of the system the predictions come from (default: stem).")
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    required=True,
    help="Run directory to write (records, results.json, report/).",
)
@click.option("--report/--no-report", default=True, show_default=True, help="Write RUN/report.")
def score(
    bench: Path,
    predictions: Path,
    scorers: str,
    judge: str | None,
    judge_template: Path | None,
    judge_template_from: Path | None,
    system: str | None,
    out: Path,
    report: bool,
) -> None:
    """Score outside predictions into a run directory that umb report reads."""
    import umb

    names = [s.strip() for s in scorers.split(",") if s.strip()]
    outcome = umb.score(bench, predictions, out, names, system=system, judge=judge, report=report)
    acc = outcome.results["predictions"]
    click.echo(
        f"{acc['matched']} predictions scored of {acc['lines']} lines; "
        f"{acc['unknown']} unknown ids, {acc['missing']} questions without a prediction"
    )
    for label, ids in (("unknown", outcome.unknown), ("missing", outcome.missing)):
        if ids:
            more = f" … and {len(ids) - _SHOWN} more" if len(ids) > _SHOWN else ""
            click.echo(f"  {label}: {', '.join(ids[:_SHOWN])}{more} (all in results.json)")
    for group in outcome.results["groups"]:
        for name, summary in group["scores"].items():
            click.echo(f"{name}: {_headline(summary)}")
    click.echo(f"wrote {out / 'results.json'}" + (f" and {out / 'report'}" if report else ""))


def _headline(summary: dict[str, object]) -> str:
    """The summary's top-level numbers, as the scorer names them."""
    parts = []
    for key, value in summary.items():
        if isinstance(value, float):
            parts.append(f"{key} {value:.4f}")
        elif isinstance(value, int) and not isinstance(value, bool):
            parts.append(f"{key} {value}")
    return ", ".join(parts)
