"""The trace file: batches, flush points, torn tails and damaged lines."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from umb import DataError
from umb.trace import FORMAT_NAME, TraceConfig, Tracer, operation, read_trace


def _lines(path: Path) -> list[dict]:
    return [orjson.loads(x) for x in path.read_bytes().splitlines()] if path.exists() else []


def test_flushes_every_n_records_and_at_scope_end(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    tr = Tracer(path, config=TraceConfig(flush_every=5, flush_on_scope_end=True))
    with tr.activate():
        with tr.question("Q1"):
            for i in range(3):
                with operation("op", writes=[f"x:{i}"]):
                    pass
            # open + begin run1 + begin Q1 + 2 ops = 5 records: one batch written, one op queued
            assert [r["t"] for r in _lines(path)] == ["open", "begin", "begin", "op", "op"]
        # leaving the question scope writes its commit and everything queued before it
        assert [r["t"] for r in _lines(path)][-2:] == ["op", "commit"]
    tr.close()
    assert _lines(path)[-1]["t"] == "close"


def test_no_flush_at_scope_end_when_disabled(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    tr = Tracer(path, config=TraceConfig(flush_every=100, flush_on_scope_end=False))
    with tr.activate(), tr.question("Q1"), operation("op"):
        pass
    assert _lines(path) == []
    tr.close()
    assert [r["t"] for r in _lines(path)] == [
        "open",
        "begin",
        "begin",
        "op",
        "commit",
        "commit",
        "close",
    ]


def test_header_and_meta(sample_path: Path) -> None:
    first = _lines(sample_path)[0]
    assert first["t"] == "open" and first["format"] == FORMAT_NAME and first["open"] == 1
    assert read_trace(sample_path).meta == {"run_id": "run-test", "system": "mem0"}


@pytest.mark.parametrize("tail", [b'{"t":"op","id":"D0001/99",', b'{"t":"commit"}', b"\xff\xfe"])
def test_torn_last_line_is_skipped(sample_path: Path, tail: bytes) -> None:
    whole = read_trace(sample_path)
    with sample_path.open("ab") as f:
        f.write(tail)  # no newline: the writer died inside this write
    trace = read_trace(sample_path)
    assert trace.torn_tail and len(trace) == len(whole) and trace.issues == []


def test_damaged_last_line_with_newline_is_skipped(sample_path: Path) -> None:
    with sample_path.open("ab") as f:
        f.write(b'{"t":"op", "id"\n')
    assert read_trace(sample_path).torn_tail


def test_damage_before_the_last_line_is_an_error(sample_path: Path) -> None:
    lines = sample_path.read_bytes().splitlines(keepends=True)
    lines[3] = b'{"t": broken\n'
    sample_path.write_bytes(b"".join(lines))
    with pytest.raises(DataError, match=r"trace\.jsonl:4: bad trace record"):
        read_trace(sample_path)


def test_missing_file_is_a_data_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="missing trace file"):
        read_trace(tmp_path / "nope.jsonl")


def test_aborted_scope_is_kept_but_not_committed(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with Tracer(path) as tr, tr.activate():
        with pytest.raises(RuntimeError), tr.question("Q1"):
            with operation("retrieve") as op:
                op.write("context:Q1", "c")
            raise RuntimeError("answerer down")
    trace = read_trace(path)
    assert not trace.scopes["Q1"].committed and [o.id for o in trace.ops] == ["Q1/1"]
    abort = [r for r in _lines(path) if r["t"] == "abort"]
    assert abort[0]["error"] == "RuntimeError: answerer down"
