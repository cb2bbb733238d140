"""JSON and JSONL helpers: deterministic bytes, atomic writes, line-numbered errors."""

from __future__ import annotations

import functools
import os
import re
import stat
import tempfile
from collections.abc import Callable, Hashable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, TypeVar, cast

import msgspec
import orjson

from umb._errors import DataError

T = TypeVar("T")

MAX_NESTING = 128
"""Deepest nesting of arrays and objects read from a file (a benchmark record needs 6).

Deeper input is refused as ``file:line: nested too deeply (limit 128)``: msgspec would
otherwise recurse until Python's limit (a traceback), and orjson writes at most 254 levels, so
a record read with more could not be written back."""

_BRACKETS = b"[]{}"
_NOT_BRACKETS = bytes(b for b in range(256) if b not in _BRACKETS)
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')


@functools.cache
def _steps() -> Any:
    import numpy as np  # deferred: only lines with many brackets need it

    steps = np.zeros(256, dtype=np.int32)
    steps[list(b"[{")] = 1
    steps[list(b"]}")] = -1
    return steps


def _depth_bound(brackets: bytes) -> int:
    """The deepest nesting of a string of brackets alone (closers assumed to match)."""
    import numpy as np

    return int(_steps()[np.frombuffer(brackets, dtype=np.uint8)].cumsum().max(initial=0))


def _blank_strings(data: bytes) -> bytes:
    return _STRING.sub(lambda m: b" " * len(m[0]), data)  # offsets kept, for line numbers


def nesting_depth(data: bytes) -> int:
    """How deeply the JSON text ``data`` nests arrays and objects (brackets in strings skipped)."""
    bound = _depth_bound(data.translate(None, _NOT_BRACKETS))
    if bound <= MAX_NESTING:  # brackets inside strings only ever add to the bound
        return bound
    return _depth_bound(_blank_strings(data).translate(None, _NOT_BRACKETS))


def _line_too_deep(data: bytes) -> int:
    """The 1-based line of ``data`` where the nesting first passes :data:`MAX_NESTING`."""
    import numpy as np

    depth = _steps()[np.frombuffer(_blank_strings(data), dtype=np.uint8)].cumsum()
    return data.count(b"\n", 0, int(np.argmax(depth > MAX_NESTING))) + 1


def check_nesting(path: Path, data: bytes, line: int | None = None) -> None:
    """Raise the DataError of ``data`` nesting deeper than :data:`MAX_NESTING`.

    Costs two ``bytes.count`` calls unless the text holds more brackets than the limit, and
    a pass of ``bytes.translate`` if it does.

    Args:
        line: The line ``data`` is (JSONL); None for a whole file, whose line is found.
    """
    if data.count(b"[") + data.count(b"{") <= MAX_NESTING or nesting_depth(data) <= MAX_NESTING:
        return
    where = line if line is not None else _line_too_deep(data)
    raise DataError(str(path), where, f"nested too deeply (limit {MAX_NESTING})")


@functools.cache
def _holds_free_json(kind: Hashable) -> bool:
    """Whether ``kind`` has a field of any JSON (``Any``), which keeps nesting as deep as it is.

    A type without one decodes to a fixed depth, unknown fields skipped; deep input then fails
    only in msgspec's own recursion guard, caught as the same error, so its lines need no scan.
    """
    from msgspec import inspect

    seen: set[int] = set()

    def walk(node: Any) -> bool:
        if isinstance(node, inspect.AnyType):
            return True
        if id(node) in seen:
            return False
        seen.add(id(node))
        children = [getattr(node, a) for a in ("item_type", "key_type", "value_type")
                    if hasattr(node, a)]  # fmt: skip
        children += [*getattr(node, "item_types", ()), *getattr(node, "types", ())]
        children += [f.type for f in getattr(node, "fields", ())]
        return any(walk(child) for child in children)

    return walk(inspect.type_info(kind))


def _too_deep(path: Path, line: int | None) -> DataError:
    # msgspec's own recursion guard fired (a very deep call stack): the same error.
    return DataError(str(path), line, f"nested too deeply (limit {MAX_NESTING})")


def dumps(obj: Any) -> bytes:
    """Serialise to compact JSON bytes (dataclasses included), key order as given."""
    return orjson.dumps(obj)


def dumps_pretty(obj: Any) -> bytes:
    """Serialise to indented JSON bytes with a trailing newline, for manifests."""
    return orjson.dumps(obj, option=orjson.OPT_INDENT_2) + b"\n"


def write_all(fd: int, data: bytes, path: Path) -> None:
    """Write all of ``data`` to ``fd``; an OSError (disk full, quota) names ``path``.

    One ``write`` in practice; the loop covers short writes. What a failed call wrote is a torn
    last line, which the readers of append-only logs drop.
    """
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view) :]
    except OSError as e:
        raise OSError(e.errno, e.strerror, str(path)) from None


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


