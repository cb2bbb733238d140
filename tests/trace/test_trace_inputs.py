"""Format 2: benchmark turns and their transcripts by reference; versions read and refused."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from umb import DataError
from umb.bench import Benchmark
from umb.trace import (
    BenchmarkTurns,
    InputsRef,
    TraceConfig,
    Tracer,
    TurnTranscript,
    operation,
    read_trace,
    turn_var,
    var,
)


def _record(path: Path, bench: Path) -> tuple[list[str], str]:
    """Trace one op reading a dialogue's first session and writing its transcript."""
    dialogue = next(Benchmark.open(bench).iter_dialogues())
    turns = dialogue.sessions[0].turns
    ref = InputsRef(Benchmark.open(bench).content_hash, str(bench.resolve()))
    with Tracer(path, config=TraceConfig(inputs=ref)) as tr, tr.activate():
        with tr.dialogue(dialogue.id):
            reads = [(turn_var(t.id), t.text) for t in turns]
            with operation("index", "indexing", reads=reads) as op:
                op.write(var("unit", turns[0].id), TurnTranscript.of(turns[:2]))
    return [t.id for t in turns], TurnTranscript.of(turns[:2]).text


def test_turns_are_referred_to_not_copied(demo_bench: Path, tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    turn_ids, text = _record(path, demo_bench)
    raw = path.read_bytes()
    records = [orjson.loads(x) for x in raw.splitlines()]
    assert not [r for r in records if r["t"] == "src"]
    (value,) = [r for r in records if r["t"] == "val"]
    assert value["turns"] == turn_ids[:2] and "value" not in value
    assert text.split("\n")[0].split(": ", 1)[1].encode() not in raw  # no turn text in the file
    trace = read_trace(path)
    assert not trace.issues
    (op,) = trace.ops
    assert [i for i, _ in op.reads] == [turn_var(t) for t in turn_ids]
    assert trace.value(trace.node(var("unit", turn_ids[0]))) == text
    first = next(Benchmark.open(demo_bench).iter_dialogues()).sessions[0].turns[0]
    assert trace.value(trace.node(turn_var(turn_ids[0]))) == first.text
    assert trace.preview(trace.node(turn_var(turn_ids[0])))


def test_turns_handed_over_are_used(demo_bench: Path, tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    turn_ids, text = _record(path, demo_bench)
    given = BenchmarkTurns.of([next(Benchmark.open(demo_bench).iter_dialogues())])
    trace = read_trace(path, inputs=given)
    assert trace.inputs is given
    assert trace.value(trace.node(var("unit", turn_ids[0]))) == text


def test_another_benchmark_is_refused(demo_bench: Path, tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    turn_ids, _ = _record(path, demo_bench)
    header, *rest = path.read_bytes().splitlines()
    meta = orjson.loads(header)
    meta["meta"]["inputs"]["benchmark"] = "0" * 64
    path.write_bytes(b"\n".join([orjson.dumps(meta), *rest]) + b"\n")
    trace = read_trace(path)
    with pytest.raises(DataError, match="not the benchmark this trace was made on"):
        trace.value(trace.node(turn_var(turn_ids[0])))


def test_newer_format_is_refused_and_version_1_is_read(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with Tracer(path) as tr, tr.activate(), operation("op", writes=[("x:1", "a")]):
        pass
    lines = path.read_bytes().splitlines()
    header = orjson.loads(lines[0])
    header["version"] = 99
    path.write_bytes(b"\n".join([orjson.dumps(header), *lines[1:]]) + b"\n")
    with pytest.raises(DataError, match=r"t.jsonl:1: trace format 99 is newer"):
        read_trace(path)
    v1 = tmp_path / "v1.jsonl"
    v1.write_bytes(b"\n".join([
        b'{"t":"open","format":"umb-trace","version":1,"open":1,"time":0,"meta":{}}',
        b'{"t":"begin","scope":"run1","kind":"run","a":1,"parent":null,"attrs":{}}',
        b'{"t":"val","h":"ca978112ca1bbdca","size":1,"value":"a"}',
        b'{"t":"src","var":"turn:T1","v":1,"h":"ca978112ca1bbdca"}',
        b'{"t":"op","id":"run1/1","seq":1,"scope":"run1","a":1,"name":"op","cat":"operation",'
        b'"reads":[["turn:T1",1]],"writes":[],"status":"ok","start":0,"dur_us":1}',
        b'{"t":"commit","scope":"run1","a":1,"ops":1}',
    ]) + b"\n")  # fmt: skip
    trace = read_trace(v1)
    assert not trace.issues and trace.value(trace.node("turn:T1")) == "a"
    assert trace.op("run1/1").reads == (("turn:T1", 1),)
