"""Compressed traces (``*.jsonl.gz``): one gzip member per batch, read like plain ones, a killed
writer's incomplete member dropped as a torn tail, and a file followed while it grows."""

from __future__ import annotations

import gzip
from pathlib import Path

import orjson
import pytest

from conftest import record_pipeline
from umb import DataError
from umb.trace import TraceConfig, Tracer, TraceTail, _tail, operation, read_trace
from umb.trace._file import gzip_member, scan_trace


def _write(path: Path, flush_every: int = 4) -> None:
    tracer = Tracer(path, config=TraceConfig(flush_every=flush_every))
    record_pipeline(tracer)
    tracer.close()


def _strip_times(records: list[dict]) -> list[dict]:
    drop = {"time", "start", "dur_us"}
    return [{k: v for k, v in r.items() if k not in drop} for r in records]


def test_a_compressed_trace_holds_what_a_plain_one_does(tmp_path: Path) -> None:
    plain, packed = tmp_path / "t.jsonl", tmp_path / "t.jsonl.gz"
    _write(plain)
    _write(packed)
    assert packed.read_bytes()[:2] == b"\x1f\x8b"
    # zcat reads it: every batch is a whole gzip member
    unpacked = gzip.decompress(packed.read_bytes())
    lines = [orjson.loads(x) for x in unpacked.splitlines()]
    plain_lines = [orjson.loads(x) for x in plain.read_bytes().splitlines()]
    assert _strip_times(lines) == _strip_times(plain_lines)
    a, b = read_trace(plain), read_trace(packed)
    assert [(o.id, o.name, o.reads, o.writes) for o in a.ops] == [
        (o.id, o.name, o.reads, o.writes) for o in b.ops
    ]
    assert a.issues == b.issues == []


def test_an_incomplete_last_member_is_a_torn_tail_and_resume_cuts_it(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl.gz"
    _write(path)
    whole = path.read_bytes()
    complete = len(read_trace(path).ops)
    # A writer killed inside its write leaves the first part of a member.
    path.write_bytes(whole + gzip_member(b'{"t":"op","id":"run1/99"}\n' * 50)[:-30])
    raw = scan_trace(path)
    assert raw.torn_tail and raw.valid_bytes == len(whole)
    assert len(read_trace(path).ops) == complete and read_trace(path).torn_tail
    resumed = Tracer(path, resume=True)
    with resumed.activate(), resumed.question("Q-late"), operation("late", writes=["x:late"]):
        pass
    resumed.close()
    assert gzip.decompress(path.read_bytes())  # whole members again
    trace = read_trace(path)
    assert not trace.torn_tail and len(trace.ops) == complete + 1


def test_a_damaged_member_before_the_last_is_refused_with_the_file_named(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl.gz"
    _write(path)
    data = bytearray(path.read_bytes())
    data[12:40] = b"\xff" * 28  # inside the first member's deflate stream
    path.write_bytes(bytes(data) + gzip_member(b'{"t":"close","time":1}\n'))
    with pytest.raises(DataError, match=r"t\.jsonl\.gz: damaged compressed trace at byte 0"):
        read_trace(path)


@pytest.mark.parametrize("name", ["t.jsonl", "t.jsonl.gz"])
def test_a_tail_follows_a_growing_file_a_few_bytes_at_a_time(tmp_path: Path, name: str) -> None:
    source = tmp_path / f"src-{name}"
    _write(source, flush_every=2)
    data = source.read_bytes()
    growing = tmp_path / name
    tail = TraceTail(growing)
    assert tail.read() == []  # not there yet
    seen: list[dict] = []
    for start in range(0, len(data), 7):  # a member or a line is often cut in two
        with growing.open("ab") as f:
            f.write(data[start : start + 7])
        seen += [rec for _, rec in tail.read()]
    assert seen == [rec for _, rec in scan_trace(source).records]


@pytest.mark.parametrize("name", ["t.jsonl", "t.jsonl.gz"])
def test_a_tail_that_fell_behind_catches_up_in_bounded_steps(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / name
    _write(path, flush_every=2)
    monkeypatch.setattr(_tail, "_READ_BYTES", 64)
    tail = TraceTail(path)
    steps: list[list[dict]] = []
    while got := tail.read():
        steps.append([rec for _, rec in got])
    assert len(steps) > 1  # the whole file was not parsed at once
    assert [rec for step in steps for rec in step] == [rec for _, rec in scan_trace(path).records]
