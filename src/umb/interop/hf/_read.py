"""Record files read straight into Arrow, and a bad line named when Arrow refuses one.

The dialogues of a large benchmark are most of its bytes: Arrow's JSON reader parses them into
the typed columns in C++, block by block, so no Python object is made per turn.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.json as pj

from umb._errors import DataError
from umb._jsonio import iter_jsonl, open_regular

_MIN_BLOCK = 16 << 20


def _longest_line(path: Path) -> int:
    with open_regular(path) as f:
        return max((len(line) for line in f if line.strip()), default=0)


def arrow_batches(path: Path, schema: pa.Schema) -> Iterator[pa.RecordBatch]:
    """The JSONL file's records as batches of ``schema``; unknown or mistyped fields are errors.

    Raises:
        DataError: ``file:line: path: problem`` of the first line that does not fit.
    """
    # A block must hold the longest line whole (a dialogue of the umb preset is about 1 MB).
    longest = _longest_line(path)
    if longest == 0:
        return  # Arrow refuses an empty stream; an empty file is zero records
    block = max(_MIN_BLOCK, 2 * longest)
    options = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error")
    try:
        reader = pj.open_json(
            path, read_options=pj.ReadOptions(block_size=block), parse_options=options
        )
        yield from reader
    except pa.ArrowInvalid as e:
        raise locate_misfit(path, schema, str(e)) from None


def locate_misfit(path: Path, schema: pa.Schema, arrow_message: str) -> DataError:
    """The DataError of the first line of ``path`` that does not fit ``schema``."""
    lines: Iterator[tuple[int, Any]] = iter_jsonl(path)
    for lineno, obj in lines:
        problem = misfit(obj, pa.struct(list(schema)), "")
        if problem is not None:
            return DataError(str(path), lineno, problem)
    first = arrow_message.strip().splitlines()[0] if arrow_message.strip() else "unreadable"
    return DataError(str(path), None, f"does not fit the export's columns ({first})")


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def misfit(value: Any, t: pa.DataType, where: str) -> str | None:
    """Why ``value`` (parsed JSON) cannot be a ``t`` without loss, or None if it can."""
    name = where or "record"
    if value is None:
        return None
    if pa.types.is_struct(t):
        if not isinstance(value, dict):
            return f"{name}: expected an object, got {_kind(value)}"
        fields = {t.field(i).name: t.field(i).type for i in range(t.num_fields)}
        for key, item in value.items():
            sub = f"{where}.{key}" if where else key
            if key not in fields:
                return f"{sub}: unknown field"
            problem = misfit(item, fields[key], sub)
            if problem:
                return problem
        return None
    if pa.types.is_list(t):
        if not isinstance(value, list):
            return f"{name}: expected a list, got {_kind(value)}"
        for i, item in enumerate(value):
            problem = misfit(item, t.value_type, f"{name}[{i}]")
            if problem:
                return problem
        return None
    expected = {"string": str, "bool": bool}.get(str(t))
    if expected is None and pa.types.is_integer(t):
        if not isinstance(value, int) or isinstance(value, bool):
            return f"{name}: expected an integer, got {_kind(value)}"
        return None
    if expected is not None and not isinstance(value, expected):
        return f"{name}: expected a {t}, got {_kind(value)}"
    return None
