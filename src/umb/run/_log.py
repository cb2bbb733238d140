"""The files of a run directory, and its record log (an :class:`umb._recordlog.KeyedLog`).

Layout::

    RUN/header.json        what was run (benchmark hash, systems, models, parameters, versions)
    RUN/records.jsonl      one record per (system, question), appended as each is scored
    RUN/invocations.jsonl  one line per finished ``umb eval`` call (model usage, timings)
    RUN/results.json       aggregates of every record, rewritten at the end of each call
    RUN/cache.sqlite       the response cache (default location)

``records.jsonl`` is append-only and survives being killed (:mod:`umb._recordlog`): a kill
leaves at most one partial last line, dropped when the log is next opened.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import orjson

from umb._errors import ConfigError
from umb._jsonio import write_all
from umb._recordlog import KeyedLog, read_keyed_records

HEADER: Final = "header.json"
RECORDS: Final = "records.jsonl"
INVOCATIONS: Final = "invocations.jsonl"
RESULTS: Final = "results.json"
CACHE: Final = "cache.sqlite"
LOCK: Final = ".lock"

RecordKey = tuple[str, str]
"""(system, question id): what a record is unique by."""


def record_key(record: dict[str, Any]) -> RecordKey:
    """The (system, question id) of a record."""
    return (str(record["system"]), str(record["question_id"]))


def read_records(
    path: Path,
    *,
    repair: bool = False,
    keep: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Read ``records.jsonl`` (:func:`umb._recordlog.read_keyed_records`, one record per
    (system, question id)); a missing file reads as no records.

    Raises:
        DataError: A line other than the last is not a JSON record, or a key repeats.
    """
    return read_keyed_records(path, record_key, repair=repair, keep=keep)


class RecordLog(KeyedLog[RecordKey]):
    """Appends records to ``records.jsonl``, one per (system, question id); one instance per
    running ``umb eval``.

    Args:
        path: The records file (created if missing).
    """

    def __init__(self, path: Path) -> None:
        super().__init__(path, record_key)


def append_line(path: Path, obj: Any) -> None:
    """Append one JSON line to ``path`` and sync it (for the small invocation log)."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        write_all(fd, orjson.dumps(obj, option=orjson.OPT_SERIALIZE_NUMPY) + b"\n", path)
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def run_lock(run_dir: Path, *, wait: bool = False) -> Iterator[None]:
    """Hold an exclusive lock on ``run_dir`` so two evaluations never append to one log.

    Args:
        run_dir: The directory to lock (created if missing).
        wait: Wait for the lock instead of failing (a unit's partition, whose previous worker
            may still be winding down after its driver was killed).

    Raises:
        ConfigError: Another process holds the lock (and ``wait`` is false).
    """
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks; runs are trusted not to overlap.
        yield
        return
    run_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(run_dir / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ConfigError(
                f"{run_dir} is in use by another umb eval; wait for it or pick another --out"
            ) from None
        yield
    finally:
        os.close(fd)
