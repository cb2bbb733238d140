"""A trace file followed while its writer appends to it."""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any

import orjson

from umb._errors import DataError
from umb.trace._file import GZIP_MAGIC

Record = tuple[int, dict[str, Any]]
"""A trace record with its line number."""

_READ_BYTES = 1 << 16
"""At most this much of the file per :meth:`TraceTail.read`: a reader that fell behind (it
started late, or the run wrote fast) catches up in steps instead of parsing the whole rest
of the file into memory at once."""


class TraceTail:
    """The records appended to a trace file since the last :meth:`read`, while its writer may
    still be appending (plain or compressed; a member or line not yet whole waits for the next
    read).

    Args:
        path: The trace file (it may not exist yet).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lineno = 0
        self._file: Any = None
        self._compressed: bool | None = None
        self._head = b""  # bytes read before the format is known
        self._unpack: Any = None
        self._text = b""  # the start of a line not yet whole

    def read(self) -> list[Record]:
        """The complete records appended since the last call, read in steps of
        :data:`_READ_BYTES` up to the first that completes a record (call again while it
        returns records).

        Raises:
            DataError: A complete line is not a trace record, or a member is damaged.
        """
        if self._file is None:
            if not self.path.exists():
                return []
            self._file = self.path.open("rb")
        parts = [self._text]
        while data := self._file.read(_READ_BYTES):
            if self._compressed is None:
                self._head += data
                if len(self._head) < 2:
                    continue
                data, self._head = self._head, b""
                self._compressed = data[:2] == GZIP_MAGIC
            part = self._inflate(data) if self._compressed else data
            parts.append(part)
            if b"\n" in part:  # a record is whole: enough for this call
                break
        text = b"".join(parts)
        end = text.rfind(b"\n") + 1
        self._text = text[end:]
        out: list[Record] = []
        for line in text[:end].splitlines():
            self.lineno += 1
            if not line.strip():
                continue
            try:
                rec = orjson.loads(line)
            except orjson.JSONDecodeError as e:
                raise DataError(str(self.path), self.lineno, f"bad trace record ({e})") from None
            if not isinstance(rec, dict) or "t" not in rec:
                raise DataError(str(self.path), self.lineno, "not a trace record")
            out.append((self.lineno, rec))
        return out

    def _inflate(self, data: bytes) -> bytes:
        out: list[bytes] = []
        try:
            while data:
                if self._unpack is None:
                    self._unpack = zlib.decompressobj(31)
                out.append(self._unpack.decompress(data))
                if not self._unpack.eof:
                    break
                data, self._unpack = self._unpack.unused_data, None
        except zlib.error as e:
            raise DataError(str(self.path), None, f"damaged compressed trace ({e})") from None
        return b"".join(out)

    def close(self) -> None:
        """Close the file."""
        if self._file is not None:
            self._file.close()
            self._file = None
