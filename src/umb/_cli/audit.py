"""``umb audit``: shortcut baselines, their thresholds and the verdict."""

from __future__ import annotations

import time
from pathlib import Path

import click

from umb._cli._output import force_option, refuse_existing
from umb.audit import RETRIEVAL_DIALOGUES, format_summary, run_audit, write_audit


@click.command()
@click.argument("bench", type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(path_type=Path), help="Write audit.json and audit.md here.")
@click.option("--no-retrieval", is_flag=True, help="Leave out BM25 recall@5 (the costly part).")
@click.option(
    "--dialogues",
    type=click.IntRange(min=1),
    help="Audit a seeded sample of this many dialogues.  [default: all]",
)
@click.option(
    "--retrieval-dialogues",
    type=click.IntRange(min=0),
    default=RETRIEVAL_DIALOGUES,
    show_default=True,
    help="Rank the questions of a seeded sample of this many audited dialogues (0: all).",
)
@force_option("an audit")
@click.pass_context
def audit(
    ctx: click.Context,
    bench: Path,
    out: Path | None,
    no_retrieval: bool,
    dialogues: int | None,
    retrieval_dialogues: int,
    force: bool,
) -> None:
    """Run shortcut baselines on BENCH; exit 1 naming each family over its threshold."""
    if out is not None:
        refuse_existing(out, force, "an audit", marker="audit.json")
    t0 = time.perf_counter()
    report = run_audit(
        bench,
        retrieval=not no_retrieval,
        dialogues=dialogues,
        retrieval_dialogues=retrieval_dialogues or None,
    )
    click.echo(format_summary(report))
    if out is not None:
        path = write_audit(report, out)
        click.echo(f"wrote {path} and {path.with_name('audit.md')}")
    click.echo(f"audited in {time.perf_counter() - t0:.1f}s", err=True)
    if report["verdict"] != "passed":
        ctx.exit(1)
