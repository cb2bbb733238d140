"""``umb parametric`` through the real entry point."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from umb._cli.main import cli


def test_prepare_verb(small_bench: Path, tmp_path: Path) -> None:
    out = tmp_path / "proj"
    args = ["parametric", "prepare", "--bench", str(small_bench), "--out", str(out), "--stages",
            "2", "--max-chunk-tokens", "300", "--overlap-tokens", "60", "--families", "IE,KU",
            "--qa-sampling", "upweight", "--qa-max-per-character", "5"]  # fmt: skip
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    assert "stage  1:" in res.output and "dataset_info.json" in res.output
    manifest = json.loads((out / "project.json").read_text())
    assert manifest["config"]["families"] == ["IE", "KU"]
    assert all(r["qa_sft_records"] % 5 == 0 for r in manifest["stages"])
    res = CliRunner().invoke(cli, [*args[:-2], "--families", "IE,XX"])
    assert res.exit_code == 2 and "XX" in res.output


def test_eval_and_retention_verbs(ci_run: dict[str, Any], tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(ci_run["out"] / "run", run, ignore=shutil.ignore_patterns("retention"))
    # run.json names its project relative to the run, so the two move together.
    shutil.copytree(ci_run["out"] / "project", tmp_path / "project")
    res = CliRunner().invoke(cli, ["parametric", "eval", "--run", str(run), "--no-progress",
                                   "--batch-size", "16", "--max-new-tokens", "96",
                                   "--max-items", "8"])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert res.output.startswith("0 new records")
    res = CliRunner().invoke(
        cli, ["parametric", "retention", "--run", str(run), "--resamples", "50"]
    )
    assert res.exit_code == 0, res.output
    assert "loglik:" in res.output and "seen" in res.output
    assert (run / "retention" / "loglik" / "retention_rate_overall_by_model.csv").exists()


def test_errors_are_one_line(tmp_path: Path, small_bench: Path) -> None:
    cmd = [sys.executable, "-m", "umb", "parametric", "train", "--project", str(small_bench),
           "--out", str(tmp_path / "r")]  # fmt: skip
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 2
    assert res.stderr.startswith("umb: error:") and "project.json" in res.stderr
