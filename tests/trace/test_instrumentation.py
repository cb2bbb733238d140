"""A traced ``umb eval`` of the first demo dialogue with every built-in offline system."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from umb._cli.main import cli
from umb.bench import Benchmark, Dialogue
from umb.models import ModelOptions
from umb.run import RunConfig, ScoringOptions, read_records, run_eval, trace_path, trace_paths
from umb.testing import OpenAIServer
from umb.trace import Trace, answer_var, context_var, judgement_var, read_trace, role_of, turn_var

SYSTEMS = ("full_context", "no_context", "oracle_evidence", "rag_bm25", "rag_dense",
           "rag_hybrid", "mem0_style", "summary")  # fmt: skip

READ_PATH = {"retrieve", "answer", "score"}
WRITE_PATH = {
    "full_context": {"ingest"},
    "no_context": {"ingest"},
    "oracle_evidence": {"ingest"},
    "rag_bm25": {"ingest", "index"},
    "rag_dense": {"ingest", "index"},
    "rag_hybrid": {"ingest", "index"},
    "mem0_style": {"ingest", "extract", "decide", "add", "update"},
    "summary": {"ingest", "summarize"},
}
CATEGORY = {
    "ingest": "ingest", "extract": "extraction", "summarize": "extraction",
    "decide": "decision", "add": "addition", "update": "update", "delete": "deletion",
    "index": "indexing", "retrieve": "retrieval", "answer": "response", "score": "judge",
}  # fmt: skip
# The roles a fact passes through from its turn to the answer, per system.
WAY = {
    "full_context": ["turn", "context", "answer"],
    "oracle_evidence": ["turn", "context", "answer"],
    "rag_bm25": ["turn", "unit", "context", "answer"],
    "rag_dense": ["turn", "unit", "context", "answer"],
    "rag_hybrid": ["turn", "unit", "context", "answer"],
    "summary": ["turn", "summary", "context", "answer"],
    "mem0_style": ["turn", "candidate", "memory", "context", "answer"],
}


@pytest.fixture(scope="module")
def run(demo_bench: Path, first_dialogue: int, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("traced") / "run"
    config = RunConfig(bench=demo_bench, out=out, systems=SYSTEMS, limit=first_dialogue)
    run_eval(config, progress=False)
    return out


@pytest.fixture(scope="module")
def dialogue(demo_bench: Path) -> Dialogue:
    return next(Benchmark.open(demo_bench).iter_dialogues())


@pytest.fixture(scope="module")
def records(run: Path) -> dict[tuple[str, str], dict[str, Any]]:
    return {(r["system"], r["question_id"]): r for r in read_records(run / "records.jsonl")}


def _trace(run: Path, system: str) -> Trace:
    trace = read_trace(trace_path(run, system))
    assert trace.issues == [] and trace.meta["system"] == system
    return trace


def test_each_system_has_its_own_trace(run: Path) -> None:
    assert sorted(trace_paths(run)) == sorted(SYSTEMS)


@pytest.mark.parametrize("system", SYSTEMS)
def test_operations_follow_the_vocabulary(
    run: Path,
    system: str,
    dialogue: Dialogue,
    records: dict[tuple[str, str], dict[str, Any]],
    first_dialogue: int,
) -> None:
    trace = _trace(run, system)
    names = {o.name for o in trace.ops}
    assert WRITE_PATH[system] | READ_PATH <= names <= WRITE_PATH[system] | READ_PATH | {"delete"}
    for op in trace.ops:
        assert op.category == CATEGORY[op.name] and op.status == "ok", op
        assert op.attrs["system"] == system and op.attrs["dialogue_id"] == "D0001"
    # One ingest per session the run needed, each reading exactly that session's turns.
    ingests = [o for o in trace.ops if o.name == "ingest"]
    sessions = sorted(dialogue.sessions, key=lambda s: s.started_at)[: len(ingests)]
    assert len(ingests) >= len(dialogue.sessions) - 2
    for op, s in zip(ingests, sessions, strict=True):
        assert op.attrs["session_id"] == s.id
        assert [i for i, _ in op.reads] == [turn_var(t.id) for t in s.turns]
        assert trace.value(trace.node(turn_var(s.turns[0].id))) == s.turns[0].text
    # Each question: retrieve, answer, score, in its own scope, named in its record.
    questions = {o.question_id for o in trace.ops if o.question_id}
    assert len(questions) == first_dialogue
    for qid in questions:
        ops = trace.question_ops(qid)
        assert [o.name for o in ops] == ["retrieve", "answer", "score"]
        assert [o.id for o in ops] == [f"{qid}/1", f"{qid}/2", f"{qid}/3"]
        record = records[(system, qid)]
        assert record["trace_ops"] == {"retrieve": ops[0].id, "answer": ops[1].id,
                                       "score": ops[2].id}  # fmt: skip
        assert trace.value(trace.node(answer_var(qid))) == record["raw_output"]
        verdict = trace.value(trace.node(judgement_var(qid)))
        assert verdict["value"] == record["score"] == ops[2].attrs["value"]
        assert ops[1].reads == ((context_var(qid), 1), (f"query:{qid}", 1))
        assert ops[1].model == "offline" and ops[1].tokens_in == record["input_tokens"]


@pytest.mark.parametrize("system", [s for s in SYSTEMS if s != "no_context"])
def test_a_fact_can_be_followed_from_its_turn_to_the_answer(
    run: Path, system: str, records: dict[tuple[str, str], dict[str, Any]]
) -> None:
    trace = _trace(run, system)
    followed = 0
    for (s, qid), r in records.items():
        if s != system or not r["evidence_in_context"]:
            continue
        for turn in r["evidence_in_context"]:
            paths = trace.paths(turn_var(turn), answer_var(qid))
            assert paths, (qid, turn)
            # The shortest path passes through the system's stages in order.
            roles = [role_of(n.rsplit("@", 1)[0]) for n in paths[0][::2]]
            assert roles == WAY[system], paths[0]
            assert turn_var(turn) in {n.identity for n in trace.lineage(answer_var(qid)).nodes}
            followed += 1
    assert followed >= 3


def test_retrieval_reads_what_the_record_says_was_retrieved(
    run: Path, records: dict[tuple[str, str], dict[str, Any]]
) -> None:
    for system in ("rag_bm25", "mem0_style", "full_context", "oracle_evidence"):
        trace = _trace(run, system)
        for (s, qid), r in records.items():
            if s != system:
                continue
            (retrieve,) = [o for o in trace.question_ops(qid) if o.name == "retrieve"]
            read = [i for i, _ in retrieve.reads[1:]]
            if system == "rag_bm25":
                assert read == [f"unit:{u}" for u in r["ranked_ids"]]
            elif system == "mem0_style":
                assert sorted(read) == sorted(f"memory:D0001:{u}" for u in r["context_ids"])
            else:
                assert read == [turn_var(t) for t in r["source_turn_ids"]]


def test_no_context_answers_from_the_query_alone(run: Path) -> None:
    trace = _trace(run, "no_context")
    for op in trace.ops:
        if op.name == "retrieve":
            assert [role_of(i) for i, _ in op.reads] == ["query"]
    answer = next(o for o in trace.ops if o.name == "answer")
    lineage = trace.lineage(answer_var(str(answer.question_id)))
    assert {n.role for n in lineage.nodes} == {"query", "context", "answer"}


def test_no_trace_writes_no_trace(demo_bench: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["eval", "--bench", str(demo_bench), "--system", "rag_bm25", "--out", str(out),
            "--limit", "4", "--no-trace", "--no-progress"]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert not (out / "traces").exists() and trace_paths(out) == {}
    assert all(r["trace_ops"] is None for r in read_records(out / "records.jsonl"))


def test_judge_votes_are_operations_inside_the_score(
    demo_bench: Path,
    first_dialogue: int,
    tmp_path: Path,
    openai_server: OpenAIServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    openai_server.control(default_reply=json.dumps({"verdict": "partial", "reason": "half"}))
    out = tmp_path / "run"
    config = RunConfig(bench=demo_bench, out=out, systems=("oracle_evidence",), model="oracle",
                       judge="openai/umb-test",
                       options=ModelOptions(base_url=openai_server.base_url),
                       limit=first_dialogue, scoring=ScoringOptions(judge_votes=2))  # fmt: skip
    run_eval(config, progress=False)
    trace = _trace(out, "oracle_evidence")
    judged = [r for r in read_records(out / "records.jsonl") if r["judge_model"]]
    assert judged
    for r in judged:
        qid = r["question_id"]
        ops = trace.question_ops(qid)
        assert [o.name for o in ops] == ["retrieve", "answer", "score", "judge_vote", "judge_vote"]
        score, *votes = ops[2:]
        assert all(v.parent == score.id and v.model == "openai/umb-test" for v in votes)
        assert trace.value(trace.node(f"vote:{qid}:1")) == {"vote": 0.5, "reason": "half"}
        assert {(f"vote:{qid}:1", 1), (f"vote:{qid}:2", 1)} <= set(score.reads)
        assert score.attrs["value"] == r["score"] == 0.5
