"""Kill a traced run, resume it, and check the trace holds every operation exactly once."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import orjson

from umb.trace import TraceConfig, Tracer, read_trace

# A deterministic runner: dialogues are ingested session by session, questions are asked between
# sessions; a question whose result is on disk is skipped, as a resumable runner does. The trace
# scope of a question commits before its result is appended.
PIPELINE = r"""
import os, signal
import orjson
from umb.trace import Tracer, TraceConfig, operation, memory_var, turn_var

DIALOGUES = ["D0001", "D0002"]
ASK_AFTER = {1: ["IE-01"], 2: ["KU-01", "MSR-01"]}


def run(path, results, *, resume, kill_at=None, variant=""):
    done = set()
    if results.exists():
        done = {orjson.loads(l)["qid"] for l in results.read_bytes().splitlines()}
    asked = 0
    tr = Tracer(path, resume=resume, config=TraceConfig(flush_every=64))
    with tr.activate():
        for did in DIALOGUES:
            qids = [f"Q-{did}-{s}" for k in sorted(ASK_AFTER) for s in ASK_AFTER[k]]
            if all(q in done for q in qids):
                continue  # nothing left to ask: the runner does not rebuild this memory
            with tr.dialogue(did):
                for s in range(3):
                    sid = f"{did}:S{s + 1:03d}"
                    with operation("extract", "extraction") as op:
                        for t in range(2):
                            tid = f"{sid}:T{t + 1:04d}"
                            op.read(turn_var(tid), f"turn text {tid}")
                        op.write(f"facts:{sid}", [f"fact of {sid}{variant}"])
                    with operation("update", "update", reads=[f"facts:{sid}"]) as op:
                        if s:
                            op.read(memory_var("m1"))
                        op.write(memory_var("m1"), f"memory after {sid}{variant}")
                    for suffix in ASK_AFTER.get(s, []):
                        qid = f"Q-{did}-{suffix}"
                        if qid in done:
                            continue
                        with tr.question(qid):
                            with operation("retrieve", "retrieval") as op:
                                op.read(f"query:{qid}", f"query {qid}")
                                op.read(memory_var("m1"))
                                op.write(f"context:{qid}", f"context {qid} after {sid}")
                            if kill_at == asked:
                                os.kill(os.getpid(), signal.SIGKILL)
                            with operation("answer", "response", reads=[f"context:{qid}"]) as op:
                                op.write(f"answer:{qid}", f"answer {qid}")
                        with results.open("ab") as f:
                            f.write(orjson.dumps({"qid": qid}) + b"\n")
                        asked += 1
    tr.close()
