"""JSON and JSONL helpers: deterministic bytes, atomic writes, line-numbered errors."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import orjson

from umb._errors import DataError

T = TypeVar("T")


def dumps(obj: Any) -> bytes:
    """Serialise to compact JSON bytes (dataclasses included), key order as given."""
    return orjson.dumps(obj)


def dumps_pretty(obj: Any) -> bytes:
    """Serialise to indented JSON bytes with a trailing newline, for manifests."""
    return orjson.dumps(obj, option=orjson.OPT_INDENT_2) + b"\n"


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class AtomicJsonlWriter:
    """Stream records to a temporary file; rename it into place only on success."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, self._tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        self._file = os.fdopen(fd, "wb", buffering=1 << 20)

    def write(self, record: Any) -> None:
        self._file.write(orjson.dumps(record) + b"\n")

    def write_many(self, records: Iterable[Any]) -> None:
        for r in records:
            self.write(r)

    def __enter__(self) -> AtomicJsonlWriter:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self._file.close()
        if exc_type is None:
            os.chmod(self._tmp, 0o644)
            os.replace(self._tmp, self.path)
        else:
            Path(self._tmp).unlink(missing_ok=True)


def read_json(path: Path) -> Any:
    """Read one JSON document, naming the file in any error."""
    if not path.exists():
        raise DataError(str(path), None, "missing file")
    try:
        return orjson.loads(path.read_bytes())
    except orjson.JSONDecodeError as e:
        raise DataError(str(path), None, f"invalid JSON ({e})") from None


def iter_jsonl(path: Path, parse: Callable[[Any], T] | None = None) -> Iterator[tuple[int, T]]:
    """Yield ``(line_number, record)`` for each non-empty line; errors name file and line."""
    if not path.exists():
        raise DataError(str(path), None, "missing file")
    with path.open("rb") as f:
        for lineno, raw in enumerate(f, start=1):
            if not raw.strip():
                continue
            try:
                obj = orjson.loads(raw)
            except orjson.JSONDecodeError as e:
                raise DataError(str(path), lineno, f"invalid JSON ({e})") from None
            if parse is None:
                yield lineno, obj
                continue
            try:
                yield lineno, parse(obj)
            except (KeyError, TypeError, ValueError) as e:
                raise DataError(
                    str(path), lineno, f"bad record ({type(e).__name__}: {e})"
                ) from None
