"""``umb trace``: draw one question's evidence subgraph, or export a run's traces."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import click

from umb._cli._output import force_option, refuse_existing
from umb._errors import UmbError

_FORMATS = ("svg", "png", "dot")


@click.group(name="trace")
def trace_group() -> None:
    """Execution traces of a run: pictures and MemTraceBench export."""


@trace_group.command(name="show")
@click.argument("run", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--question", "question_id", required=True, help="Question id, e.g. Q-D0001-IE-01.")
@click.option("--system", help="Memory system (needed when the run traced several).")
@click.option(
    "--format", "fmt", type=click.Choice(_FORMATS), default="svg", show_default=True,
    help="svg or png (need Graphviz's dot), or the DOT source.",
)  # fmt: skip
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False, allow_dash=True),
    help="Output file; '-' writes to stdout (default: QUESTION.SYSTEM.FORMAT here).",
)
@click.option(
    "--max-nodes", type=int, default=120, show_default=True, help="Variable versions drawn at most."
)
@force_option("the file")
def show(
    run: Path, question_id: str, system: str | None, fmt: str, out: Path | None, max_nodes: int,
    force: bool,
) -> None:  # fmt: skip
    """Draw the evidence subgraph of one question, the faulty operation highlighted.

    The graph is cut to the paths from the question's gold evidence turns; when the run has
    attributions (RUN/attributions.jsonl), the evidence path is drawn and the decisive faulty
    operation is red.
    """
    from umb.run import RunTraceView

    view = RunTraceView(run)
    name = view.system(system)  # a wrong argument is told before a missing program
    if fmt != "dot" and shutil.which("dot") is None:
        raise UmbError(
            "Graphviz's dot program was not found on PATH; install Graphviz "
            "(Debian: apt-get install graphviz) or write the DOT source with --format dot"
        )
    picture = view.picture(name, question_id, fmt, max_nodes=max_nodes)  # type: ignore[arg-type]
    if out is not None and str(out) == "-":
        sys.stdout.buffer.write(picture)
        sys.stdout.buffer.flush()
        return
    target = out if out is not None else Path(f"{question_id}.{name}.{fmt}")
    refuse_existing(target, force, "a file")
    target.write_bytes(picture)
    attribution = view.attribution(name, question_id)
    note = ""
    if attribution is not None:
        note = f" ({attribution.get('error_type')} at {attribution.get('op_id')})"
    click.echo(f"{target}{note}")


@trace_group.command(name="export")
@click.argument("run", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option(
    "--out", type=click.Path(path_type=Path, file_okay=False), required=True,
    help="Folder: one MemTraceBench graph per system and dialogue, OUT/SYSTEM/DIALOGUE.json.",
)  # fmt: skip
@click.option("--system", "systems", multiple=True, help="Only these systems (repeatable).")
@force_option("an export")
def export(run: Path, out: Path, systems: tuple[str, ...], force: bool) -> None:
    """Export a run's traces as MemTraceBench / smartcomment execution-graph JSON.

    Attributions in RUN/attributions.jsonl become each graph's data.annotations.
    """
    refuse_existing(out, force, "an export")
    from umb.interop.memtracebench import export_memtrace
    from umb.run import RunTraceView

    view = RunTraceView(run)
    chosen = [view.system(s) for s in systems] or view.systems
    total = 0
    for name in chosen:
        written = export_memtrace(
            view.trace(name), out, attributions=view.attributions(name), split=name
        )
        total += len(written)
        click.echo(f"{name}: {len(written)} graphs in {out / name}")
    click.echo(f"{total} graphs written")
