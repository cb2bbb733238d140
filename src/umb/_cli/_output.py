"""One convention for output paths: a command never replaces what is already there unless it is
given ``--force`` (commands that resume, such as ``umb eval``, add to their output instead)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from umb._errors import ConfigError

F = TypeVar("F", bound=Callable[..., Any])


def force_option(what: str) -> Callable[[F], F]:
    """``--force``: overwrite ``what`` when the output path already holds it."""

    def decorate(fn: F) -> F:
        decorated: F = click.option(
            "--force", is_flag=True, help=f"Overwrite {what} if the output path holds one."
        )(fn)
        return decorated

    return decorate


def refuse_existing(path: Path, force: bool, what: str, *, marker: str | None = None) -> None:
    """Refuse to write over ``path`` unless ``force``.

    ``path`` holds output when it is a file or a non-empty folder; with ``marker``, when
    ``path/marker`` exists (``manifest.json`` marks a benchmark, ``index.html`` a report).

    Raises:
        ConfigError: ``path`` holds output and ``force`` is false (one line, exit 2).
    """
    if force or not path.exists():
        return
    if marker is not None:
        taken = (path / marker).exists()
    else:
        taken = not path.is_dir() or any(path.iterdir())
    if taken:
        raise ConfigError(f"{path} already holds {what}; pass --force to overwrite it")
