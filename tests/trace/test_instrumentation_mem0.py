"""The real mem0 library's write and read paths as trace operations (loopback test server)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from umb.bench import Dialogue, Evidence, Interlocutor, Question, Session, Turn
from umb.memory import MemoryConfig, RetrievedContext
from umb.memory._mem0_lib import Mem0Library, Mem0Options
from umb.memory._mem0_parts import mem0_available
from umb.models import ModelOptions, load_model
from umb.testing import OpenAIServer
from umb.trace import Tracer, context_var, memory_var, read_trace, turn_var

pytestmark = pytest.mark.skipif(not mem0_available(), reason="mem0ai is not installed")

DOG = "Maya adopted a beagle called Biscuit."
JOB = "Maya works at Initech."
GLOBEX = "Maya moved to Globex as a designer."


def _session(n: int, at: str, lines: list[tuple[str, str]]) -> Session:
    sid = f"D0001:S{n:03d}"
    turns = tuple(
        Turn(f"{sid}:T{i:04d}", role, "Maya" if role == "assistant" else "Alex", text)
        for i, (role, text) in enumerate(lines, start=1)
    )
    return Session(sid, at, turns)


SESSIONS = [
    _session(1, "2021-03-20T18:30", [("user", "How was your week?"),
             ("assistant", "I adopted a beagle called Biscuit last Tuesday."),
             ("user", "And your job?"), ("assistant", "Still at Initech, nothing new there.")]),
    _session(2, "2021-05-02T10:00", [("user", "Any news?"),
             ("assistant", "I moved to Globex as a designer.")]),
    _session(3, "2021-06-10T09:00", [("user", "Hi"), ("assistant", "I took up pottery.")]),
]  # fmt: skip


def _reply(*texts: str) -> str:
    return json.dumps({"memory": [{"id": str(i), "text": t} for i, t in enumerate(texts)]})


def test_mem0_records_extract_add_and_retrieve(
    openai_server: OpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    openai_server.set_rules(
        {"match": "user: Maya: I took up pottery.", "status": 500, "error": "overloaded"},
        {"match": "user: Maya: I moved to Globex", "reply": _reply(GLOBEX)},
        {"match": "user: Maya: I adopted a beagle", "reply": _reply(DOG, JOB)},
    )
    options = ModelOptions(base_url=openai_server.base_url, max_retries=0, timeout_s=10)
    extractor = load_model("openai/umb-test", role="extractor", options=options)
    system = Mem0Library(
        MemoryConfig(top_k=5),
        extractor,
        options=Mem0Options(run_dir=tmp_path / "run", embedder="openai/umb-embed"),
    )
    system.start(Dialogue("D0001", "C0001", Interlocutor("Alex", "friend", "a cafe"),
                          tuple(SESSIONS)))  # fmt: skip
    q = Question("Q-D0001-IE-01", "D0001", "IE", "What is the name of Maya's dog?",
                 "2021-07-01T00:00", {}, (), Evidence(turn_ids=("D0001:S001:T0002",)))  # fmt: skip
    path = tmp_path / "trace.jsonl"

    async def go() -> RetrievedContext:
        with tracer.dialogue("D0001", system="mem0"):
            for s in SESSIONS:
                await system.ingest(s)
        with tracer.question(q.id, dialogue_id="D0001", system="mem0"):
            return await system.retrieve(q)

    try:
        with Tracer(path) as tracer, tracer.activate():
            context = asyncio.run(go())
    finally:
        system.close()
        asyncio.run(extractor.aclose())
    trace = read_trace(path)
    assert trace.issues == []
    extracts = [o for o in trace.ops if o.name == "extract"]
    assert [o.status for o in extracts] == ["ok", "ok", "error"]
    assert extracts[0].model == "openai/umb-test" and extracts[0].tokens_in > 0
    assert [i for i, _ in extracts[0].writes] == [
        "candidate:D0001:S001:1",
        "candidate:D0001:S001:2",
    ]
    adds = [o for o in trace.ops if o.name == "add"]
    # mem0's uuids become m1, m2, m3 in the order the memories were made.
    assert [o.writes for o in adds] == [((memory_var(f"m{n}", "D0001"), 1),) for n in (1, 2, 3)]
    assert trace.value(trace.node(memory_var("m3", "D0001"))) == GLOBEX
    (retrieve,) = [o for o in trace.ops if o.name == "retrieve"]
    assert retrieve.attrs["ranked"] is True and len(retrieve.reads) == 4  # the query and three
    assert context.trace_op_id == retrieve.id
    way = trace.paths(turn_var("D0001:S001:T0002"), context_var(q.id))
    assert way and way[0][2].startswith("candidate:D0001:S001:") and "memory:D0001:m" in way[0][4]
