"""Entry point of the ``umb`` command: a click group whose verbs load lazily."""

from __future__ import annotations

import importlib
import sys

import click

from umb._errors import UmbError

# verb -> ("module:attribute", one-line summary); each verb lives in its own module under
# umb._cli and is imported only when it runs. Add a verb with one entry here.
COMMANDS: dict[str, tuple[str, str]] = {
    "generate": (
        "umb._cli.generate:generate",
        "Generate a benchmark (world, questions, dialogues) from a seed.",
    ),
    "merge": (
        "umb._cli.generate:merge",
        "Merge benchmark shards into one directory.",
    ),
    "render": (
        "umb._cli.render:render",
        "Re-render a benchmark's world as LLM-written, audited dialogues.",
    ),
    "validate": (
        "umb._cli.validate:validate",
        "Re-check a benchmark directory; exit 2 listing each broken record (up to 50).",
    ),
    "stats": (
        "umb._cli.validate:stats",
        "Print counts per family, tokens and sessions per dialogue.",
    ),
    "import": (
        "umb._cli.interop:import_group",
        "Import a peer benchmark file (LoCoMo, LongMemEval, UMB release).",
    ),
    "export": (
        "umb._cli.interop:export",
        "Export a benchmark directory to a peer benchmark format.",
    ),
    "eval": (
        "umb._cli.eval:eval_command",
        "Evaluate memory systems with a model on a benchmark (resumable).",
    ),
    "run": (
        "umb._cli.run:run",
        "Quick start: demo benchmark, six systems, offline model, report.",
    ),
    "report": (
        "umb._cli.report:report",
        "Write a self-contained HTML report of one or more runs.",
    ),
    "statetrack": (
        "umb._cli.statetrack:statetrack",
        "State tracking: build the L01–L34 fact ladder, evaluate a model, export it.",
    ),
    "parametric": (
        "umb._cli.parametric:parametric",
        "Parametric memory: stagewise training and retention.",
    ),
    "attribute": (
        "umb._cli.attribute:attribute",
        "Attribute each failed question of a traced run to its error type and faulty operation.",
    ),
    "trace": (
        "umb._cli.trace:trace_group",
        "Execution traces of a run: draw a question's evidence graph, export them.",
    ),
}


class LazyGroup(click.Group):
    """A group that imports a verb's module only when that verb runs (fast ``umb --help``)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module, attr = entry[0].split(":")
        command = getattr(importlib.import_module(module), attr)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, _summary(name)) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _summary(name: str) -> str:
    return COMMANDS[name][1]


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
