"""Kill ``umb eval`` with SIGKILL mid-run, rerun it, and count: nothing lost, nothing repeated."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from umb.eval._runlog import read_records
from umb.testing import OpenAIServer

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


def _complete_lines(path: Path) -> list[bytes]:
    if not path.exists():
        return []
    return [line for line in path.read_bytes().splitlines(keepends=True) if line.endswith(b"\n")]


def _kill_after(command: list[str], records: Path, at_least: int) -> list[bytes]:
    """Start the command, SIGKILL it once ``records`` holds ``at_least`` lines; return them."""
    env = {**os.environ, "OPENAI_API_KEY": "sk-kill-test"}
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while len(_complete_lines(records)) < at_least:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, "the run never got going"
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    return _complete_lines(records)


def test_killed_runs_resume_without_losing_or_repeating_a_record(
    demo_bench: Path, tmp_path: Path, openai_server: OpenAIServer
) -> None:
    openai_server.control(latency=0.04, default_reply='{"answerable": false, "answer": "no"}')
    out = tmp_path / "run"
    records = out / "records.jsonl"
    command = _command(demo_bench, out, openai_server)

    before_first = _kill_after(command, records, at_least=8)
    assert 8 <= len(before_first) < EXPECTED
    before_second = _kill_after(command, records, at_least=len(before_first) + 15)
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
