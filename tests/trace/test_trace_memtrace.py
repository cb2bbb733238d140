"""MemTraceBench / smartcomment graph JSON: export layout, annotations, import, round trip."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from umb import DataError
from umb.interop.memtracebench import export_memtrace, import_memtrace
from umb.trace import Trace, Tracer, operation, read_trace

Q_PET = "Q-D0001-IE-01"
ATTRIBUTIONS = {
    Q_PET: {
        "error_type": "UpdateError",
        "op_id": "D0001/5",
        "reason": "the update dropped the dog's name",
        "evidence_turn_ids": ["D0001:S001:T0001"],
        "golden_answers": ["Biscuit"],
        "path": ["turn:D0001:S001:T0001@1", "D0001/1"],
    },
    "Q-D0001-KU-01": {"error_type": "JudgeError", "op_id": "Q-D0001-KU-01/3"},
}


def _load(path: Path) -> dict[str, Any]:
    data = orjson.loads(path.read_bytes())
    assert isinstance(data, dict)
    return data


def test_export_layout_and_records(sample: Trace, tmp_path: Path) -> None:
    paths = export_memtrace(sample, tmp_path / "out", attributions=ATTRIBUTIONS, split="mem0")
    assert paths == [tmp_path / "out" / "mem0" / "D0001.json"]
    g = _load(paths[0])
    assert set(g) == {
        "graph_id",
        "user_id",
        "project_id",
        "storage_path",
        "strict",
        "driver_type",
        "created_at",
        "metadata",
        "data",
    }
    assert g["graph_id"].startswith("graph-") and len(g["graph_id"]) == 38
    assert g["driver_type"] == "in_memory" and g["metadata"]["memtracebench_graph_filename"]
    data = g["data"]
    node_ids = {n["full_node_id"] for n in data["nodes"]}
    assert {"turn:D0001:S001:T0001@1", "memory:D0001:m1@2", f"answer:{Q_PET}@1"} <= node_ids
    turn = next(n for n in data["nodes"] if n["full_node_id"] == "turn:D0001:S001:T0001@1")
    assert (turn["class_name"], turn["name"], turn["category"]) == (
        "turn",
        "D0001:S001:T0001",
        "message",
    )
    assert turn["value"].startswith("Maya: I finally adopted")
    ops = {o["op_id"]: o for o in data["operations"]}
    assert len(ops) == len(sample.ops)
    for op_id in ops:  # every operation owns at least one edge
        assert any(e["op_id"] == op_id for e in data["edges"])
    for e in data["edges"]:
        assert e["source_full_node_id"] in node_ids and e["target_full_node_id"] in node_ids
    sessions = {s["session_id"]: s["category"] for s in data["sessions"]}
    assert sessions == {
        "D0001": "memory_construction",
        "D0001:search": "memory_search",
        "D0001:evaluation": "memory_evaluation",
    }
    assert ops["D0001/1"]["metadata"]["umb"]["tokens_in"] == 120
    assert all(r["filename"] == "<umb-trace>" for r in data["operations"])  # no host paths


def test_export_annotations(sample: Trace, tmp_path: Path) -> None:
    (path,) = export_memtrace(sample, tmp_path, attributions=ATTRIBUTIONS)
    anns = {a["umb_question_id"]: a for a in _load(path)["data"]["annotations"]}
    pet = anns[Q_PET]
    assert pet["query_id"] == f"query:{Q_PET}@1"
    assert pet["query"] == "What is the name of Maya's dog?"
    assert pet["prediction"] == "not mentioned"
    assert pet["golden_answers"] == ["Biscuit"]
    assert pet["source_evidence_ids"] == ["turn:D0001:S001:T0001@1"]
    assert (pet["final_error_type"], pet["final_op_id"]) == ("UpdateError", "D0001/5")
    assert pet["reason"] == "the update dropped the dog's name" and pet["path"]
    assert anns["Q-D0001-KU-01"]["final_error_type"] == "LLMAsAJudgeError"


def test_failed_op_without_outputs_gets_the_sentinel(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with Tracer(path) as tr, tr.activate(), tr.dialogue("D9"):
        with pytest.raises(TimeoutError), operation("mem0.extract", "extraction") as op:
            op.read("turn:D9:S001:T0001", "hello")
            raise TimeoutError("endpoint")
        with operation("noop"):
            pass
    (out,) = export_memtrace(read_trace(path), tmp_path / "x")
    data = _load(out)["data"]
    edges = {
        e["op_id"]: (e["source_full_node_id"], e["target_full_node_id"]) for e in data["edges"]
    }
    assert edges == {
        "D9/1": ("turn:D9:S001:T0001@1", "COMMENT:NONE@1"),
        "D9/2": ("COMMENT:NONE@1", "COMMENT:NONE@1"),
    }
    assert {s["session_id"] for s in data["sessions"]} >= {"__none__"}
    failed = next(e for e in data["edges"] if e["op_id"] == "D9/1")
    assert failed["metadata"] == {"error": "TimeoutError: endpoint"}


def test_round_trip_is_lossless(sample: Trace, tmp_path: Path) -> None:
    (path,) = export_memtrace(sample, tmp_path, attributions=ATTRIBUTIONS)
    back = import_memtrace(path)
    assert back.ops == sample.ops
    assert {n.key: n for n in back.nodes} == {n.key: n for n in sample.nodes}
    for n in sample.nodes:
        if isinstance(sample.value(n), str):
            assert back.value(n) == sample.value(n)
    assert back.paths("turn:D0001:S001:T0001", f"answer:{Q_PET}") == sample.paths(
        "turn:D0001:S001:T0001", f"answer:{Q_PET}"
    )
    assert [a["umb_question_id"] for a in back.annotations] == sorted(ATTRIBUTIONS)


def _memtracebench_graph() -> dict[str, Any]:
    """A graph shaped like MemTraceBench's rag split, built by hand from the format spec."""

    def common(t: str) -> dict[str, Any]:
        return {
            "created_at": t,
            "filename": "/abs/path/rag.py",
            "lineno": 7,
            "graph_id": "graph-x",
            "user_id": None,
            "project_id": None,
            "metadata": {},
        }

    def node(name: str, cls: str | None, cat: str, value: str, t: str, v: int = 1) -> dict:
        full = f"{cls}:{name}" if cls else name
        return {
            "name": name,
            "version": v,
            "value": value,
            "class_name": cls,
            "category": cat,
            "session_id": "S1",
            "comment": None,
            **common(t),
            "full_node_id": f"{full}@{v}",
        }

    def edge(op: str, s: str, t: str, ts: str) -> dict:
        return {
            "edge_id": f"edge-{op}-{s}-{t}",
            "op_id": op,
            "session_id": "S1",
            "category": "operation",
            "comment": None,
            "source_full_node_id": s,
            "target_full_node_id": t,
            **common(ts),
        }

    def op(op_id: str, name: str, cat: str, t: str) -> dict:
        return {
            "op_id": op_id,
            "op_name": name,
            "category": cat,
            "session_id": "S1",
            "comment": f"[{name}] doc",
            **common(t),
        }

    t1, t2, t3, t4 = (f"2026-05-01 10:00:0{i}.000" for i in range(1, 5))
    nodes = [
        node("locomo-1:D1:3", None, "message", "{'content': 'I adopted Biscuit'}", t1),
        node("memory-unit-ab12", None, "memory_entry", "'I adopted Biscuit'", t1),
        node("q1", "query", "message & query", "'What is the dog called?'", t2),
        node("ctx-q1", "context", "variable", "'[mem] I adopted Biscuit'", t3),
        node("pred-q1", "prediction", "variable", "'Rex'", t3),
        node("COMMENT:NONE", None, "sentinel", "NONE", t4),
    ]
    edges = [
        edge("op-add", "locomo-1:D1:3@1", "memory-unit-ab12@1", t1),
        edge("op-ret", "query:q1@1", "memory-unit-ab12@1", t2),  # points at an existing unit
        edge("op-qa", "memory-unit-ab12@1", "context:ctx-q1@1", t3),
        edge("op-qa", "context:ctx-q1@1", "prediction:pred-q1@1", t3),
        edge("op-qa", "query:q1@1", "prediction:pred-q1@1", t3),
        edge("op-judge", "prediction:pred-q1@1", "COMMENT:NONE@1", t4),
    ]
    ops = [
        op("op-judge", "llm-judge", "evaluation", t4),
        op("op-add", "memory_system.add", "update", t1),
        op("op-ret", "memory_system.retrieve", "retrieval", t2),
        op("op-qa", "question-answering", "evaluation", t3),
    ]
    sessions = [
        {
            "session_id": "S1",
            "session_name": "s",
            "category": "memory_construction",
            "comment": None,
            **common(t1),
        }
    ]
    annotation = {
        "query_id": "query:q1@1",
        "query": "What is the dog called?",
        "golden_answers": ["Biscuit"],
        "prediction": "Rex",
        "source_evidence_ids": ["locomo-1:D1:3@1"],
        "final_error_type": "ResponseError",
        "final_op_id": "op-qa",
        "annotator_notes": {"round": 2},
    }
    return {
        "graph_id": "graph-x",
        "user_id": None,
        "project_id": None,
        "storage_path": None,
        "strict": False,
        "driver_type": "in_memory",
        "created_at": t1,
        "metadata": {"memtracebench_graph_filename": "locomo_locomo-1.json"},
        "data": {
            "nodes": nodes,
            "edges": edges,
            "operations": ops,
            "sessions": sessions,
            "annotations": [annotation],
        },
    }


