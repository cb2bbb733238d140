"""The real mem0 library as the ``mem0`` memory system, against the loopback test server."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from memory_helpers import ingest, question, retrieve, session

from umb import ConfigError, MissingDependencyError
from umb.bench import Dialogue, Evidence, Interlocutor, Question, Session, write_benchmark
from umb.memory import MemoryConfig, build_memory
from umb.memory._mem0_lib import Mem0Library, Mem0Options
from umb.memory._mem0_parts import mem0_available
from umb.models import ModelOptions, load_model
from umb.testing import OpenAIServer
from umb.testing._script import hash_embedding

needs_mem0 = pytest.mark.skipif(
    not mem0_available(), reason="mem0ai is not installed: pip install 'unifiedmembench[mem0]'"
)

SESSIONS = [
    session(1, "2021-03-20T18:30", [
        ("user", "How was your week?"),
        ("assistant", "I adopted a beagle called Biscuit last Tuesday."),
        ("user", "Lovely! And your job?"),
        ("assistant", "Still at Initech, nothing new there."),
    ]),
    session(2, "2021-05-02T10:00", [
        ("user", "Any news?"),
        ("assistant", "I moved to Globex as a designer."),
    ]),
    session(3, "2021-06-10T09:00", [("user", "Hi"), ("assistant", "I took up pottery.")]),
]  # fmt: skip
DOG = "Maya adopted a beagle called Biscuit on 2021-03-16."
JOB = "Maya works at Initech."
GLOBEX = "Maya moved to Globex as a designer."
FRIEND = Interlocutor("Alex", "friend", "a cafe")


def _reply(*texts: str) -> str:
    return json.dumps({"memory": [{"id": str(i), "text": t} for i, t in enumerate(texts)]})


# mem0 shows the extractor earlier messages too, so the newest session's rule comes first.
RULES = [
    {"match": "user: Maya: I took up pottery.", "status": 500, "error": "overloaded"},
    {"match": "user: Maya: I moved to Globex", "reply": _reply(GLOBEX)},
    {"match": "user: Maya: I adopted a beagle", "reply": _reply(DOG, JOB)},
]


def _extractor(server: OpenAIServer) -> Any:
    options = ModelOptions(base_url=server.base_url, max_retries=0, timeout_s=10)
    return load_model("openai/umb-test", role="extractor", options=options)


def _mem0(server: OpenAIServer, run_dir: Path, embedder: str, top_k: int = 5) -> Mem0Library:
    options = Mem0Options(run_dir=run_dir, embedder=embedder)
    system = Mem0Library(MemoryConfig(top_k=top_k), _extractor(server), options=options)
    system.start(Dialogue("D0001", "C0001", FRIEND, tuple(SESSIONS)))
    return system


@needs_mem0
def test_two_sessions_through_the_endpoint(openai_server: OpenAIServer, tmp_path: Path) -> None:
    openai_server.set_rules(*RULES)
    system = _mem0(openai_server, tmp_path / "run", "openai/umb-embed")
    try:
        ingest(system, SESSIONS[:2])
        late = retrieve(system, question("What is the name of Maya's dog?", "2021-06-01T00:00"))
        early = retrieve(system, question("What is the name of Maya's dog?", "2021-04-01T00:00"))
    finally:
        system.close()

    # Memories in time order, as [date] lines; each knows the turns it came from.
    assert sorted(late.text.splitlines()) == sorted(
        [f"[2021-03-20] {DOG}", f"[2021-03-20] {JOB}", f"[2021-05-02] {GLOBEX}"]
    )
    assert late.text.splitlines()[-1] == f"[2021-05-02] {GLOBEX}"
    assert set(late.source_turn_ids) == {
        "D0001:S001:T0002", "D0001:S001:T0004", "D0001:S002:T0002"
    }  # fmt: skip
    assert len(late.item_ids) == 3 and late.meta["write_stats"]["ADD"] == 3
    # A question asked before session 2 sees only session 1's memories.
    assert {line[:12] for line in early.text.splitlines()} == {"[2021-03-20]"}

    # The requests: one extraction per session, in JSON mode, the character as mem0's user
    # and the session's date in the instructions; embeddings from the same server.
    chats = [r for r in openai_server.requests() if r["messages"]]
    assert len(chats) == 2 and all(r["json_mode"] for r in chats)
    prompt = chats[0]["messages"][-1]["content"]
    assert "user: Maya: I adopted a beagle called Biscuit last Tuesday." in prompt
    assert "assistant: Alex: How was your week?" in prompt
    assert "took place on 2021-03-20 at 18:30" in prompt
    stats = openai_server.stats()
    assert stats["statuses"] == {"200": stats["requests"]}
    assert stats["embedding_requests"] == 7  # probe, 2 x (search + batch), 2 queries

    # mem0's own files are in this instance's folder of the run directory.
    assert system.folder is not None and system.folder.parent == tmp_path / "run" / "mem0"
    with sqlite3.connect(system.folder / "history.db") as db:
        events = db.execute("SELECT event, new_memory FROM history ORDER BY new_memory").fetchall()
    assert events == sorted([("ADD", DOG), ("ADD", JOB), ("ADD", GLOBEX)], key=lambda e: e[1])


@needs_mem0
def test_failed_extraction_skips_the_session(openai_server: OpenAIServer, tmp_path: Path) -> None:
    openai_server.set_rules(*RULES)
    system = _mem0(openai_server, tmp_path / "run", "openai/umb-embed", top_k=1)
    try:
        ingest(system, SESSIONS)  # session 3's extraction answers HTTP 500
        context = retrieve(system, question("Where does Maya work, Globex?"))
    finally:
        system.close()
    assert context.text == f"[2021-05-02] {GLOBEX}"  # top_k = 1
    stats = context.meta["write_stats"]
    assert stats["failed_calls"] == 1 and stats["skipped_batches"] == 1
    assert stats["llm_calls"] == 3 and stats["ADD"] == 3


@needs_mem0
def test_wordllama_embedder_needs_no_endpoint(
    openai_server: OpenAIServer, tmp_path: Path, offline_embedder: Any
) -> None:
    openai_server.set_rules(*RULES)
    system = _mem0(openai_server, tmp_path / "run", "wordllama", top_k=1)
    try:
        ingest(system, SESSIONS[:2])
        context = retrieve(system, question("What is the name of Maya's beagle?"))
    finally:
        system.close()
    assert context.text == f"[2021-03-20] {DOG}"
    assert context.source_turn_ids == ("D0001:S001:T0002",)
    assert openai_server.stats()["embedding_requests"] == 0


def test_needs_a_language_model_and_the_library(monkeypatch: pytest.MonkeyPatch) -> None:
    dialogue = Dialogue("D0001", "C0001", FRIEND, tuple(SESSIONS))
    system = build_memory("mem0", MemoryConfig())
    assert isinstance(system, Mem0Library)  # building is free: nothing is imported yet
    with pytest.raises(ConfigError, match="language-model extractor"):
        system.start(dialogue)
    with pytest.raises(ConfigError, match="language-model extractor"):
        build_memory("mem0", MemoryConfig(), load_model("offline")).start(dialogue)
    monkeypatch.setattr("umb.memory._mem0_lib.mem0_available", lambda: False)
    model = load_model("openai/m", options=ModelOptions(base_url="http://127.0.0.1:9/v1"))
    with pytest.raises(MissingDependencyError, match=r"unifiedmembench\[mem0\]"):
        build_memory("mem0", MemoryConfig(), model).start(dialogue)


def test_options(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("UMB_RUN_DIR", str(tmp_path))
    monkeypatch.setenv("UMB_MEM0_EMBEDDER", "openai/nomic-embed-text")
    monkeypatch.delenv("UMB_MEM0_EMBEDDER_BASE_URL", raising=False)
    assert Mem0Options.from_env() == Mem0Options(tmp_path, "openai/nomic-embed-text")
    for bad in ({"embedder": "sentence-transformers"}, {"embedder": "openai/"}, {"threshold": 2}):
        with pytest.raises(ConfigError):
            Mem0Options(**bad)  # type: ignore[arg-type]


def test_test_server_embeddings(openai_server: OpenAIServer) -> None:
    openai = pytest.importorskip("openai", reason="the OpenAI SDK comes with the mem0 extra")
    client = openai.OpenAI(base_url=openai_server.base_url, api_key="k", max_retries=0)
    texts = ["Maya adopted a beagle", "a beagle called Biscuit", "pottery"]
    # The client asks for base64 unless told otherwise; mem0 asks for floats.
    packed = client.embeddings.create(model="e", input=texts).data
    floats = client.embeddings.create(model="e", input=texts, encoding_format="float").data
    a, b, c = vectors = np.array([d.embedding for d in floats])
    np.testing.assert_allclose(vectors, [hash_embedding(t) for t in texts], atol=1e-6)
    np.testing.assert_allclose([d.embedding for d in packed], vectors, atol=1e-6)
    assert np.linalg.norm(a) == pytest.approx(1.0) and a @ b > 0.3 and a @ c == 0
    short = client.embeddings.create(model="e", input="x", dimensions=8).data[0].embedding
    assert len(short) == 8
    with pytest.raises(openai.BadRequestError):
        client.embeddings.create(model="e", input=[])
    stats = openai_server.stats()
    assert (stats["embedding_requests"], stats["embedding_inputs"]) == (3, 7)
    assert stats["statuses"] == {"200": 3, "400": 1}


# --- end to end: umb eval in a fresh interpreter ------------------------------------------------


def _tiny_bench(root: Path) -> list[Question]:
    """One dialogue (the three sessions above) and two questions asked after all of them."""
    asked = "2021-07-01T12:00"
    questions = [
        Question(
            "Q-D0001-IE-01", "D0001", "IE", "What is the name of the beagle Maya adopted?", asked,
            {"answer": "Biscuit", "evidence_snippets": [DOG]}, ("Biscuit",),
            Evidence(session_ids=("D0001:S001",), turn_ids=("D0001:S001:T0002",)),
            {"kind": "slot", "slot": "pet_name", "aliases": []},
        ),
        Question(
            "Q-D0001-IE-02", "D0001", "IE", "Maya moved to which company as a designer?", asked,
            {"answer": "Globex", "evidence_snippets": [GLOBEX]}, ("Globex",),
            Evidence(session_ids=("D0001:S002",), turn_ids=("D0001:S002:T0002",)),
            {"kind": "slot", "slot": "employer", "aliases": []},
        ),
    ]  # fmt: skip
    write_benchmark(
        root,
        world=None,
        dialogues=[Dialogue("D0001", "C0001", FRIEND, tuple(SESSIONS))],
        questions=questions,
        facts=[],
        generator="test_mem0_lib",
        config={},
    )
    return questions


def _session_rules(sessions: list[Session]) -> list[dict[str, Any]]:
    """One extraction reply per session: the character's turns, as memories (newest first)."""
    role = {"assistant": "user", "user": "assistant"}
    rules = []
    for s in sessions:
        # How mem0 lays out the new messages in its extraction prompt.
        shown = "".join(f"{role[t.role]}: {t.speaker}: {t.text}\n" for t in s.turns)
        said = [f"{t.speaker} said: {t.text}" for t in s.turns if t.role == "assistant"]
        rules.append({"match": shown, "reply": _reply(*said)})
    return rules[::-1]


