"""The record log of ``umb parametric eval``: the log every resumable job writes
(:mod:`umb._recordlog`), one record per (checkpoint, split, item).

A killed run leaves at most one unfinished last line; opening the log drops it and the item is
simply scored again on resume.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from umb._recordlog import KeyedLog, read_keyed_records

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
        DataError: A line other than the last is broken, or a key repeats.
    """
    return read_keyed_records(path, record_key, repair=repair)


def open_log(path: Path) -> KeyedLog[Key]:
    """The record log at ``path``: one record per (checkpoint, split, item)."""
    return KeyedLog(path, record_key)
