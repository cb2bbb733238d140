"""``umb import`` and ``umb export`` through the real entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from umb._cli.main import cli

from .conftest import lme_instance


def test_import_and_export_verbs(tmp_path: Path, umb_bench: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "lme.json"
    res = runner.invoke(
        cli, ["export", str(umb_bench), "--format", "longmemeval", "--out", str(out)]
    )
    assert res.exit_code == 0, res.output
    assert len(json.loads(out.read_text())) == 5
    res = runner.invoke(cli, ["import", "longmemeval", str(out), "-o", str(tmp_path / "b")])
    assert res.exit_code == 0, res.output
    assert "imported 2 dialogues, 3 sessions, 7 turns, 5 questions" in res.output
    src = tmp_path / "longmemeval_oracle.json"
    src.write_text(json.dumps([lme_instance("q1", "multi-session", 4)]))
    res = runner.invoke(cli, ["import", "longmemeval", str(src), "-o", str(tmp_path / "c")])
    assert res.exit_code == 0 and "answer_not_string: 1" in res.output


def test_existing_directory_needs_force(tmp_path: Path, umb_bench: Path) -> None:
    out = tmp_path / "release.json"
    CliRunner().invoke(
        cli, ["export", str(umb_bench), "--format", "umb-release", "--out", str(out)]
    )
    cmd = [
        sys.executable,
        "-c",
        "from umb._cli.main import main; main()",
        "import",
        "umb-release",
        str(out),
        "-o",
        str(umb_bench),
    ]
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert res.returncode == 2 and "--force" in res.stderr
    res = subprocess.run(cmd + ["--force"], capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
    assert "no_sessions: 2" in res.stdout
