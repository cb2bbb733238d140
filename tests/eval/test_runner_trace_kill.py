"""Kill a traced ``umb eval`` twice with SIGKILL, resume it, and compare its traces with an
uninterrupted run: the same operations, each exactly once, reading and writing the same
versions of the same values."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _kill import kill_after

from umb.models import ModelOptions
from umb.run import RunConfig, read_records, run_eval, trace_path
from umb.testing import OpenAIServer
from umb.trace import Trace, read_trace

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

SYSTEMS = ("mem0_style", "rag_bm25")
QUESTIONS = 34  # the demo's first two dialogues
EXPECTED = len(SYSTEMS) * QUESTIONS
ENV = {**os.environ, "OPENAI_API_KEY": "sk-trace-kill"}


def _command(bench: Path, out: Path, server: OpenAIServer) -> list[str]:
    return [
        sys.executable, "-m", "umb", "eval", "--bench", str(bench), "--system", ",".join(SYSTEMS),
        "--model", "openai/umb-test", "--base-url", server.base_url, "--out", str(out),
        "--limit", str(QUESTIONS), "--concurrency", "2", "--no-progress",
    ]  # fmt: skip


def _ops(trace: Trace) -> dict[str, tuple[Any, ...]]:
    # seq and timings differ between runs; "cached" marks answers a resumed run took from the
    # response cache. Everything else must be the same.
    return {
        o.id: (o.name, o.category, o.scope, o.reads, o.writes, o.status, o.model,
               {k: v for k, v in o.attrs.items() if k != "cached"})
        for o in trace.ops
    }  # fmt: skip


def test_a_killed_traced_run_resumes_into_the_uninterrupted_trace(
    demo_bench: Path, tmp_path: Path, openai_server: OpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    openai_server.control(latency=0.03, default_reply='{"answerable": false, "answer": "no"}')
    out = tmp_path / "killed"
    command = _command(demo_bench, out, openai_server)
    first = len(kill_after(command, out / "records.jsonl", 6, ENV))
    second = len(kill_after(command, out / "records.jsonl", first + 20, ENV))
    assert 6 <= first < second < EXPECTED
    finish = subprocess.run(command, env=ENV, capture_output=True, text=True, timeout=120,
                            check=False)  # fmt: skip
    assert finish.returncode == 0, finish.stderr
    assert len(read_records(out / "records.jsonl")) == EXPECTED

    monkeypatch.setenv("OPENAI_API_KEY", "sk-trace-kill")
    reference = tmp_path / "straight"
    config = RunConfig(
        bench=demo_bench, out=reference, systems=SYSTEMS, limit=QUESTIONS,
        model="openai/umb-test",
        options=ModelOptions(base_url=openai_server.base_url, concurrency=2),
    )  # fmt: skip
    run_eval(config, progress=False)

    for system in SYSTEMS:
        resumed = read_trace(trace_path(out, system))
        straight = read_trace(trace_path(reference, system))
        assert resumed.issues == [] and straight.issues == []
        got, want = _ops(resumed), _ops(straight)
        assert len(resumed.ops) == len(got)  # no operation id twice
        assert sorted(got) == sorted(want)  # none lost, none extra
        assert got == want
        assert {n.key: n.value_hash for n in resumed.nodes} == {
            n.key: n.value_hash for n in straight.nodes
        }
        # Every dialogue and question scope ended committed; only killed runs' tops did not.
        unfinished = [s.key for s in resumed.scopes.values() if not s.committed]
        assert all(key.startswith("run") for key in unfinished)
        assert max(s.attempts for s in resumed.scopes.values()) >= 2  # something was redone


def test_records_lost_after_their_trace_committed_are_replayed_not_recorded_twice(
    demo_bench: Path, tmp_path: Path
) -> None:
    # A process killed between a question's trace commit and its record: on resume the
    # dialogue and those questions run again, as replays checked against the trace.
    out = tmp_path / "run"
    config = RunConfig(bench=demo_bench, out=out, systems=("mem0_style",), limit=17)
    run_eval(config, progress=False)
    path = trace_path(out, "mem0_style")
    before = read_trace(path)
    op_lines = path.read_bytes().count(b'"t":"op"')
    records = out / "records.jsonl"
    lines = records.read_bytes().splitlines(keepends=True)
    records.write_bytes(b"".join(lines[:-3]))

    outcome = run_eval(config, progress=False)
    assert outcome.written == 3
    after = read_trace(path)
    assert after.issues == [] and path.read_bytes().count(b'"t":"op"') == op_lines
    assert _ops(after) == _ops(before)
    assert after.scopes["D0001"].attempts == 2 and after.scopes["D0001"].kept_attempt == 1
