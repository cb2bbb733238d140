"""One progress convention for every long command.

``--progress/--no-progress`` on every verb that works for more than a moment; by default a bar
shows only when stderr is a terminal. Forced into a pipe or a file (``--progress`` with stderr
redirected), progress is written as whole lines — never carriage returns — at each tenth of
the total, and in between whenever :data:`HEARTBEAT_S` passed since the last line (so a slow
stretch never looks like a hang).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

PROGRESS_HELP = "Progress on stderr (default: only when stderr is a terminal)."

HEARTBEAT_S = 2.0
"""Seconds after which a line is written on the next advance even between two tenths."""


def progress_option(fn: F) -> F:
    """``--progress/--no-progress`` (``None`` when neither is given)."""
    decorated: F = click.option("--progress/--no-progress", default=None, help=PROGRESS_HELP)(fn)
    return decorated


def wanted(progress: bool | None) -> bool:
    """Whether to show progress: as asked, else when stderr is a terminal."""
    return sys.stderr.isatty() if progress is None else progress


class Progress:
    """A ``(done, total)`` callback that draws a bar on a terminal, lines elsewhere.

    Use as a context manager; ``total`` may change between calls (0 = unknown).
    """

    def __init__(self, label: str, unit: str, progress: bool | None) -> None:
        self.label, self.unit = label, unit
        self.show = wanted(progress)
        self.terminal = sys.stderr.isatty()
        self._bar: Any = None
        self._next = 0
        self._last = (-1, 0.0)  # (done, time) of the last line written

    def __call__(self, done: int, total: int) -> None:
        if not self.show:
            return
        if self.terminal:
            self._draw(done, total)
            return
        now = time.monotonic()
        due = done > self._last[0] and now - self._last[1] >= HEARTBEAT_S
        if done >= self._next or done == total or due:
            print(f"{self.label}: {done:,}/{total:,} {self.unit}", file=sys.stderr, flush=True)
            self._next = done + max(1, total // 10)
            self._last = (done, now)

    def _draw(self, done: int, total: int) -> None:
        if self._bar is None:
            from tqdm import tqdm

            self._bar = tqdm(total=total or None, desc=self.label, unit=self.unit, file=sys.stderr)
        if total and self._bar.total != total:
            self._bar.total = total
        self._bar.update(done - self._bar.n)

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._bar is not None:
            self._bar.close()
