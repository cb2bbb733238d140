"""The memory systems' write and read paths as trace operations, on hand-built sessions."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from umb.bench import Evidence, Question, Session, Turn
from umb.memory import Mem0Style, MemoryConfig, MemorySystem, RetrievedContext, build_memory
from umb.models import GenerateRequest, GenerateResult
from umb.trace import (
    NULL_TRACER,
    Trace,
    Tracer,
    context_var,
    current_tracer,
    memory_var,
    query_var,
    read_trace,
    turn_var,
)

QID = "Q-D0001-KU-01"


def session(number: int, started_at: str, lines: Sequence[tuple[str, str]]) -> Session:
    sid = f"D0001:S{number:03d}"
    turns = tuple(
        Turn(f"{sid}:T{i:04d}", role, "Maya" if role == "assistant" else "Alex", text)
        for i, (role, text) in enumerate(lines, start=1)
    )
    return Session(sid, started_at, turns)


def question(query: str, qid: str = QID) -> Question:
    return Question(qid, "D0001", "KU", query, "2030-01-01T00:00", {}, (), Evidence(turn_ids=()))


S1 = session(1, "2021-01-10T19:00", [
    ("user", "How are things?"),
    ("assistant", "Honestly, I work at Initech as a data analyst. It pays the bills."),
    ("user", "And at home?"),
    ("assistant", "I'm dating Tom Reyes now. I also bought a red car in January."),
])  # fmt: skip
S2 = session(2, "2021-03-02T18:00", [
    ("user", "Any news?"),
    ("assistant", "Guess what, I just started a new job at Globex as a designer!"),
])  # fmt: skip
S3 = session(3, "2021-05-20T20:15", [
    ("user", "You look tired."),
    ("assistant", "Tom and I broke up last month. I also sold my car to a neighbour."),
])  # fmt: skip


class Scripted:
    """A stand-in language model answering with scripted replies (None: a failed call)."""

    def __init__(self, replies: Sequence[str | None], spec: str = "openai/scripted") -> None:
        self.spec = spec
        self.replies = list(replies)

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        out = []
        for _ in requests:
            reply = self.replies.pop(0)
            if reply is None:
                out.append(GenerateResult(text="", error="HTTP 500 after retries"))
            else:
                out.append(GenerateResult(text=reply, input_tokens=100, output_tokens=10))
        return out


def traced(
    tmp_path: Path, system: MemorySystem, sessions: Sequence[Session], q: Question
) -> tuple[Trace, RetrievedContext]:
    """Ingest in a dialogue scope and retrieve in a question scope, as the runner does."""
    path = tmp_path / "trace.jsonl"

    async def go() -> RetrievedContext:
        with tracer.dialogue("D0001", system=system.name):
            for s in sessions:
                await system.ingest(s)
        with tracer.question(q.id, dialogue_id="D0001", system=system.name):
            return await system.retrieve(q)

    with Tracer(path) as tracer, tracer.activate():
        context = asyncio.run(go())
    trace = read_trace(path)
    assert trace.issues == []
    return trace, context


def by_name(trace: Trace, name: str) -> list[Any]:
    return [o for o in trace.ops if o.name == name]


def test_mem0_style_rules_record_extract_decide_add_update_delete(tmp_path: Path) -> None:
    system = build_memory("mem0_style", MemoryConfig(top_k=10))
    trace, context = traced(tmp_path, system, [S1, S2, S3], question("Where does Maya work?"))
    assert isinstance(system, Mem0Style)
    names = {o.name for o in trace.ops}
    assert names == {"ingest", "extract", "decide", "add", "update", "delete", "retrieve"}
    assert len(by_name(trace, "ingest")) == len(by_name(trace, "extract")) == 3
    first_extract = by_name(trace, "extract")[0]
    assert [i for i, _ in first_extract.reads] == [turn_var(t.id) for t in S1.turns]
    assert first_extract.parent == by_name(trace, "ingest")[0].id
    assert all(o.attrs["system"] == "mem0_style" and o.attrs["dialogue_id"] == "D0001"
               for o in trace.ops)  # fmt: skip
    sources = first_extract.attrs["source_turn_ids"]
    assert sources["candidate:D0001:S001:1"] == ["D0001:S001:T0002"]

    # The employer: added from session 1, updated from session 2; two versions of one unit.
    (job,) = [u for u in system.store.units.values() if u.key == "employer"]
    versions = trace.versions(memory_var(job.id, "D0001"))
    assert [trace.value(v) for v in versions] == [v.text for v in job.versions]
    (updater,) = trace.writers(versions[1].identity, 2)
    assert updater.name == "update" and updater.category == "update"
    assert (versions[0].identity, 1) in updater.reads
    assert any(i.startswith("candidate:D0001:S002:") for i, _ in updater.reads)
    decide = next(o for o in by_name(trace, "decide") if o.attrs["decision"] == "UPDATE")
    assert decide.attrs["target"] == versions[0].identity

    # The partner and the car: deleted in session 3 (tombstones), with the ending candidate.
    deletes = by_name(trace, "delete")
    assert len(deletes) == 2 and all(o.category == "deletion" for o in deletes)
    for op in deletes:
        (identity, version) = op.writes[0]
        assert trace.node(identity, version).deleted
        assert any(i.startswith("candidate:D0001:S003:") for i, _ in op.reads)

    # Read path: the query first, then the memories placed in the context, best first.
    (retrieve,) = by_name(trace, "retrieve")
    assert retrieve.id == f"{QID}/1" == context.trace_op_id
    assert retrieve.reads[0] == (query_var(QID), 1) and retrieve.attrs["ranked"] is True
    assert {i for i, _ in retrieve.reads[1:]} == {memory_var(u, "D0001") for u in context.item_ids}
    assert (memory_var(job.id, "D0001"), 2) in retrieve.reads
    assert trace.value(trace.node(context_var(QID))) == context.text

    # The fact's way: session 2's turn -> extract -> candidate -> update -> memory -> context.
    paths = trace.paths(turn_var("D0001:S002:T0002"), context_var(QID))
    assert paths and any(f"{memory_var(job.id, 'D0001')}@2" in p for p in paths)
    old_way = trace.paths(turn_var("D0001:S001:T0002"), context_var(QID))
    assert any(p.index(f"{memory_var(job.id, 'D0001')}@1") < p.index(updater.id) for p in old_way)


def test_mem0_style_llm_path_records_model_calls_and_failures(tmp_path: Path) -> None:
    replies: list[str | None] = [
        json.dumps({"facts": ["Maya works at Initech.", "Maya dates Tom."]}),
        json.dumps({"facts": ["Maya works at Globex."]}),
        json.dumps({"memory": [{"id": "0", "text": "Maya works at Globex.", "event": "UPDATE"}]}),
        '{"facts": ["broken"',
    ]
    system = build_memory("mem0_style", MemoryConfig(top_k=5), Scripted(replies))  # type: ignore[arg-type]
    trace, _ = traced(tmp_path, system, [S1, S2, S3], question("Where does Maya work?"))
    extracts = by_name(trace, "extract")
    assert [o.status for o in extracts] == ["ok", "ok", "error"]
    assert all(o.model == "openai/scripted" and o.tokens_in == 100 for o in extracts)
    assert extracts[2].writes == () and "invalid JSON" in (extracts[2].error or "")
    decides = by_name(trace, "decide")
    assert decides[0].model is None  # nothing stored yet: every fact is an ADD, no call
    assert decides[1].model == "openai/scripted" and decides[1].tokens_out == 10
    (row,) = decides[1].attrs["decisions"]
    assert row[0] == "UPDATE" and row[2] == "candidate:D0001:S002:1"
    (update,) = by_name(trace, "update")
    assert ("candidate:D0001:S002:1", 1) in update.reads
    assert trace.value(trace.node(update.writes[0][0])) == "Maya works at Globex."


def test_rag_indexes_one_unit_per_round_from_its_turns(tmp_path: Path) -> None:
    system = build_memory("rag_bm25", MemoryConfig(top_k=2, granularity="round"))
    trace, context = traced(tmp_path, system, [S1, S2], question("Where did Maya start a job?"))
    # One index operation per session, naming the exact turns of each unit it wrote.
    index = by_name(trace, "index")
    assert len(index) == 2 and all(o.category == "indexing" for o in index)
    first = index[0]
    assert [i for i, _ in first.reads] == [turn_var(t.id) for t in S1.turns]
    assert first.writes == (("unit:D0001:S001:T0001", 1), ("unit:D0001:S001:T0003", 1))
    assert first.attrs["source_turn_ids"]["unit:D0001:S001:T0001"] == [
        "D0001:S001:T0001",
        "D0001:S001:T0002",
    ]
    assert "Initech" in trace.value(trace.node("unit:D0001:S001:T0001"))
    (retrieve,) = by_name(trace, "retrieve")
    ranked = [i for i, _ in retrieve.reads[1:]]
    assert ranked == [f"unit:{u}" for u, _ in context.meta["ranking"]]
    assert trace.paths(turn_var("D0001:S002:T0002"), context_var(QID))


def test_summary_llm_reads_the_previous_summary_and_falls_back(tmp_path: Path) -> None:
    model = Scripted(["Maya works at Initech and dates Tom.", None])
    system = build_memory("summary", MemoryConfig(), model)  # type: ignore[arg-type]
    trace, _ = traced(tmp_path, system, [S1, S2], question("Where does Maya work?"))
    first, second = by_name(trace, "summarize")
    assert first.writes == (("summary:D0001:S001", 1),) and first.model == "openai/scripted"
    assert ("summary:D0001:S001", 1) in second.reads
    assert second.attrs["fallback"] is True and "HTTP 500" in second.attrs["llm_error"]
    (retrieve,) = by_name(trace, "retrieve")
    assert [i for i, _ in retrieve.reads[1:]] == ["summary:D0001:S001", "summary:D0001:S002"]


def test_history_systems_read_the_turns_they_hand_over(tmp_path: Path) -> None:
    q = Question(QID, "D0001", "KU", "Where?", "2030-01-01T00:00", {}, (),
                 Evidence(turn_ids=("D0001:S002:T0002",)))  # fmt: skip
    trace, _ = traced(tmp_path / "full", build_memory("full_context"), [S1, S2], q)
    (retrieve,) = by_name(trace, "retrieve")
    assert [i for i, _ in retrieve.reads[1:]] == [turn_var(t.id) for t in (*S1.turns, *S2.turns)]
    assert retrieve.attrs["ranked"] is False
    trace, _ = traced(tmp_path / "oracle", build_memory("oracle_evidence"), [S1, S2], q)
    (retrieve,) = by_name(trace, "retrieve")
    assert [i for i, _ in retrieve.reads] == [query_var(QID), turn_var("D0001:S002:T0002")]
    trace, _ = traced(tmp_path / "none", build_memory("no_context"), [S1, S2], q)
    assert [o.name for o in trace.ops] == ["ingest", "ingest", "retrieve"]
    assert by_name(trace, "retrieve")[0].reads == ((query_var(QID), 1),)


def test_without_a_tracer_nothing_is_recorded() -> None:
    assert current_tracer() is NULL_TRACER
    system = build_memory("mem0_style")

    async def go() -> RetrievedContext:
        for s in (S1, S2):
            await system.ingest(s)
        return await system.retrieve(question("Where does Maya work?"))

    context = asyncio.run(go())
    assert context.trace_op_id is None and "Globex" in context.text
