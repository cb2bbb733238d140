"""The append-only record log of ``umb parametric eval``.

One JSON line per (checkpoint, split, item), written with a single ``write`` on an append-mode
file, so a killed run leaves at most one unfinished last line; reading drops that line and the
item is simply scored again on resume.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

import orjson

from umb._errors import DataError

RECORDS: Final = "records.jsonl"
HEADER: Final = "header.json"

Key = tuple[int, str, str]
"""(checkpoint stage, split, item id)."""


def record_key(record: dict[str, Any]) -> Key:
    """What a record is unique by."""
    return (int(record["checkpoint_stage"]), str(record["split"]), str(record["item_id"]))


def read_records(path: Path, *, repair: bool = False) -> list[dict[str, Any]]:
    """Every complete record of ``path`` (missing file: none).

    Args:
        path: The records file.
        repair: Cut an unfinished last line off the file before appending to it.

    Raises:
        DataError: A line other than the last is broken.
    """
    if not path.exists():
        return []
    data = path.read_bytes()
    complete = data.rfind(b"\n") + 1  # bytes up to the end of the last finished line
    records: list[dict[str, Any]] = []
    for lineno, raw in enumerate(data[:complete].split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            record = orjson.loads(raw)
        except orjson.JSONDecodeError:
            raise DataError(str(path), lineno, "broken record") from None
        if not isinstance(record, dict):
            raise DataError(str(path), lineno, "record is not a JSON object")
        records.append(record)
    if repair and complete < len(data):
        with path.open("r+b") as f:
            f.truncate(complete)
    return records


class RecordLog:
    """Appends records to ``path``; each is one write, flushed to the OS at once."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.records = read_records(path, repair=True)
        self.done: set[Key] = {record_key(r) for r in self.records}
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def append(self, record: dict[str, Any]) -> None:
        """Write one record (skipped if its key is already there)."""
        key = record_key(record)
        if key in self.done:
            return
        os.write(self._fd, orjson.dumps(record) + b"\n")
        self.done.add(key)
        self.records.append(record)

    def close(self) -> None:
        """Flush to disk and close."""
        os.fsync(self._fd)
        os.close(self._fd)

    def __enter__(self) -> RecordLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
