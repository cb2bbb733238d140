"""Graph queries for attribution: lineage, paths, versions, readers, question subgraphs."""

from __future__ import annotations

import pytest

from umb.trace import Trace

Q_PET = "Q-D0001-IE-01"
Q_JOB = "Q-D0001-KU-01"


def test_lineage_of_an_answer_reaches_the_source_turns(sample: Trace) -> None:
    sub = sample.lineage(f"answer:{Q_PET}")
    assert [o.id for o in sub.ops] == [
        "D0001/1",
        "D0001/2",
        "D0001/3",
        "D0001/5",
        f"{Q_PET}/1",
        f"{Q_PET}/2",
    ]
    ids = {n.node_id for n in sub.nodes}
    assert {"turn:D0001:S001:T0001@1", "memory:D0001:m1@1", "memory:D0001:m1@2"} <= ids
    assert "memory:D0001:m2@1" not in ids  # deleted and never read for this question
    assert all(n.writer is None for n in sub.nodes if n.role == "turn")


def test_lineage_depth(sample: Trace) -> None:
    sub = sample.lineage(f"answer:{Q_PET}", max_depth=1)
    assert [o.id for o in sub.ops] == [f"{Q_PET}/2"]
    assert {n.node_id for n in sub.nodes} == {
        f"answer:{Q_PET}@1",
        f"query:{Q_PET}@1",
        f"context:{Q_PET}@1",
    }


def test_paths_from_a_turn_to_the_answer(sample: Trace) -> None:
    paths = sample.paths("turn:D0001:S001:T0001", f"answer:{Q_PET}")
    assert paths == [
        [
            "turn:D0001:S001:T0001@1",
            "D0001/1",
            "facts:D0001:S001@1",
            "D0001/2",
            "memory:D0001:m1@1",
            "D0001/5",
            "memory:D0001:m1@2",
            f"{Q_PET}/1",
            f"context:{Q_PET}@1",
            f"{Q_PET}/2",
            f"answer:{Q_PET}@1",
        ]
    ]
    # Session 2 reaches the job answer only through the update of m1 (m2 was deleted).
    job_paths = sample.paths("turn:D0001:S002:T0001", f"answer:{Q_JOB}")
    assert job_paths and all("D0001/5" in p and "D0001/4" not in p for p in job_paths)
    assert sample.paths("turn:D0001:S001:T0002", "memory:D0001:m2") == []
    with pytest.raises(KeyError):
        sample.paths("turn:D0001:S001:T0001", "answer:nope")


def test_versions_writers_and_readers(sample: Trace) -> None:
    assert [o.id for o in sample.writers("memory:D0001:m1")] == ["D0001/2", "D0001/5"]
    assert [o.id for o in sample.writers("memory:D0001:m1", 1)] == ["D0001/2"]
    assert [o.id for o in sample.readers("memory:D0001:m1", 1)] == ["D0001/5"]
    assert [o.id for o in sample.readers("memory:D0001:m1")] == [
        "D0001/5",
        f"{Q_PET}/1",
        f"{Q_JOB}/1",
    ]
    deletion = sample.writers("memory:D0001:m2", 2)[0]
    assert deletion.category == "deletion" and sample.node("memory:D0001:m2").deleted
    assert sample.identities("memory") == ["memory:D0001:m1", "memory:D0001:m2"]


def test_descendants_of_a_turn(sample: Trace) -> None:
    sub = sample.descendants("turn:D0001:S002:T0001")
    ids = {n.node_id for n in sub.nodes}
    assert {"memory:D0001:m2@1", "memory:D0001:m2@2", "memory:D0001:m1@2"} <= ids
    assert f"answer:{Q_JOB}@1" in ids


def test_question_subgraph(sample: Trace) -> None:
    sub = sample.question_subgraph(Q_PET)
    q_ops = {f"{Q_PET}/1", f"{Q_PET}/2", f"{Q_PET}/3"}
    assert q_ops <= {o.id for o in sub.ops}
    assert not any(o.question_id == Q_JOB for o in sub.ops)
    cut = sample.question_subgraph(Q_PET, sources=["turn:D0001:S001:T0001"])
    assert "turn:D0001:S002:T0002@1" not in {n.node_id for n in cut.nodes}
    assert "turn:D0001:S001:T0001@1" in {n.node_id for n in cut.nodes}
    small = sample.question_subgraph(Q_PET, max_nodes=4)
    assert small.truncated and len(small.nodes) == 4
    assert q_ops <= {o.id for o in small.ops}
    edges = sub.edges()
    assert ("memory:D0001:m1@2", f"{Q_PET}/1", "read") in edges
    assert (f"{Q_PET}/2", f"answer:{Q_PET}@1", "write") in edges


def test_dialogue_and_question_ops(sample: Trace) -> None:
    assert len(sample.dialogue_ops("D0001")) == len(sample.ops) == 12
    assert [o.category for o in sample.question_ops(Q_JOB)] == ["retrieval", "response", "judge"]
    assert sample.scopes[Q_JOB].kind == "question" and sample.scopes["D0001"].committed
