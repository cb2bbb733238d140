"""Entry point of the ``umb`` command: a click group whose verbs load lazily."""

from __future__ import annotations

import gc
import importlib
import sys
from typing import NoReturn

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
        "umb._cli.stats:stats",
        "Counts per family, tokens and sessions per dialogue; --style: surface statistics.",
    ),
    "audit": (
        "umb._cli.audit:audit",
        "Audit a benchmark with shortcut baselines; exit 1 naming a family over its threshold.",
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
    "score": (
        "umb._cli.score:score",
        "Score a predictions file made outside umb, as the peers' authors do.",
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
    "memory-metrics": (
        "umb._cli.memory_metrics:memory_metrics",
        "Measure what each memory system of a traced run extracted, fabricated, updated, lost.",
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


def os_error_line(err: OSError) -> str:
    """One line naming the path and the problem: ``out/records.jsonl: No space left on device``."""
    reason = err.strerror or str(err)
    if isinstance(err, (FileExistsError, NotADirectoryError)):
        reason += " (a file stands where a directory belongs)"
    paths = [p for p in (err.filename, err.filename2) if p is not None]
    return f"{' -> '.join(map(str, paths))}: {reason}" if paths else reason


def main() -> None:
    """Run the CLI; bad input and environment errors become one line on stderr and exit 2.

    Exit status (docs/errors.md): 0 done, 2 bad input, configuration or environment, 3 every
    model call failed, 130 interrupted; anything else that escapes is a bug and keeps Python's
    traceback (exit 1).
    """
    try:
        rc = cli.main(standalone_mode=False, auto_envvar_prefix="UMB")
    except UmbError as e:
        _fail(str(e), e.exit_status)
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("umb: interrupted", err=True)
        sys.exit(130)
    except click.UsageError as e:
        hint = f" (see `{e.ctx.command_path} --help`)" if e.ctx is not None else ""
        _fail(f"{e.format_message()}{hint}")
    except click.ClickException as e:
        _fail(e.format_message())
    except OSError as e:  # the file and CLI edge: disk full, read-only, permission, …
        _fail(os_error_line(e))
    sys.exit(rc if isinstance(rc, int) else 0)


def entry() -> None:
    """The ``umb`` program (console script, ``python -m umb``): :func:`main`, then an exit
    that spares the interpreter's last collections over every object still alive (about
    0.2 s after an ``umb eval``); what the command wrote is written by then."""
    try:
        main()
    finally:
        gc.freeze()
        gc.disable()


def _fail(message: str, status: int = 2) -> NoReturn:
    click.echo(f"umb: error: {' '.join(message.split())}", err=True)
    sys.exit(status)
