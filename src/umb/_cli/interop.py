"""``umb import`` (peer file -> benchmark directory) and ``umb export`` (the reverse)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from umb._errors import ConfigError


def _check_out(out: Path, force: bool) -> None:
    if (out / "manifest.json").exists() and not force:
        raise ConfigError(f"{out} already holds a benchmark; pass --force to overwrite it")


def _report(manifest: dict[str, Any], seconds: float, out: Path) -> None:
    c = manifest["counts"]
    click.echo(
        f"imported {c['dialogues']} dialogues, {c['sessions']} sessions, {c['turns']} turns, "
        f"{c['questions']} questions into {out} in {seconds:.2f} s"
    )
    native = manifest.get("native_category_counts")
    if native:
        click.echo("native categories: " + ", ".join(f"{k}={v}" for k, v in native.items()))
    click.echo("families: " + ", ".join(f"{k}={v}" for k, v in c["questions_per_family"].items()))
    counts = manifest.get("import_warning_counts", {})
    if counts:
        click.echo(f"handled {sum(counts.values())} loader pitfalls (manifest: import_warnings):")
        for code, n in counts.items():
            click.echo(f"  {code}: {n}")


def _import(run: Callable[[str, str], dict[str, Any]], file: Path, out: Path, force: bool) -> None:
    _check_out(out, force)
    start = time.perf_counter()
    manifest = run(str(file), str(out))
    _report(manifest, time.perf_counter() - start, out)


_FILE = click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
_OUT = click.option(
    "-o",
    "--out",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Benchmark directory to write.",
)
_FORCE = click.option("--force", is_flag=True, help="Overwrite an existing benchmark directory.")


@click.group("import")
def import_group() -> None:
    """Import a peer benchmark file into a umb benchmark directory."""


@import_group.command("locomo")
@_FILE
@_OUT
@_FORCE
def import_locomo_cmd(file: Path, out: Path, force: bool) -> None:
    """Import LoCoMo (locomo10.json)."""
    from umb.interop.locomo import import_locomo

    _import(import_locomo, file, out, force)


@import_group.command("longmemeval")
@_FILE
@_OUT
@_FORCE
def import_longmemeval_cmd(file: Path, out: Path, force: bool) -> None:
    """Import LongMemEval (longmemeval_s/_m/_oracle, original or _cleaned names)."""
    from umb.interop.longmemeval import import_longmemeval

    _import(import_longmemeval, file, out, force)


@import_group.command("umb-release")
@_FILE
@_OUT
@_FORCE
def import_umb_release_cmd(file: Path, out: Path, force: bool) -> None:
    """Import the original UnifiedMemBench dialogue benchmark (UMB_dialogue_benchmark.json)."""
    from umb.interop.umb_release import import_umb_release

    _import(import_umb_release, file, out, force)


@click.command("export")
@click.argument("bench_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--format",
    "fmt",
    required=True,
    type=click.Choice(["locomo", "longmemeval", "umb-release"]),
    help="Peer format to write.",
)
@click.option(
    "--out",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="JSON file to write.",
)
def export(bench_dir: Path, fmt: str, out: Path) -> None:
    """Export a benchmark directory to a peer benchmark's JSON format."""
    from umb.interop import FORMATS

    log = FORMATS[fmt][1](bench_dir, out)
    click.echo(f"wrote {out} ({fmt})")
    for code, n in log.counts().items():
        click.echo(f"  warning {code}: {n}")
