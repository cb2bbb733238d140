"""The README's command table lists every `umb` command, and every option says what it does."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import click

from umb._cli.main import COMMANDS, cli

README = Path(__file__).resolve().parents[2] / "README.md"


def _commands() -> Iterator[tuple[str, click.Command]]:
    """Every command and subcommand, as ``verb sub`` names."""
    ctx = click.Context(cli)

    def walk(name: str, command: click.Command) -> Iterator[tuple[str, click.Command]]:
        yield name, command
        if isinstance(command, click.Group):
            for sub in command.list_commands(ctx):
                found = command.get_command(ctx, sub)
                assert found is not None, f"{name} {sub}"
                yield from walk(f"{name} {sub}", found)

    for verb in COMMANDS:
        command = cli.get_command(ctx, verb)
        assert command is not None, verb
        yield from walk(verb, command)


def _readme_verbs() -> set[str]:
    text = README.read_text(encoding="utf-8")
    table = text.split("## Commands", 1)[1].split("\n\n", 2)[1]
    verbs: set[str] = set()
    for row in table.splitlines()[2:]:
        cell = row.split(" | ")[0]
        verbs.update(re.findall(r"`umb ([a-z-]+)", cell))
    return verbs


def test_readme_table_lists_every_command() -> None:
    missing = sorted(set(COMMANDS) - _readme_verbs())
    assert not missing, f"README.md's command table lacks: {', '.join(missing)}"
    unknown = sorted(_readme_verbs() - set(COMMANDS))
    assert not unknown, f"README.md lists commands that do not exist: {', '.join(unknown)}"


def test_every_command_and_option_has_help() -> None:
    lacking = []
    for name, command in _commands():
        if not (command.help or command.short_help):
            lacking.append(f"umb {name}")
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden and not param.help:
                lacking.append(f"umb {name} {'/'.join(param.opts)}")
    assert not lacking, "no help text: " + "; ".join(lacking)


def test_every_long_command_takes_progress_and_overwriting_needs_force() -> None:
    options = {
        name: {o for p in c.params for o in (*p.opts, *p.secondary_opts)}
        for name, c in _commands()
    }
    for name in ("generate", "render", "validate", "stats", "eval", "run", "report",
                 "statetrack build", "statetrack eval", "parametric train", "parametric eval",
                 "parametric run"):
        assert {"--progress", "--no-progress"} <= options[name], name
        assert "--quiet" not in options[name], name
    for name in ("generate", "merge", "import locomo", "export", "report", "statetrack build",
                 "statetrack export", "statetrack report", "parametric prepare",
                 "parametric retention", "trace show", "trace export"):
        assert "--force" in options[name], name
