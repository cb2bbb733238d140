"""Kill ``umb eval`` with SIGKILL mid-run, rerun it, and count: nothing lost, nothing repeated."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from _kill import kill_after

from umb.run import read_records
from umb.testing import OpenAIServer

ENV = {**os.environ, "OPENAI_API_KEY": "sk-kill-test"}

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

SYSTEMS = "no_context,oracle_evidence"
QUESTIONS = 40
EXPECTED = 2 * QUESTIONS


def _command(bench: Path, out: Path, server: OpenAIServer) -> list[str]:
    return [
        sys.executable, "-m", "umb", "eval", "--bench", str(bench), "--system", SYSTEMS,
        "--model", "openai/umb-test", "--base-url", server.base_url, "--out", str(out),
        "--limit", str(QUESTIONS), "--concurrency", "4", "--no-progress",
    ]  # fmt: skip


def test_killed_runs_resume_without_losing_or_repeating_a_record(
    demo_bench: Path, tmp_path: Path, openai_server: OpenAIServer
) -> None:
    openai_server.control(latency=0.04, default_reply='{"answerable": false, "answer": "no"}')
    out = tmp_path / "run"
    records = out / "records.jsonl"
    command = _command(demo_bench, out, openai_server)

    before_first = kill_after(command, records, 8, ENV)
    assert 8 <= len(before_first) < EXPECTED
    before_second = kill_after(command, records, len(before_first) + 15, ENV)
    assert before_second[: len(before_first)] == before_first  # nothing rewritten
    assert len(before_second) < EXPECTED

    finish = subprocess.run(
        command, env={**os.environ, "OPENAI_API_KEY": "sk-kill-test"},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert finish.returncode == 0, finish.stderr
    kept = read_records(records)  # strict: a duplicate or broken line raises
    assert len(kept) == EXPECTED
    assert len({(r["system"], r["question_id"]) for r in kept}) == EXPECTED
    lines = records.read_bytes().splitlines(keepends=True)
    assert len(lines) == EXPECTED and all(line.endswith(b"\n") for line in lines)
    assert lines[: len(before_second)] == before_second
    written = EXPECTED - len(before_second)
    assert f"{written} records written, {len(before_second)} already there" in finish.stdout
    assert (out / "results.json").exists()