def _files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


@needs_mem0
def test_eval_end_to_end_leaves_nothing_outside_the_run(
    openai_server: OpenAIServer, tmp_path: Path
) -> None:
    bench = tmp_path / "bench"
    questions = _tiny_bench(bench)
    openai_server.set_rules(*_session_rules(SESSIONS))
    home, cwd, tmp, run = (tmp_path / n for n in ("home", "cwd", "tmp", "run"))
    for folder in (home, cwd, tmp):
        folder.mkdir()
    refused = tmp_path / "refused.json"
    before = _files(tmp_path)
    shared_tmp = {p.name for p in Path("/tmp").iterdir()}
    env = {
        **os.environ,
        "HOME": str(home), "TMPDIR": str(tmp), "UMB_RUN_DIR": str(run),
        "UMB_MEM0_EMBEDDER": "openai/umb-embed", "OPENAI_API_KEY": "test-key",
        "HF_HUB_OFFLINE": "1", "MEM0_TELEMETRY": "True",  # umb must switch it off anyway
    }  # fmt: skip
    env.pop("MEM0_DIR", None)
    env.pop("OPENAI_BASE_URL", None)
    command = [
        sys.executable, str(Path(__file__).with_name("mem0_child.py")), str(refused),
        "eval", "--bench", str(bench), "--system", "mem0", "--extractor", "openai/umb-test",
        "--model", "offline", "--base-url", openai_server.base_url, "--out", str(run),
        "--max-retries", "0", "--no-progress", "--top-k", "2",
    ]  # fmt: skip
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]

    # Nothing left the loopback; the server saw one extraction per session and embeddings.
    assert json.loads(refused.read_text()) == []
    stats = openai_server.stats()
    assert stats["statuses"] == {"200": stats["requests"]} and stats["embedding_requests"] > 0
    assert stats["response_format_requests"] == len(SESSIONS)

    # Every new file is in the run directory; HOME, the working directory and TMPDIR stay empty.
    new = _files(tmp_path) - before - {refused}
    assert new and all(run in p.parents for p in new), sorted(map(str, new - _files(run)))
    assert not any(home.iterdir()) and not any(cwd.iterdir()) and not any(tmp.iterdir())
    mem0_files = {p.relative_to(run / "mem0").as_posix() for p in _files(run / "mem0")}
    assert "home/config.json" in mem0_files
    assert any(f.endswith("/history.db") for f in mem0_files)
    assert any(f.endswith("/qdrant/collection/memories/storage.sqlite") for f in mem0_files)
    leaked = {p.name for p in Path("/tmp").iterdir()} - shared_tmp
    assert not {n for n in leaked if any(k in n for k in ("mem0", "qdrant", "fastembed"))}

    # The answerer was handed mem0's memories, with the turns they came from.
    records = {
        r["question_id"]: r
        for r in map(json.loads, (run / "records.jsonl").read_text().splitlines())
    }
    assert set(records) == {q.id for q in questions}
    dog, job = records["Q-D0001-IE-01"], records["Q-D0001-IE-02"]
    assert "D0001:S001:T0002" in dog["source_turn_ids"]
    assert "D0001:S002:T0002" in job["source_turn_ids"]
    assert dog["context_meta"]["write_stats"] == {"ADD": 4, "llm_calls": 3}
    # The offline reader finds both answers in those memories.
    assert (dog["answer"]["answer"], job["answer"]["answer"]) == ("Biscuit", "Globex")