def open_regular(path: Path) -> IO[bytes]:
    """Open ``path`` for reading only if it is a regular file; every failure is a DataError.

    The file is opened non-blocking and checked with ``fstat`` before any read, so a FIFO where
    a file belongs is refused instead of blocking forever.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise DataError(str(path), None, "missing file") from None
    except IsADirectoryError:
        raise DataError(str(path), None, "is a directory, not a file") from None
    except OSError as e:
        raise DataError(str(path), None, e.strerror or str(e)) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = "a directory" if stat.S_ISDIR(mode) else "a FIFO or device"
        raise DataError(str(path), None, f"is {kind}, not a file")
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def read_bytes(path: Path) -> bytes:
    """The bytes of the regular file ``path`` (see :func:`open_regular`)."""
    with open_regular(path) as f:
        try:
            return f.read()
        except OSError as e:
            raise DataError(str(path), None, e.strerror or str(e)) from None


def json_error(path: Path, data: bytes, err: orjson.JSONDecodeError, line: int = 0) -> DataError:
    """A DataError at the line and column of a JSON syntax error (``line`` offsets JSONL)."""
    if not data.strip():
        return DataError(str(path), line or None, "empty file, expected JSON")
    # The parser reports an unterminated document at the line after its last newline.
    lines = max(1, data.rstrip(b"\r\n").count(b"\n") + 1)
    return DataError(
        str(path), line + min(err.lineno, lines), f"invalid JSON at column {err.colno}: {err.msg}"
    )


def read_json(path: Path) -> Any:
    """Read one JSON document, naming the file, line and column in any error."""
    data = read_bytes(path)
    check_nesting(path, data)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as e:
        raise json_error(path, data, e) from None


def validation_reason(err: msgspec.ValidationError) -> str:
    """``field: problem`` from msgspec's ``Expected `str`, got `null` - at `$.query` ``."""
    text = str(err)
    problem, _, where = text.partition(" - at `")
    field = where.rstrip("`").removeprefix("$").lstrip(".")
    problem = problem.replace("`", "")
    problem = f"{problem[:1].lower()}{problem[1:]}"
    return f"{field}: {problem}" if field else problem


def decode_error(path: Path, data: bytes, err: msgspec.DecodeError, line: int = 0) -> DataError:
    """The DataError of a msgspec failure: ``field: problem``, or the JSON syntax error."""
    if isinstance(err, msgspec.ValidationError):
        return DataError(str(path), line or None, validation_reason(err))
    try:
        orjson.loads(data)
    except orjson.JSONDecodeError as e:
        return json_error(path, data, e, max(line - 1, 0))
    return DataError(str(path), line or None, f"invalid JSON ({err})")


def read_typed(path: Path, kind: type[T]) -> T:
    """Read one JSON document into the declared type ``kind`` (errors as :func:`decode_error`)."""
    data = read_bytes(path)
    check_nesting(path, data)
    try:
        return msgspec.json.decode(data, type=kind)
    except msgspec.DecodeError as e:
        raise decode_error(path, data, e) from None
    except RecursionError:
        raise _too_deep(path, None) from None


def iter_typed(
    path: Path,
    kind: type[T],
    on_error: Callable[[DataError], None] | None = None,
    keep: Callable[[bytes], bool] | None = None,
) -> Iterator[tuple[int, T]]:
    """Yield ``(line_number, record)`` decoded straight into the declared type ``kind``.

    Args:
        on_error: Called with each bad line's error, and reading goes on; None raises it.
        keep: Called with each raw line first; a line it rejects is skipped undecoded.

    Raises:
        DataError: ``file:line: field: problem`` at the first line that breaks the declaration.
    """
    decoder = msgspec.json.Decoder(kind)
    scan = _holds_free_json(cast(Hashable, kind))
    for lineno, raw in _lines(path):
        if keep is not None and not keep(raw):
            continue
        try:
            if scan and raw.count(b"[") + raw.count(b"{") > MAX_NESTING:
                check_nesting(path, raw, lineno)
            record = decoder.decode(raw)
        except msgspec.DecodeError as e:
            err = decode_error(path, raw, e, lineno)
        except RecursionError:
            err = _too_deep(path, lineno)
        except DataError as e:
            err = e
        else:
            yield lineno, record
            continue
        if on_error is None:
            raise err from None
        on_error(err)


def iter_jsonl(path: Path, parse: Callable[[Any], T] | None = None) -> Iterator[tuple[int, T]]:
    """Yield ``(line_number, record)`` for each non-empty line; errors name file and line."""
    for lineno, raw in _lines(path):
        check_nesting(path, raw, lineno)
        try:
            obj = orjson.loads(raw)
        except orjson.JSONDecodeError as e:
            raise json_error(path, raw, e, lineno - 1) from None
        if parse is None:
            yield lineno, obj
            continue
        try:
            yield lineno, parse(obj)
        except msgspec.ValidationError as e:
            raise DataError(str(path), lineno, validation_reason(e)) from None
        except (KeyError, TypeError, ValueError) as e:
            raise DataError(str(path), lineno, f"bad record ({type(e).__name__}: {e})") from None


def _lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """``(line_number, line)`` of each non-blank line of the regular file ``path``."""
    with open_regular(path) as f:
        for lineno, raw in enumerate(f, start=1):
            if raw.strip():
                yield lineno, raw