def test_import_memtracebench_graph_keeps_annotations(tmp_path: Path) -> None:
    graph = _memtracebench_graph()
    path = tmp_path / "rag" / "locomo_locomo-1.json"
    path.parent.mkdir()
    path.write_bytes(orjson.dumps(graph))
    trace = import_memtrace(path)
    assert trace.annotations == graph["data"]["annotations"]  # unknown keys included
    assert [o.id for o in trace.ops] == ["op-add", "op-ret", "op-qa", "op-judge"]
    ret, qa, judge = trace.op("op-ret"), trace.op("op-qa"), trace.op("op-judge")
    assert ret.writes == () and set(ret.reads) == {("query:q1", 1), ("memory-unit-ab12", 1)}
    assert set(qa.writes) == {("context:ctx-q1", 1), ("prediction:pred-q1", 1)}
    assert set(qa.reads) == {("memory-unit-ab12", 1), ("query:q1", 1)}
    assert judge.reads == (("prediction:pred-q1", 1),) and judge.writes == ()
    assert trace.node("memory-unit-ab12").writer == "op-add"
    assert trace.node("locomo-1:D1:3").writer is None
    assert "COMMENT:NONE" not in trace.identities()
    # The context is an output of the same op, not an input: one path, through op-qa.
    assert trace.paths("locomo-1:D1:3", "prediction:pred-q1") == [
        [
            "locomo-1:D1:3@1",
            "op-add",
            "memory-unit-ab12@1",
            "op-qa",
            "prediction:pred-q1@1",
        ]
    ]
    assert qa.attrs["comment"] == "[question-answering] doc"
    assert trace.meta["metadata"]["memtracebench_graph_filename"] == "locomo_locomo-1.json"


@pytest.mark.parametrize(
    ("content", "match"),
    [
        (b"not json", "invalid JSON"),
        (b"[]", "no 'data' object"),
        (b'{"data": {"nodes": [{"version": 1}]}}', "bad graph record"),
    ],
)
def test_import_errors(tmp_path: Path, content: bytes, match: str) -> None:
    path = tmp_path / "g.json"
    path.write_bytes(content)
    with pytest.raises(DataError, match=match):
        import_memtrace(path)
