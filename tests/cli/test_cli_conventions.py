"""One convention for every command: --force to replace output, progress on a terminal only,
never a carriage return into a pipe; and the terminal summary of `umb eval`."""

from __future__ import annotations

import fcntl
import json
import logging
import os
import pty
import struct
import subprocess
import sys
import termios
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from umb._cli import _progress
from umb._cli.main import cli
from umb.bench import Session
from umb.memory import memory_system_names, register_memory_system
from umb.memory._no_context import NoContext

UMB = [sys.executable, "-m", "umb"]


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*UMB, *args], capture_output=True, text=True, check=False)


def test_generate_into_an_existing_benchmark_needs_force(tmp_path: Path) -> None:
    out = tmp_path / "b"
    assert _run(["generate", "--characters", "2", "--seed", "7", "--out", str(out)]).returncode == 0
    before = json.loads((out / "manifest.json").read_text())["seed"]
    refused = _run(["generate", "--characters", "2", "--seed", "0", "--out", str(out)])
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [
        f"umb: error: {out} already holds a benchmark; pass --force to overwrite it"
    ]
    assert json.loads((out / "manifest.json").read_text())["seed"] == before == 7
    forced = _run(["generate", "--characters", "2", "--seed", "0", "--out", str(out), "--force"])
    assert forced.returncode == 0, forced.stderr
    assert json.loads((out / "manifest.json").read_text())["seed"] == 0


def test_report_and_export_refuse_to_overwrite(demo_bench: Path, tmp_path: Path) -> None:
    target = tmp_path / "locomo.json"
    target.write_text("{}")
    runner = CliRunner()
    args = ["export", str(demo_bench), "--format", "locomo", "--out", str(target)]
    refused = runner.invoke(cli, args)
    assert refused.exit_code != 0 and "pass --force" in str(refused.exception)
    assert target.read_text() == "{}"
    assert runner.invoke(cli, [*args, "--force"]).exit_code == 0
    assert target.read_text() != "{}"


def test_progress_goes_to_a_pipe_only_when_asked_and_as_whole_lines(tmp_path: Path) -> None:
    quiet = _run(["generate", "--characters", "3", "--out", str(tmp_path / "a")])
    assert quiet.returncode == 0 and quiet.stderr == ""  # stderr is a pipe: no progress
    asked = _run(["generate", "--characters", "3", "--out", str(tmp_path / "b"), "--progress"])
    assert asked.returncode == 0
    assert "\r" not in asked.stderr
    assert asked.stderr.splitlines()[-1] == "generate: 3/3 dialogues"
    for verb in ("validate", "stats"):
        piped = _run([verb, str(tmp_path / "b"), "--progress"])
        assert piped.returncode == 0 and "\r" not in piped.stderr
        assert f"{verb}: 3/3 dialogues" in piped.stderr.splitlines()


def test_progress_lines_come_at_each_tenth_and_after_a_slow_stretch(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with _progress.Progress("work", "items", True) as bar:
        for done in range(101):
            bar(done, 100)
    tenths = capsys.readouterr().err.splitlines()
    assert tenths == [f"work: {n}/100 items" for n in range(0, 101, 10)]
    monkeypatch.setattr(_progress, "HEARTBEAT_S", 0.0)  # every advance is "a while later"
    with _progress.Progress("work", "items", True) as bar:
        for done in (0, 1, 1, 2, 3):
            bar(done, 100)
    assert capsys.readouterr().err.splitlines() == [f"work: {n}/100 items" for n in (0, 1, 2, 3)]


def _on_a_terminal(args: list[str]) -> tuple[int, str]:
    """Run ``umb ARGS`` with stderr on a pseudo-terminal; return (exit status, what it drew)."""
    leader, follower = pty.openpty()
    # A new pseudo-terminal is 0 columns wide: give it the size of a real one.
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.Popen([*UMB, *args], stdout=subprocess.DEVNULL, stderr=follower)
    os.close(follower)
    drawn = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        drawn += chunk
    os.close(leader)
    return proc.wait(timeout=120), drawn.decode("utf-8", "replace")


def test_validate_and_stats_draw_a_bar_on_a_terminal(demo_bench: Path) -> None:
    for verb in ("validate", "stats"):
        status, drawn = _on_a_terminal([verb, str(demo_bench)])
        assert status == 0
        assert f"{verb}: 100%" in drawn and "10/10" in drawn, drawn[-500:]
        status, drawn = _on_a_terminal([verb, str(demo_bench), "--no-progress"])
        assert status == 0 and drawn == ""


def test_eval_prints_families_and_attribution(demo_bench: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    args = ["eval", "--bench", str(demo_bench), "--system", "full_context,no_context",
            "--out", str(run), "--limit", "40"]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    start = lines.index("mean score per family (errors: failed calls; invalid: replies not JSON)")
    header = lines[start + 1].split()
    assert header[:3] == ["system", "model", "IE"] and header[-2:] == ["errors", "invalid"]
    rows = {line.split()[0]: line.split() for line in lines[start + 3 : start + 5]}
    results = json.loads((run / "results.json").read_text())
    for g in results["groups"]:
        ie = g["families"]["IE"]["mean"]
        assert rows[g["system"]][2] == f"{ie:.3f}"
    assert any(line.startswith("questions per family: IE ") for line in lines)
    found = [i for i, line in enumerate(lines) if line.startswith("failed questions by")]
    assert found, result.output
    summary = json.loads((run / "attribution_summary.json").read_text())
    table = {line.split()[0]: line.split() for line in lines[found[0] + 3 : found[0] + 5]}
    for system, entry in summary["systems"].items():
        assert table[system][1] == str(entry["failed"])


class _Noisy(NoContext):
    """A memory system whose library complains, as mem0 does when spaCy's model is missing."""

    name = "test_noisy_library"

    async def ingest(self, session: Session) -> None:
        logging.getLogger("noisylib.models").warning("Failed to load spaCy full model")
        warnings.warn("noisylib: deprecated option", UserWarning, stacklevel=1)
        await super().ingest(session)


if "test_noisy_library" not in memory_system_names():
    register_memory_system("test_noisy_library")(_Noisy)


def test_other_libraries_warnings_go_to_the_run_log(demo_bench: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    args = ["eval", "--bench", str(demo_bench), "--system", "test_noisy_library",
            "--out", str(run), "--limit", "5", "--no-trace"]  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("default")  # the suite turns warnings into errors
        result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "spaCy" not in result.stderr and "deprecated option" not in result.stderr
    log = (run / "run.log").read_text(encoding="utf-8").splitlines()
    assert any("WARNING noisylib.models: Failed to load spaCy full model" in line for line in log)
    assert any("deprecated option" in line for line in log)
    assert f"{len(log)} warning(s) of other libraries in {run / 'run.log'}" in result.stderr
