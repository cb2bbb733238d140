"""``umb statetrack build | eval | export | report`` end to end through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from umb._cli.main import cli


def test_build_eval_export_report(dense_bench: Path, tmp_path: Path):
    runner = CliRunner()
    ladder, oracle, base = tmp_path / "ladder", tmp_path / "oracle", tmp_path / "base"
    build = ["--samples", "2", "--levels", "L01,L19", "--no-progress"]
    res = runner.invoke(cli, ["statetrack", "build", "--bench", str(dense_bench), "--out",
                              str(ladder), *build])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "2 levels × 2 samples" in res.output
    res = runner.invoke(cli, ["statetrack", "eval", "--ladder", str(ladder), "--model", "oracle",
                              "--out", str(oracle)])  # fmt: skip
    assert res.exit_code == 0, res.output
    table = [line.split() for line in res.output.splitlines() if line.startswith("L")]
    assert len(table) == 8 and all(row[-1] == "1.000" and row[-2] == "1.000" for row in table)
    res = runner.invoke(cli, ["statetrack", "eval", "--ladder", str(ladder), "--out", str(base),
                              "--baseline-window", "300", "--tasks", "latest,num_changes",
                              "--no-progress"])  # fmt: skip
    assert res.exit_code == 0, res.output
    header = json.loads((base / "header.json").read_text())
    assert header["model"] == "offline" and header["baseline_window"] == 300
    res = runner.invoke(cli, ["statetrack", "report", str(oracle), str(base), "--out",
                              str(tmp_path / "page")])  # fmt: skip
    assert res.exit_code == 0, res.output
    page = (tmp_path / "page" / "index.html").read_text()
    assert "oracle" in page and "offline (window 300)" in page
    res = runner.invoke(cli, ["statetrack", "export", "--ladder", str(ladder), "--out",
                              str(tmp_path / "orig")])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert len(list((tmp_path / "orig" / "fact_track_schema_longest").glob("*.json"))) == 2


def test_bad_options_are_refused(dense_bench: Path, tmp_path: Path):
    runner = CliRunner()
    res = runner.invoke(cli, ["statetrack", "build", "--bench", str(dense_bench), "--out",
                              str(tmp_path), "--tasks", "longest"])  # fmt: skip
    assert res.exit_code != 0 and "unknown task" in res.output
