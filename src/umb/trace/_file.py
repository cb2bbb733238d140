"""The trace file: append-only JSONL, written in batches, read back tolerating a torn tail."""

from __future__ import annotations

import gzip
import os
import threading
import zlib
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from umb._errors import DataError
from umb._jsonio import read_bytes, write_all

FORMAT_NAME = "umb-trace"
FORMAT_VERSION = 3
"""3: runs of numbered reads as one entry (:mod:`umb.trace._runs`); 2: benchmark inputs by
reference (:mod:`umb.trace._inputs`). Versions 1 and 2 are still read."""

COMPRESSED_SUFFIX = ".gz"
"""A trace file whose name ends so is written as gzip members, one per batch (see below)."""

GZIP_LEVEL = 1
"""zlib level of a batch: JSON lines compress 4–5× at level 1, and level 6 gains little more
on batches this short while costing twice the CPU."""

GZIP_MAGIC = b"\x1f\x8b"


def is_compressed(path: Path) -> bool:
    """Whether ``path`` names a compressed trace (written and read as gzip members)."""
    return path.name.endswith(COMPRESSED_SUFFIX)


def gzip_member(data: bytes) -> bytes:
    """``data`` as one complete gzip member.

    A compressed trace is a sequence of members, one per written batch: ``gzip -dc`` (or
    ``zcat``) reads it whole, and a writer killed inside a write leaves at most one incomplete
    last member, which the readers drop as they drop a torn last line.
    """
    packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 31)
    return packer.compress(data) + packer.flush()


DUMP_OPTS = orjson.OPT_APPEND_NEWLINE | orjson.OPT_SERIALIZE_NUMPY
"""orjson options of a trace line (used with ``default=json_fallback``).

Non-string dict keys are not among them: that option makes every dict slower to serialise, so a
record that needs it goes through :func:`dump_record`'s slow path instead.
"""


def json_fallback(obj: Any) -> Any:
    """orjson ``default``: anything not JSON is recorded as its ``repr``."""
    # A free attribute that is not JSON must not cost the batch it sits in.
    return _clean(repr(obj))


def dump_record(record: dict[str, Any]) -> bytes:
    """Serialise one record as a JSON line, whatever free attributes it carries."""
    try:
        return orjson.dumps(record, default=json_fallback, option=DUMP_OPTS)
    except orjson.JSONEncodeError:
        return orjson.dumps(_clean(record), default=json_fallback, option=DUMP_OPTS)


