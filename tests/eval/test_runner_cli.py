"""``umb eval`` and ``umb run`` from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from umb._cli.main import cli


def test_umb_eval_prints_the_leaderboard_and_resumes(demo_bench: Path, tmp_path: Path) -> None:
    args = ["eval", "--bench", str(demo_bench), "--system", "no_context, full_context",
            "--out", str(tmp_path / "run"), "--limit", "10", "--no-progress"]  # fmt: skip
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    assert "task-balanced [95% CI]" in first.output
    assert "20 records written, 0 already there;" in first.output
    again = CliRunner().invoke(cli, args)
    assert "0 records written, 20 already there;" in again.output
    header = json.loads((tmp_path / "run" / "header.json").read_text())
    assert header["systems"] == ["no_context", "full_context"]


def test_umb_eval_errors_are_one_line_and_exit_2(demo_bench: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "umb", "eval", "--bench", str(demo_bench), "--system", "rag_bm52",
         "--out", str(tmp_path / "run")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.strip().startswith("umb: error: unknown memory system 'rag_bm52'")
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_umb_run_generates_evaluates_and_reports(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["run", "--out", str(tmp_path / "demo"), "--no-progress"])
    assert result.exit_code == 0, result.output
    for system in ("full_context", "rag_bm25", "rag_dense", "mem0_style", "no_context",
                   "oracle_evidence"):  # fmt: skip
        assert f"\n{system} " in result.output
    assert (tmp_path / "demo" / "report" / "index.html").exists()
    results = json.loads((tmp_path / "demo" / "run" / "results.json").read_text())
    n = (tmp_path / "demo" / "bench" / "questions.jsonl").read_text().count("\n")
    assert results["complete"] is True and results["records"] == 6 * n
    again = CliRunner().invoke(cli, ["run", "--out", str(tmp_path / "demo"), "--no-progress"])
    assert "(reused)" in again.output and "(0 new records)" in again.output
