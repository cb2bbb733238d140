"""The append-only record log every resumable job writes: ``umb eval``, statetrack, parametric.

One JSON object per line, each written with one ``write`` system call on an ``O_APPEND``
descriptor, so a killed process leaves at most one partial last line; opening the log drops such
a line (it was never counted) and later appends start on a clean line. ``fsync`` runs at most
every :data:`FSYNC_INTERVAL_S` and on close, which protects against a machine crash as well
without paying a disk flush per record.

Each record has a key (what it is unique by), given by the log's ``key`` function. A log either
refuses a repeated key (``umb eval``, parametric: one record per key, ``--retry-errors``
rewrites the file without the failed ones) or lets the newest record of a key count (statetrack,
whose ``--retry-errors`` appends the new answer after the failed one).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Hashable, Iterable, KeysView
from pathlib import Path
from typing import Any, Final, Generic, Literal, TypeVar

import orjson

from umb._errors import DataError
from umb._jsonio import open_regular, write_all

FSYNC_INTERVAL_S: Final = 1.0

K = TypeVar("K", bound=Hashable)
L = TypeVar("L", bound="KeyedLog[Any]")

Record = dict[str, Any]
Repeats = Literal["refuse", "newest"]
"""What a key found twice means: a broken file (``refuse``) or a later answer (``newest``)."""


def _key_text(key: object) -> str:
    return " / ".join(map(str, key)) if isinstance(key, tuple) else str(key)


def _dump(record: Record) -> bytes:
    return orjson.dumps(record, default=str, option=orjson.OPT_SERIALIZE_NUMPY) + b"\n"


def _parse_line(line: bytes, key: Callable[[Record], K]) -> tuple[Record, K] | None:
    """The record of a line and its key, or None when the line is not a whole record."""
    if not line.strip() or not line.endswith(b"\n"):
        return None
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(value, dict):
        return None
    try:
        return value, key(value)
    except (KeyError, TypeError, ValueError):  # a JSON object lacking the key's fields
        return None


def read_keyed_records(
    path: Path,
    key: Callable[[Record], K],
    *,
    repeats: Repeats = "refuse",
    repair: bool = False,
    keep: Callable[[Record], Record] | None = None,
) -> list[Record]:
    """Read a record log, tolerating one unfinished last line.

    Args:
        path: The log; a missing file reads as no records.
        key: What a record is unique by; a line it cannot read is a broken record.
        repeats: Whether a key found twice is refused (``DataError``) or allowed.
        repair: Cut an unfinished last line off the file (the writer does this on resume);
            otherwise it is only skipped.
        keep: What to hold of each record (say, a few of its fields), so a reader that needs
            little of a large log does not hold all of it.

    Returns:
        The complete records, in file order.

    Raises:
        DataError: A line other than the last is not a record, or (``refuse``) a key repeats.
    """
    if not path.exists():
        return []
    records: list[Record] = []
    seen: dict[Hashable, int] = {}
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
                if not line.strip() and line.endswith(b"\n"):  # a blank line between records
                    offset += len(line)
                    line = ahead
                    continue
                parsed = _parse_line(line, key)
                if parsed is None:
                    if not ahead:
                        # A process killed mid-write: that record was never complete, so it
                        # never counted; its work is simply done again.
                        if repair:
                            with path.open("r+b") as out:
                                out.truncate(offset)
                                os.fsync(out.fileno())
                        break
                    raise DataError(str(path), lineno, "not a JSON record")
                record, k = parsed
                if repeats == "refuse" and k in seen:
                    raise DataError(
                        str(path), lineno,
                        f"duplicate record for {_key_text(k)} (line {seen[k]})",
                    )  # fmt: skip
                seen[k] = lineno
                records.append(record if keep is None else keep(record))
                offset += len(line)
                line = ahead
        except OSError as e:
            raise DataError(str(path), None, e.strerror or str(e)) from None
    return records


class KeyedLog(Generic[K]):
    """Appends records to one log file; one instance per running job.

    Args:
        path: The log file (created, with its folder, if missing; an unfinished last line is
            cut off).
        key: What a record is unique by.
        repeats: ``refuse``: appending a key already there is a programming error;
            ``newest``: it is a later answer, and :attr:`latest` holds it.

    Attributes:
        records: Every record in the file, those found at start and those appended since.
        latest: Key -> its newest record.
    """

    def __init__(
        self, path: Path, key: Callable[[Record], K], *, repeats: Repeats = "refuse"
    ) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.key = key
        self.repeats = repeats
        self.records = read_keyed_records(path, key, repeats=repeats, repair=True)
        self.latest: dict[K, Record] = {key(r): r for r in self.records}
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._last_sync = time.monotonic()
        self._dirty = False

    @property
    def keys(self) -> KeysView[K]:
        """The keys that have a record (a live view)."""
        return self.latest.keys()

    def __contains__(self, key: object) -> bool:
        return key in self.latest

    def append(self, record: Record) -> None:
        """Write one record durably.

        Raises:
            ValueError: (``refuse``) Its key is already in the log.
        """
        k = self.key(record)
        if self.repeats == "refuse" and k in self.latest:
            raise ValueError(f"record for {_key_text(k)} is already in the log")
        write_all(self._fd, _dump(record), self.path)
        self.records.append(record)
        self.latest[k] = record
        self._dirty = True
        if time.monotonic() - self._last_sync >= FSYNC_INTERVAL_S:
            self.sync()

    def sync(self) -> None:
        """Flush the file to disk."""
        if self._dirty:
            os.fsync(self._fd)
            self._dirty = False
        self._last_sync = time.monotonic()

    def rewrite_without(self, drop: Iterable[K]) -> int:
        """Atomically rewrite the log without the records of ``drop``; returns how many went.

        Used to do failed work again (``--retry-errors``) while the file stays one record per
        key; a kill during the rewrite leaves either the old or the new file.
        """
        dropped = set(drop)
        keep = [r for r in self.records if self.key(r) not in dropped]
        removed = len(self.records) - len(keep)
        if not removed:
            return 0
        tmp = self.path.with_name(f".{self.path.name}.rewrite")
        with tmp.open("wb") as f:
            for r in keep:
                f.write(_dump(r))
            f.flush()
            os.fsync(f.fileno())
        os.close(self._fd)
        os.replace(tmp, self.path)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self.records = keep
        self.latest = {self.key(r): r for r in keep}
        return removed

    def close(self) -> None:
        """Sync and close the file (a second call does nothing)."""
        if self._fd >= 0:
            self.sync()
            os.close(self._fd)
            self._fd = -1

    def __enter__(self: L) -> L:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
