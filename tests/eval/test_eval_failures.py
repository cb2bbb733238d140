"""``umb eval`` says when model calls failed, and exits 3 when every one did."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

from umb.testing import OpenAIServer


def _dead_port() -> int:
    # A port that was free a moment ago and has nobody listening on it now.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _eval(bench: Path, out: Path, base_url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, "-m", "umb", "eval", "--bench", str(bench), "--system", "no_context",
            "--model", "openai/m", "--base-url", base_url, "--out", str(out), "--limit", "5",
            "--max-retries", "0", "--no-progress", *extra]  # fmt: skip
    return subprocess.run(args, capture_output=True, text=True, timeout=120, check=False)


def test_nothing_listening_exits_3_and_names_the_failure(demo_bench: Path, tmp_path: Path) -> None:
    result = _eval(demo_bench, tmp_path / "run", f"http://127.0.0.1:{_dead_port()}/v1")
    assert result.returncode == 3, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("umb: error: every model call failed")
    assert "5 of 5 answerer calls failed" in last and "connection error" in last
    # The table still shows what happened: five errors, not a quiet row of zeros.
    row = next(line for line in result.stdout.splitlines() if line.startswith("no_context"))
    assert row.split()[-3] == "5"  # columns end: invalid, errors, ctx tok, n
    results = json.loads((tmp_path / "run" / "results.json").read_text())
    assert results["groups"][0]["errors"] == 5


def test_some_failed_calls_give_a_warning_and_exit_0(
    demo_bench: Path, tmp_path: Path, openai_server: OpenAIServer
) -> None:
    # Two calls answer HTTP 500, the rest succeed.
    openai_server.set_rules({"status": 500, "times": 2})
    result = _eval(demo_bench, tmp_path / "run", openai_server.base_url, "--concurrency", "1")
    assert result.returncode == 0, result.stderr
    warning = [line for line in result.stderr.splitlines() if line.startswith("umb: warning:")]
    assert len(warning) == 1
    assert "2 of 5 answerer calls failed" in warning[0] and "HTTP 500" in warning[0]
    header = next(line for line in result.stdout.splitlines() if line.startswith("system"))
    assert "errors" in header.split()
