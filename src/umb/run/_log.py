"""The files of a run directory: an append-only record log that survives being killed.

Layout::

    RUN/header.json        what was run (benchmark hash, systems, models, parameters, versions)
    RUN/records.jsonl      one record per (system, question), appended as each is scored
    RUN/invocations.jsonl  one line per finished ``umb eval`` call (model usage, timings)
    RUN/results.json       aggregates of every record, rewritten at the end of each call
    RUN/cache.sqlite       the response cache (default location)

Each record is written with one ``write`` system call on an ``O_APPEND`` descriptor, so a killed
process leaves at most one partial last line; opening the log drops such a line (it was never
counted) and later appends start on a clean line. ``fsync`` runs at most every
:data:`FSYNC_INTERVAL_S` and on close, which protects against a machine crash as well without
paying a disk flush per record.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import orjson

from umb._errors import ConfigError, DataError
from umb._jsonio import open_regular, write_all

HEADER: Final = "header.json"
RECORDS: Final = "records.jsonl"
INVOCATIONS: Final = "invocations.jsonl"
RESULTS: Final = "results.json"
CACHE: Final = "cache.sqlite"
LOCK: Final = ".lock"

FSYNC_INTERVAL_S: Final = 1.0

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
    """Read a records file, tolerating one unfinished last line.

    Args:
        path: ``records.jsonl``; a missing file reads as no records.
        repair: Cut an unfinished last line off the file (the writer does this on resume);
            otherwise it is only skipped.
        keep: What to hold of each record (say, a few of its fields), so a reader that needs
            little of a large run does not hold all of it.

    Returns:
        The complete records, in file order.

    Raises:
        DataError: A line other than the last is not a JSON object, or a key repeats.
    """
    if not path.exists():
        return []
    records: list[dict[str, Any]] = []
    seen: dict[RecordKey, int] = {}
    offset = 0  # of the line being read
    lineno = 0
    # Line by line, not the whole file at once: a reader that keeps a few fields of each
    # record holds only those. A FIFO or directory is refused, never read.
    with open_regular(path) as f:
        try:
            line = f.readline()
            while line:
                ahead = f.readline()
                lineno += 1
                record = _parse_line(line)
                if record is None or not line.endswith(b"\n"):
                    if not ahead:
                        # A process killed mid-write: that record was never complete, so it
                        # never counted; the question is simply asked again.
                        if repair:
                            with path.open("r+b") as out:
                                out.truncate(offset)
                                os.fsync(out.fileno())
                        break
                    raise DataError(str(path), lineno, "not a JSON record")
                key = record_key(record)
                if key in seen:
                    raise DataError(
                        str(path), lineno,
                        f"duplicate record for {key[0]} / {key[1]} (line {seen[key]})",
                    )  # fmt: skip
                seen[key] = lineno
                records.append(record if keep is None else keep(record))
                offset += len(line)
                line = ahead
        except OSError as e:
            raise DataError(str(path), None, e.strerror or str(e)) from None
    return records


def _parse_line(line: bytes) -> dict[str, Any] | None:
    if not line.strip():
        return None
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(value, dict) or "system" not in value or "question_id" not in value:
        return None
    return value


class RecordLog:
    """Appends records to ``records.jsonl``; one instance per running ``umb eval``.

    Args:
        path: The records file (created if missing).

    Attributes:
        records: Every record in the file, those found at start and those appended since.
        keys: Their (system, question id) keys.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.records = read_records(path, repair=True)
        self.keys = {record_key(r) for r in self.records}
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._last_sync = time.monotonic()
        self._dirty = False

    def append(self, record: dict[str, Any]) -> None:
        """Write one record durably; a key already in the log is a programming error."""
        key = record_key(record)
        if key in self.keys:
            raise ValueError(f"record for {key[0]} / {key[1]} is already in the log")
        line = orjson.dumps(record, default=str, option=orjson.OPT_SERIALIZE_NUMPY) + b"\n"
        write_all(self._fd, line, self.path)
        self.records.append(record)
        self.keys.add(key)
        self._dirty = True
        now = time.monotonic()
        if now - self._last_sync >= FSYNC_INTERVAL_S:
            self.sync()

    def sync(self) -> None:
        """Flush the file to disk."""
        if self._dirty:
            os.fsync(self._fd)
            self._dirty = False
        self._last_sync = time.monotonic()

    def rewrite_without(self, drop: set[RecordKey]) -> int:
        """Atomically rewrite the log without the records in ``drop``; returns how many went.

        Used to ask failed questions again (``--retry-errors``): the file stays one record per
        key, and a kill during the rewrite leaves either the old or the new file.
        """
        keep = [r for r in self.records if record_key(r) not in drop]
        removed = len(self.records) - len(keep)
        if not removed:
            return 0
        tmp = self.path.with_name(f".{self.path.name}.rewrite")
        with tmp.open("wb") as f:
            for r in keep:
                f.write(orjson.dumps(r, default=str, option=orjson.OPT_SERIALIZE_NUMPY) + b"\n")
            f.flush()
            os.fsync(f.fileno())
        os.close(self._fd)
        os.replace(tmp, self.path)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self.records = keep
        self.keys = {record_key(r) for r in keep}
        return removed

    def close(self) -> None:
        """Sync and close the file."""
        if self._fd >= 0:
            self.sync()
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> RecordLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
