"""The run's progress bars on stderr; tqdm loads only when a bar is shown."""

from __future__ import annotations

import sys
from typing import Any, Protocol


class QuestionBar(Protocol):
    """What the job engine tells of its progress: answers done, and where an ingest is."""

    def update(self, n: int = 1) -> None: ...

    def set_postfix_str(self, text: str) -> None: ...

    def close(self) -> None: ...


class StepBar:
    """A ``(done, total)`` callback on a tqdm bar that appears at its first call."""

    def __init__(self, label: str, unit: str, show: bool) -> None:
        self.label, self.unit, self.show = label, unit, show
        self._bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if not self.show:
            return
        if self._bar is None:
            from tqdm import tqdm

            self._bar = tqdm(total=total or None, desc=self.label, unit=self.unit,
                             file=sys.stderr)  # fmt: skip
        self._bar.update(done - self._bar.n)

    def __enter__(self) -> StepBar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()


class NoBar:
    """The progress bar of a run that shows none."""

    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


def show_progress(progress: bool | None) -> bool:
    """Whether to draw bars: as asked, or when stderr is a terminal if not asked."""
    return sys.stderr.isatty() if progress is None else progress


def question_bar(total: int, progress: bool | None) -> QuestionBar:
    """The bar of a local run's answers, or none."""
    if not show_progress(progress):
        return NoBar()
    from tqdm import tqdm

    # miniters=1: redraw whenever mininterval has passed, even after a fast stretch taught
    # tqdm to wait for many answers (the last dialogues of a big run come slowly).
    bar: QuestionBar = tqdm(total=total, file=sys.stderr, unit="q", desc="eval", smoothing=0.1,
                            miniters=1)  # fmt: skip
    return bar
