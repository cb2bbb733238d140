"""``umb import`` (peer file -> benchmark directory) and ``umb export`` (the reverse)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from umb._cli._output import force_option, refuse_existing
from umb._errors import ConfigError
from umb._peer import PEERS, PeerOption, formats


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


def _import(fmt: str, file: Path, out: Path, force: bool) -> None:
    refuse_existing(out, force, "a benchmark", marker="manifest.json")
    start = time.perf_counter()
    manifest = PEERS.get_or_raise(fmt).import_file(file, out)
    _report(manifest, time.perf_counter() - start, out)


_FILE = click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
_FOLDER = click.argument("file", type=click.Path(exists=True, file_okay=False, path_type=Path))
_OUT = click.option(
    "-o",
    "--out",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Benchmark directory to write.",
)
_FORCE = force_option("a benchmark")


class _PeerImports(click.Group):
    """One ``umb import <peer>`` command per registered peer with an importer."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return formats(direction="import")

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in formats(direction="import"):
            return None
        peer = PEERS[name]

        @(_FOLDER if peer.directory else _FILE)
        @_OUT
        @_FORCE
        def command(file: Path, out: Path, force: bool) -> None:
            _import(name, file, out, force)

        help_text = f"Import {peer.title}" + (f" ({peer.files})." if peer.files else ".")
        return click.command(name, help=help_text)(command)


@click.group("import", cls=_PeerImports)
def import_group() -> None:
    """Import a peer benchmark file into a umb benchmark directory."""


class _ExportFormat(click.ParamType):
    """A peer that can be exported to, looked up when the command runs (plug-ins included)."""

    name = "format"

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        return "[" + "|".join(formats(direction="export")) + "]"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> str:
        choices = formats(direction="export")
        if value not in choices:
            self.fail(f"{value!r} is not one of {', '.join(map(repr, choices))}", param, ctx)
        return str(value)


def _flag(option: PeerOption) -> str:
    return "--" + option.name.replace("_", "-")


def _peer_options() -> dict[str, tuple[PeerOption, list[str]]]:
    """Every exporter's own option, with the peers that take it."""
    found: dict[str, tuple[PeerOption, list[str]]] = {}
    for name in formats(direction="export"):
        for option in PEERS[name].export_options:
            found.setdefault(option.name, (option, []))[1].append(name)
    return found


class _ExportCommand(click.Command):
    """``umb export`` with each exporter's own options (``--max-shard-mb`` of hf), which are
    read from the peers when the command runs, so plug-in peers add theirs."""

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        extra: list[click.Parameter] = []
        for option, peers in _peer_options().values():
            default = f"; default: {option.default}" if option.default is not None else ""
            extra.append(
                click.Option(
                    [_flag(option), option.name],
                    type=option.type,
                    default=None,
                    help=f"{option.help} ({', '.join(peers)} only{default})",
                )
            )
        return [*super().get_params(ctx), *extra]


@click.command("export", cls=_ExportCommand)
@click.argument("bench_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--format",
    "fmt",
    required=True,
    type=_ExportFormat(),
    help="Peer format to write.",
)
@click.option(
    "--out",
    required=True,
    type=click.Path(path_type=Path),
    help="JSON file to write (a folder for hf).",
)
@force_option("the output")
def export(bench_dir: Path, fmt: str, out: Path, force: bool, **given: object) -> None:
    """Export a benchmark directory to a peer benchmark's format."""
    peer = PEERS[fmt]
    own = {o.name for o in peer.export_options}
    options = {k: v for k, v in given.items() if v is not None}
    for key in options:
        if key not in own:
            raise ConfigError(f"--{key.replace('_', '-')} does not apply to --format {fmt}")
    if peer.directory:
        if out.exists() and not out.is_dir():
            raise ConfigError(f"{out} is a file; --format {fmt} writes a folder")
        refuse_existing(out, force, "a folder")
    else:
        if out.is_dir():
            raise ConfigError(f"{out} is a folder; --format {fmt} writes a file")
        refuse_existing(out, force, "a file")
    log = peer.export(bench_dir, out, **options)
    click.echo(f"wrote {out} ({fmt})")
    for code, n in log.counts().items():
        click.echo(f"  warning {code}: {n}")
