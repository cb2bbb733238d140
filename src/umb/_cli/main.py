"""Entry point of the ``umb`` command: a click group whose verbs load lazily."""

from __future__ import annotations

import importlib
import sys

import click

from umb._errors import UmbError

# verb -> "module:attribute"; each verb lives in its own module under umb._cli.
COMMANDS: dict[str, str] = {
    "generate": "umb._cli.generate:generate",
    "merge": "umb._cli.generate:merge",
    "validate": "umb._cli.validate:validate",
    "stats": "umb._cli.validate:stats",
    "import": "umb._cli.interop:import_group",
    "export": "umb._cli.interop:export",
}


class LazyGroup(click.Group):
    """A group that imports a verb's module only when that verb runs (fast ``umb --help``)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, attr = target.split(":")
        command = getattr(importlib.import_module(module), attr)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, _summary(name)) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


_SUMMARIES: dict[str, str] = {
    "generate": "Generate a benchmark (world, questions, dialogues) from a seed.",
    "merge": "Merge benchmark shards into one directory.",
    "validate": "Re-check a benchmark directory; exit 2 on the first broken record.",
    "stats": "Print counts per family, tokens and sessions per dialogue.",
    "import": "Import a peer benchmark file (LoCoMo, LongMemEval, UMB release).",
    "export": "Export a benchmark directory to a peer benchmark format.",
}


def _summary(name: str) -> str:
    return _SUMMARIES.get(name, "")


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="unifiedmembench")
def cli() -> None:
    """umb: measure memory in LLMs and LLM memory systems."""


def main() -> None:
    """Run the CLI; any UmbError becomes one line on stderr and exit status 2."""
    try:
        rc = cli.main(standalone_mode=False, auto_envvar_prefix="UMB")
    except UmbError as e:
        click.echo(f"umb: error: {e}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("umb: interrupted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo("umb: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        e.show()
        sys.exit(2)
    sys.exit(rc if isinstance(rc, int) else 0)