"""


def _pipeline(tmp_path: Path) -> ModuleType:
    src = tmp_path / "resume_pipeline.py"
    src.write_text(PIPELINE)
    spec = importlib.util.spec_from_file_location("resume_pipeline", src)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _killed_run(tmp_path: Path, path: Path, results: Path, kill_at: int) -> None:
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from pathlib import Path; "
        "import resume_pipeline as p; "
        "p.run(Path(sys.argv[2]), Path(sys.argv[3]), resume=True, kill_at=int(sys.argv[4]))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path), str(path), str(results), str(kill_at)],
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()


def _signature(path: Path) -> dict[str, tuple]:
    trace = read_trace(path)
    return {
        o.id: (
            o.name,
            o.category,
            o.reads,
            o.writes,
            [trace.value(trace.node(*w)) for w in o.writes],
        )
        for o in trace.ops
    }


def test_kill_and_resume_leaves_one_consistent_trace(tmp_path: Path) -> None:
    pipeline = _pipeline(tmp_path)
    reference = tmp_path / "ref" / "trace.jsonl"
    pipeline.run(reference, tmp_path / "ref" / "results.jsonl", resume=False)
    expected = _signature(reference)
    assert len(expected) == 2 * (6 + 3 * 2)

    path, results = tmp_path / "run" / "trace.jsonl", tmp_path / "run" / "results.jsonl"
    results.parent.mkdir()
    _killed_run(tmp_path, path, results, kill_at=4)  # dies inside D0002's second question
    crashed = read_trace(path)
    assert not crashed.scopes["D0002"].committed and crashed.scopes["Q-D0001-IE-01"].committed
    assert len(crashed) < len(expected)  # the unflushed buffer was lost with the process
    with path.open("ab") as f:
        f.write(b'{"t":"op","id":"D0002/9","seq":')  # a write torn by the kill

    probe = Tracer(path, resume=True, config=TraceConfig(fsync=True))
    assert probe.is_committed("Q-D0002-IE-01") and not probe.is_committed("Q-D0002-MSR-01")
    probe.close()  # a resumed run that does nothing adds only its own open and close records
    pipeline.run(path, results, resume=True)
    trace = read_trace(path)
    assert trace.issues == []
    assert not trace.torn_tail  # the resumed writer cut the torn line before appending
    assert _signature(path) == expected  # nothing lost, nothing twice, same versions
    assert [o.seq for o in trace.ops] == sorted({o.seq for o in trace.ops})
    assert all(s.committed for s in trace.scopes.values() if s.kind != "run")
    assert not trace.scopes["run1"].committed  # the killed run's top level never closed
    assert trace.scopes["D0002"].attempts == 2 and trace.scopes["D0002"].kept_attempt == 2
    assert len(orjson.loads(b"[" + b",".join(results.read_bytes().splitlines()) + b"]")) == 6


def test_replayed_committed_scopes_are_not_recorded_twice(tmp_path: Path) -> None:
    pipeline = _pipeline(tmp_path)
    reference = tmp_path / "ref.jsonl"
    pipeline.run(reference, tmp_path / "ref-results.jsonl", resume=False)
    expected = _signature(reference)

    # Crash after the last question's trace scope committed but before its result was written:
    # the resumed run re-ingests D0002 and re-asks that question, replaying committed scopes.
    path, results = tmp_path / "trace.jsonl", tmp_path / "results.jsonl"
    pipeline.run(path, results, resume=False)
    lines = results.read_bytes().splitlines()
    results.write_bytes(b"\n".join(lines[:-1]) + b"\n")
    size_before = path.stat().st_size

    pipeline.run(path, results, resume=True)
    assert _signature(path) == expected
    assert read_trace(path).issues == []
    added = [orjson.loads(line) for line in path.read_bytes()[size_before:].splitlines()]
    assert {r["t"] for r in added} == {"open", "begin", "commit", "close"}
    assert [r["scope"] for r in added if r["t"] == "begin"] == ["run2", "D0002", "Q-D0002-MSR-01"]
    assert [r["scope"] for r in added if r["t"] == "commit"] == ["run2"]


def test_diverging_replay_is_reported(tmp_path: Path) -> None:
    pipeline = _pipeline(tmp_path)
    path, results = tmp_path / "trace.jsonl", tmp_path / "results.jsonl"
    pipeline.run(path, results, resume=False)
    results.write_bytes(b"\n".join(results.read_bytes().splitlines()[:-1]) + b"\n")
    pipeline.run(path, results, resume=True, variant=" (changed)")
    trace = read_trace(path)
    assert any("replay of scope D0002 diverged" in i for i in trace.issues)
    # The new attempt supersedes the old one: the trace shows what the system held last.
    assert trace.value(trace.node("facts:D0002:S001"))[0].endswith("(changed)")


def test_unflushed_scope_is_rerun_as_a_new_attempt(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    tr = Tracer(path, config=TraceConfig(flush_every=1000))
    with tr.activate(), tr.question("Q1"):
        from umb.trace import operation

        with operation("retrieve") as op:
            op.write("context:Q1", "first")
        tr.flush()  # the crash comes after this: the op is on disk, the commit is not
    os.truncate(path, path.stat().st_size - len(b'{"t":"commit","scope":"Q1","a":1,"ops":1}\n'))
    partial = read_trace(path)
    assert not partial.scopes["Q1"].committed and len(partial) == 1

    tr2 = Tracer(path, resume=True)
    assert not tr2.is_committed("Q1")
    with tr2.activate(), tr2.question("Q1"):
        from umb.trace import operation

        with operation("retrieve") as op:
            op.write("context:Q1", "second")
    tr2.close()
    trace = read_trace(path)
    assert [(o.id, o.attempt, o.seq) for o in trace.ops] == [("Q1/1", 2, 1)]
    assert trace.value(trace.node("context:Q1")) == "second"
    assert [n.version for n in trace.versions("context:Q1")] == [1]
    assert trace.issues == [] and trace.scopes["Q1"].committed
