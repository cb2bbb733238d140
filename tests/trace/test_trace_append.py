"""Partitions traced apart and appended to one trace read like one trace recorded in one go."""

from __future__ import annotations

from pathlib import Path

from umb.trace import TraceAppender, Tracer, memory_var, operation, read_trace, trace_records


def _dialogue(tr: Tracer, did: str) -> None:
    with tr.dialogue(did):
        for s in range(2):
            sid = f"{did}:S{s + 1:03d}"
            with operation("update", "update") as op:
                op.read(f"turn:{sid}:T0001", f"turn text {sid}")
                if s:
                    op.read(memory_var("m1", did))
                op.write(memory_var("m1", did), f"memory after {sid}")
        with tr.question(f"Q-{did}"), operation("retrieve", "retrieval") as op:
            op.read(memory_var("m1", did))
            op.write(f"context:Q-{did}", f"context of {did}")


def _record(path: Path, dialogues: list[str]) -> Path:
    tr = Tracer(path, meta={"system": "s"})
    with tr.activate():
        for did in dialogues:
            _dialogue(tr, did)
    tr.close()
    return path


def _ops(path: Path) -> list[tuple[str, str, list[tuple[str, int, object]]]]:
    trace = read_trace(path)
    assert trace.issues == []
    return sorted(
        (o.id, o.name, [(k[0], k[1], trace.value(trace.node(*k))) for k in o.writes])
        for o in trace.ops
    )


def test_appended_partitions_read_as_one_trace(tmp_path: Path) -> None:
    whole = _record(tmp_path / "whole.jsonl", ["D1", "D2"])
    first = _record(tmp_path / "p1.jsonl", ["D1"])
    second = _record(tmp_path / "p2.jsonl", ["D2"])
    target = tmp_path / "merged.jsonl"
    appender = TraceAppender(target)
    appender.append(trace_records(first))
    appender.append(trace_records(second))
    assert _ops(target) == _ops(whole)
    seqs = [r["seq"] for r in trace_records(target) if r["t"] == "op"]
    assert len(seqs) == len(set(seqs))  # one order across partitions
    opens = [r["open"] for r in trace_records(target) if r["t"] == "open"]
    assert opens == [1, 2]


def test_a_partition_appended_twice_is_counted_once(tmp_path: Path) -> None:
    whole = _record(tmp_path / "whole.jsonl", ["D1", "D2"])
    first = _record(tmp_path / "p1.jsonl", ["D1"])
    second = _record(tmp_path / "p2.jsonl", ["D2"])
    target = tmp_path / "merged.jsonl"
    TraceAppender(target).append(trace_records(first))
    # A driver killed after appending a unit's trace, before its records: the rerun appends
    # the unit again, through a fresh appender that scans the file first.
    again = TraceAppender(target)
    again.append(trace_records(first))
    again.append(trace_records(second))
    assert _ops(target) == _ops(whole)
    attempts = {r["a"] for r in trace_records(target) if r["t"] == "begin" and r["scope"] == "D1"}
    assert attempts == {1, 2}


def test_a_torn_last_line_is_cut_before_appending(tmp_path: Path) -> None:
    whole = _record(tmp_path / "whole.jsonl", ["D1", "D2"])
    target = tmp_path / "merged.jsonl"
    TraceAppender(target).append(trace_records(_record(tmp_path / "p1.jsonl", ["D1"])))
    with target.open("ab") as f:
        f.write(b'{"t": "op", "id": "D1/9", "se')  # a writer killed mid-line
    TraceAppender(target).append(trace_records(_record(tmp_path / "p2.jsonl", ["D2"])))
    assert _ops(target) == _ops(whole)
