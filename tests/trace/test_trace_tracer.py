"""Recording: operation fields, versions, values, errors, context into threads and tasks."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import orjson
import pytest

from umb import ConfigError
from umb.trace import (
    NULL_TRACER,
    Trace,
    Tracer,
    bind_context,
    current_op,
    current_tracer,
    iter_dialogue_traces,
    iter_records,
    memory_var,
    open_tracer,
    operation,
    read_trace,
    run_in_thread,
    traced,
)

Q_PET = "Q-D0001-IE-01"


def _records(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def test_operation_fields(sample: Trace) -> None:
    assert sample.issues == []
    assert [o.id for o in sample.ops[:3]] == ["D0001/1", "D0001/2", "D0001/3"]
    assert [o.seq for o in sample.ops] == list(range(1, len(sample.ops) + 1))
    extract = sample.op("D0001/1")
    assert (extract.name, extract.category, extract.model) == (
        "mem0.extract",
        "extraction",
        "offline",
    )
    assert (extract.tokens_in, extract.tokens_out) == (120, 14)
    assert extract.reads == (("turn:D0001:S001:T0001", 1), ("turn:D0001:S001:T0002", 1))
    assert extract.writes == (("facts:D0001:S001", 1),)
    assert extract.duration_us > 0 and extract.start > 1e9
    assert extract.attrs == {"dialogue_id": "D0001"}
    retrieve = sample.op(f"{Q_PET}/1")
    assert retrieve.attrs == {"dialogue_id": "D0001", "question_id": Q_PET, "top_k": 2}
    assert retrieve.reads[1] == ("memory:D0001:m1", 2)  # the version current when it was read


def test_versions_values_and_tombstones(sample: Trace) -> None:
    m1 = sample.versions("memory:D0001:m1")
    assert [(n.version, n.writer) for n in m1] == [(1, "D0001/2"), (2, "D0001/5")]
    assert sample.value(m1[0]) == "Maya adopted a beagle called Biscuit"
    assert sample.preview(m1[1]) == "Maya adopted a dog"
    m2 = sample.versions("memory:D0001:m2")
    assert [(n.version, n.deleted, n.value_hash) for n in m2] == [
        (1, False, m2[0].value_hash),
        (2, True, None),
    ]
    judgement = sample.node(f"judgement:{Q_PET}")
    assert sample.value(judgement) == {"score": 0.0}
    turn = sample.node("turn:D0001:S001:T0001")
    assert turn.writer is None and sample.value(turn).startswith("Maya: I finally adopted")


def test_values_are_stored_once(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with Tracer(path) as tr, tr.activate():
        for i in range(5):
            with operation("w", writes=[(f"x:{i}", "same text")]):
                pass
    recs = _records(path)
    assert sum(r["t"] == "val" for r in recs) == 1
    trace = read_trace(path)
    assert len({trace.node(f"x:{i}").value_hash for i in range(5)}) == 1


def test_exception_is_recorded_and_reraised(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with Tracer(path) as tr, tr.activate():
        with pytest.raises(ValueError, match="bad reply"):
            with operation("mem0.update", "update", reads=["memory:m1"]) as op:
                op.write("memory:m1", "half-done")
                raise ValueError("bad reply")
        with operation("parse") as op:
            op.fail("unparsable JSON")
    ops = read_trace(path).ops
    assert (ops[0].status, ops[0].error) == ("error", "ValueError: bad reply")
    assert ops[0].writes == (("memory:m1", 2),)  # what it wrote before failing stays visible
    assert (ops[1].status, ops[1].error) == ("error", "unparsable JSON")


def test_unknown_reads_become_sources(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with Tracer(path) as tr, tr.activate():
        with operation("answer", reads=["prompt:qa"]) as op:
            op.write("answer:Q1", "x")
        tr.source("prompt:qa", "Answer briefly.")  # its text becomes known: a new version
    trace = read_trace(path)
    assert [n.value_hash is None for n in trace.versions("prompt:qa")] == [True, False]
    assert trace.issues == []


def test_nested_operations_record_parent(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with Tracer(path) as tr, tr.activate(), tr.dialogue("D1"):
        with operation("ingest") as outer:
            assert current_op() is outer
            with operation("extract"):
                pass
        assert current_op().id is None
    ops = read_trace(path).ops
    assert [(o.id, o.parent) for o in ops] == [("D1/1", None), ("D1/2", "D1/1")]


def test_decorator_sync_and_async(tmp_path: Path) -> None:
    @traced(
        "extract",
        "extraction",
        reads=lambda text: [("turn:D1:S1:T1", text)],
        output=lambda result: memory_var("m1", "D1"),
    )
    def extract(text: str) -> str:
        current_op().set(note="inner")
        return text.upper()

    @traced(category="response", output="answer:Q1")
    async def answer() -> str:
        return "Biscuit"

    assert extract("plain") == "PLAIN"  # no tracer active: runs untraced
    path = tmp_path / "t.jsonl"
    with Tracer(path) as tr, tr.activate():
        assert extract("hi") == "HI"
        assert asyncio.run(answer()) == "Biscuit"
    trace = read_trace(path)
    ex, an = trace.ops
    assert (ex.name, ex.attrs, ex.writes) == ("extract", {"note": "inner"}, (("memory:D1:m1", 1),))
    assert trace.value(trace.node("memory:D1:m1")) == "HI"
    assert an.name.endswith("answer") and an.category == "response"


def test_context_flows_into_threads_and_tasks(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"

    def work(i: int) -> str | None:
        with operation("embed", "retrieval", reads=[f"turn:T{i}"]) as op:
            return op.id

    async def ask(qid: str) -> None:
        with current_tracer().question(qid, dialogue_id="D1"):
            await asyncio.sleep(0)
            with operation("retrieve", "retrieval"):
                await asyncio.to_thread(work, 0)

    with Tracer(path) as tr, tr.activate():
        with tr.question("Q-A", dialogue_id="D1"):
            assert run_in_thread(work, 1).result() == "Q-A/1"
            with ThreadPoolExecutor(4) as pool:
                ids = list(pool.map(bind_context(work), range(2, 10)))
            assert sorted(ids) == [f"Q-A/{i}" for i in range(2, 10)]
            plain = threading.Thread(target=work, args=(99,))  # no context copied: untraced
            plain.start()
            plain.join()

        async def both() -> None:
            await asyncio.gather(ask("Q-B"), ask("Q-C"))

        asyncio.run(both())
    trace = read_trace(path)
    assert len(trace.question_ops("Q-A")) == 9
    for qid in ("Q-B", "Q-C"):
        ops = trace.question_ops(qid)
        assert [(o.id, o.parent) for o in ops] == [(f"{qid}/1", None), (f"{qid}/2", f"{qid}/1")]
    assert trace.issues == []


def test_threads_number_versions_uniquely(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with Tracer(path) as tr, tr.activate(), tr.dialogue("D1"):

        def bump(i: int) -> None:
            for j in range(50):
                with operation("update", "update") as op:
                    op.write("memory:shared", f"{i}-{j}")

        with ThreadPoolExecutor(4) as pool:
            list(pool.map(bind_context(bump), range(4)))
    trace = read_trace(path)
    assert [n.version for n in trace.versions("memory:shared")] == list(range(1, 201))
    assert len({o.id for o in trace.ops}) == 200 and trace.issues == []


def test_null_tracer_records_nothing(tmp_path: Path) -> None:
    assert current_tracer() is NULL_TRACER
    tracer = open_tracer(tmp_path / "t.jsonl", enabled=False)
    assert tracer is NULL_TRACER and not tracer.enabled
    with tracer.activate(), tracer.question("Q1"), operation("x", reads=["a:b"]) as op:
        op.write("a:b", 1)
        op.usage("m", 1, 2)
        assert op.id is None
    assert not (tmp_path / "t.jsonl").exists()


def test_existing_trace_needs_resume(sample_path: Path) -> None:
    with pytest.raises(ConfigError, match="trace exists"):
        Tracer(sample_path)


def test_unserialisable_attrs_fall_back_to_repr(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with Tracer(path) as tr, tr.activate():
        with operation("x", handle=object(), keys={1: "a", (2, 3): "b"}) as op:
            op.write("v:1", {1, 2})  # a set: stored as its repr
            op.write("v:2", "lone \ud800 surrogate")  # not UTF-8: stored with a replacement
    trace = read_trace(path)
    assert trace.ops[0].attrs["handle"].startswith("<object object")
    assert trace.ops[0].attrs["keys"] == {"1": "a", "(2, 3)": "b"}
    assert trace.value(trace.node("v:1")) == "{1, 2}"
    assert trace.value(trace.node("v:2")).startswith("lone \ufffd")


def test_a_forgotten_dialogue_leaves_nothing_of_its_variables_behind(tmp_path: Path) -> None:
    # A long run keeps only the dialogues in flight: what the tracer holds of a finished one
    # (current versions, counters) goes, and the other dialogues' versions go on as before.
    path = tmp_path / "t.jsonl"
    tracer = Tracer(path)
    with tracer.activate():
        for did in ("D0001", "D0002"):
            with tracer.dialogue(did), operation("ingest", reads=[f"turn:{did}:S001:T0001"]) as op:
                op.write(memory_var("m1"), f"a fact of {did}")
        tracer.forget("D0001")
        held = {*tracer._cur, *tracer._max, *tracer._ver}
        assert held and not any("D0001" in identity for identity in held)
        with tracer.question("Q-D0002", dialogue_id="D0002"), operation("update") as op:
            op.write(memory_var("m1", dialogue_id="D0002"), "a later fact")
    tracer.close()
    versions = read_trace(path).versions("memory:D0002:m1")
    assert [n.version for n in versions] == [1, 2]


def _ingest(tracer: Tracer, did: str, text: str) -> None:
    with tracer.dialogue(did), operation("ingest") as op:
        op.write(memory_var("m1", dialogue_id=did), text)


def _values_stored(path: Path, text: str) -> int:
    return sum(rec is not None and rec["t"] == "val" and rec.get("value") == text
               for _, rec in iter_records(path))  # fmt: skip


def test_a_value_a_dialogue_let_go_is_stored_again_when_used_again(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    tracer = Tracer(path)
    with tracer.activate():
        _ingest(tracer, "D0001", "a shared sentence")
        _ingest(tracer, "D0002", "a shared sentence")  # D0001 not forgotten yet: stored once
        tracer.forget("D0001")
        tracer.forget("D0002")
        _ingest(tracer, "D0003", "a shared sentence")
        tracer.forget("D0003")
    tracer.close()
    assert _values_stored(path, "a shared sentence") == 2
    # A resumed tracer knows the value was let go, and stores it again too.
    resumed = Tracer(path, resume=True)
    with resumed.activate():
        _ingest(resumed, "D0004", "a shared sentence")
    resumed.close()
    assert _values_stored(path, "a shared sentence") == 3
    got = {dt.dialogue_ids[0]: dt.trace for dt in iter_dialogue_traces(path)}
    for did, trace in got.items():
        node = trace.node(f"memory:{did}:m1")
        assert trace.value(node) == "a shared sentence", did
