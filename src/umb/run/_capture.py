"""Other libraries' log messages and warnings during a run go to ``RUN/run.log``, not stderr.

A library under test (mem0 warns that spaCy's model is missing, once per memory) must not
scribble over umb's own output; its messages are kept, with their logger names, in the run
directory, and the command says how many there were. umb's own log messages still reach stderr.
"""

from __future__ import annotations

import logging
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final

RUN_LOG: Final = "run.log"
"""Third-party log messages and warnings of the runs made in a run directory, appended."""

_FORMAT = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")


@dataclass
class Captured:
    """What :func:`capture_third_party` kept."""

    path: Path
    messages: int = 0
    """Third-party messages (log records and warnings) written to :attr:`path`."""


class _Handler(logging.Handler):
    def __init__(self, captured: Captured) -> None:
        super().__init__(logging.WARNING)
        self.captured = captured

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = _FORMAT.format(record)
            if record.name == "umb" or record.name.startswith("umb."):
                print(record.getMessage(), file=sys.stderr)  # what logging's last resort does
                return
            self.captured.path.parent.mkdir(parents=True, exist_ok=True)
            with self.captured.path.open("a", encoding="utf-8") as f:
                f.write(line + "\n")
            self.captured.messages += 1
        except Exception:  # noqa: BLE001 - logging must never break the run
            self.handleError(record)


@contextmanager
def capture_third_party(run_dir: Path) -> Iterator[Captured]:
    """Send WARNING-and-above log records and Python warnings to ``run_dir/run.log``."""
    captured = Captured(run_dir / RUN_LOG)
    handler = _Handler(captured)
    root = logging.getLogger()
    root.addHandler(handler)
    logging.captureWarnings(True)
    try:
        with warnings.catch_warnings():
            yield captured
    finally:
        logging.captureWarnings(False)
        root.removeHandler(handler)