def _clean(obj: Any) -> Any:
    # The slow path: keys that are not strings, and text with lone surrogates (not UTF-8).
    if isinstance(obj, str):
        return obj.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    if isinstance(obj, dict):
        return {_clean(k if isinstance(k, str) else repr(k)): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    return obj


class TraceFileWriter:
    """Queues records and appends them to the file in one write per batch.

    Appending is safe from many threads without a lock (``deque.append`` is atomic), and a record
    queued while a batch is being written simply waits for the next batch. A crash loses at most
    the queued records; a kill during a write leaves at most one torn last line, which the reader
    skips and :meth:`cut_torn_tail` removes before a resumed run appends.
    """

    def __init__(
        self, path: Path, *, flush_every: int = 512, fsync: bool = False, compress: bool = False
    ) -> None:
        if flush_every < 1:
            raise ValueError("flush_every must be at least 1")
        self.path = path
        self.flush_every = flush_every
        self.fsync = fsync
        self.compress = compress
        """Write each batch as one gzip member (:func:`gzip_member`)."""
        self.records_written = 0
        self.queue: deque[bytes] = deque()
        """Serialised records waiting for the next batch (a hot path may append here directly)."""
        self._lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fd: int | None = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    def cut_torn_tail(self, valid_bytes: int) -> None:
        """Cut the file to ``valid_bytes`` (dropping a torn last line) before appending to it."""
        if self._fd is not None and os.fstat(self._fd).st_size > valid_bytes:
            os.ftruncate(self._fd, valid_bytes)

    def append(self, record: dict[str, Any]) -> None:
        """Queue one record; writes the batch once ``flush_every`` records are queued.

        The record is serialised now: what is recorded cannot change afterwards, and a queue of
        bytes costs the garbage collector nothing.
        """
        self.queue.append(dump_record(record))
        if len(self.queue) >= self.flush_every:
            self.flush()

    def flush(self) -> None:
        """Write every queued record now."""
        with self._lock:
            if self._fd is None or not self.queue:
                return
            buf = self.queue
            n = len(buf)
            data = b"".join([buf.popleft() for _ in range(n)])
            write_all(self._fd, gzip_member(data) if self.compress else data, self.path)
            if self.fsync:
                os.fsync(self._fd)
            self.records_written += n

    @property
    def pending(self) -> int:
        """Records queued but not yet written."""
        return len(self.queue)

    def close(self) -> None:
        """Flush and close; later calls do nothing."""
        if self._fd is None:
            return
        try:
            self.flush()
        finally:
            with self._lock:
                if self._fd is not None:
                    os.close(self._fd)
                    self._fd = None


@dataclass
class RawTrace:
    """Every parseable record of a trace file, in file order."""

    path: Path
    records: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """``(line number, record)`` pairs."""
    valid_bytes: int = 0
    """Offset just past the last complete, parseable line."""
    torn_tail: bool = False
    """Whether the last line was incomplete or unparseable (and was skipped)."""


def scan_trace(path: Path) -> RawTrace:
    """Parse a trace file; only its last line may be damaged (it is then skipped).

    A compressed trace is read member by member: an incomplete last member (its writer was
    killed) is a torn tail, and ``valid_bytes`` is then where that member starts.

    Raises:
        DataError: The file is missing, or a line other than the last is not a JSON object
            (in a compressed trace: a member before the last is damaged).
    """
    if not path.exists():
        raise DataError(str(path), None, "missing trace file")
    data = read_bytes(path)
    raw = RawTrace(path)
    if data[:2] != GZIP_MAGIC:
        raw.valid_bytes = _parse_lines(data, raw)
        return raw
    text, raw.valid_bytes, raw.torn_tail = _inflate(data, path)
    if _parse_lines(text, raw) < len(text):
        # Every member ends with a whole line: a bad line inside one is damage, not a kill.
        raise DataError(str(path), len(raw.records) + 1, "bad trace record in a complete batch")
    return raw


def _parse_lines(data: bytes, raw: RawTrace) -> int:
    """Add the records of ``data`` to ``raw``; returns the offset past the last good line."""
    path = raw.path
    pos = valid = 0
    lineno = 0
    size = len(data)
    while pos < size:
        end = data.find(b"\n", pos)
        lineno += 1
        if end == -1:
            # No newline: the writer died inside this line's write; whatever parses is not trusted.
            raw.torn_tail = bool(data[pos:].strip())
            break
        line = data[pos:end]
        pos = end + 1
        if line.strip():
            try:
                rec = orjson.loads(line)
                if not isinstance(rec, dict) or "t" not in rec:
                    raise ValueError("not a trace record")
            except (orjson.JSONDecodeError, ValueError) as e:
                if pos >= size:
                    raw.torn_tail = True
                    break
                raise DataError(str(path), lineno, f"bad trace record ({e})") from None
            raw.records.append((lineno, rec))
        valid = pos
    return valid


_INFLATE_CHUNK = 1 << 16


def _inflate(data: bytes, path: Path) -> tuple[bytes, int, bool]:
    """The text of a compressed trace, the offset past its last complete member, and whether
    an incomplete member followed it."""
    parts: list[bytes] = []
    view = memoryview(data)
    pos, size = 0, len(data)
    while pos < size:
        start = pos
        unpack = zlib.decompressobj(31)
        member: list[bytes] = []
        try:
            # Fed in chunks, so that what is left after a member's end is at most one chunk
            # (``unused_data`` is a copy).
            while not unpack.eof and pos < size:
                chunk = view[pos : pos + _INFLATE_CHUNK]
                pos += len(chunk)
                member.append(unpack.decompress(chunk))
        except zlib.error as e:  # a cut write leaves a member short, not wrong: this is damage
            raise DataError(str(path), None, f"damaged compressed trace at byte {start} ({e})"
                            ) from None  # fmt: skip
        if not unpack.eof:
            return b"".join(parts), start, True
        pos -= len(unpack.unused_data)
        parts.append(b"".join(member))
    return b"".join(parts), pos, False


class TraceLines:
    """The lines of a trace file, plain or compressed, read one at a time.

    The last line of a torn file comes without its newline (an incomplete last member yields
    what it holds, cut where the write stopped). :meth:`position` is how far into the file
    (its bytes on disk) the reading has come, for progress.

    Raises:
        DataError: The file is missing, or (while iterating) a compressed member before the
            last is damaged.
    """

    def __init__(self, path: Path) -> None:
        if not path.exists():
            raise DataError(str(path), None, "missing trace file")
        self.path = path
        self.torn = False
        """Set once iterating met an incomplete last member (a compressed file's torn tail)."""
        self._file = path.open("rb")

    def position(self) -> int:
        """Bytes of the file read so far."""
        return self._file.tell()

    def __iter__(self) -> Iterator[bytes]:
        f = self._file
        try:
            if f.read(2) != GZIP_MAGIC:
                f.seek(0)
                yield from f
                return
            f.seek(0)
            with gzip.GzipFile(fileobj=f, mode="rb") as unpacked:
                try:
                    yield from unpacked
                except EOFError:  # an incomplete last member: what it held has been yielded
                    self.torn = True
                except (OSError, zlib.error) as e:
                    raise DataError(str(self.path), None, f"damaged compressed trace ({e})"
                                    ) from None  # fmt: skip
        finally:
            f.close()
