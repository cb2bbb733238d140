"""A hostile environment: FIFOs, files where directories belong, a full disk, bad numbers."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from _umbcli import copy_bench, lines, one_error_line, umb

import umb._recordlog as record_log
import umb.run._log as run_log
from umb._jsonio import write_all


@pytest.mark.parametrize("command", ["validate", "eval", "stats"])
def test_a_fifo_where_a_file_belongs_is_refused_without_hanging(
    command: str, demo_bench: Path, tmp_path: Path
) -> None:
    bench = copy_bench(demo_bench, tmp_path / "bench")
    (bench / "questions.jsonl").unlink()
    os.mkfifo(bench / "questions.jsonl")
    args = {"validate": ["validate", str(bench)], "stats": ["stats", str(bench)],
            "eval": ["eval", "--bench", str(bench), "--out", str(tmp_path / "run"),
                     "--system", "no_context", "--no-progress"]}[command]  # fmt: skip
    # A blocking open would wait for a writer forever: the timeout turns a hang into a failure.
    result = subprocess.run([sys.executable, "-m", "umb", *args], capture_output=True,
                            text=True, timeout=120, check=False)  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert "questions.jsonl: is a FIFO or device, not a file" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("verb", ["eval", "report", "generate", "run"])
def test_an_existing_file_as_out_is_one_line(
    verb: str, demo_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "taken"
    target.write_text("keep me")
    run = tmp_path / "run"
    if verb == "report":
        made = umb(capsys, "eval", "--bench", demo_bench, "--out", run, "--system", "no_context",
                   "--limit", "2", "--no-progress")  # fmt: skip
        assert made[0] == 0
    args = {"eval": ["eval", "--bench", demo_bench, "--system", "no_context", "--out", target],
            "report": ["report", run, "--out", target],
            "generate": ["generate", "--preset", "demo", "--out", target, "--no-progress"],
            "run": ["run", "--out", target, "--no-progress"]}[verb]  # fmt: skip
    code, _, err = umb(capsys, *args)
    assert code == 2
    assert str(target) in one_error_line(err)
    assert target.read_text() == "keep me"


def test_a_full_disk_mid_run_is_one_line_and_the_rerun_resumes(
    demo_bench: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_write_all = record_log.write_all
    calls = {"n": 0}

    def write_all(fd: int, data: bytes, path: Path) -> None:
        calls["n"] += 1
        if calls["n"] > 4:  # four records fit, then half of the fifth, then the disk is full
            if calls["n"] == 5:
                real_write_all(fd, data[: len(data) // 2], path)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        real_write_all(fd, data, path)

    monkeypatch.setattr(record_log, "write_all", write_all)
    args = ("eval", "--bench", demo_bench, "--out", tmp_path / "run", "--system", "no_context",
            "--limit", "8", "--no-progress")  # fmt: skip
    code, _, err = umb(capsys, *args)
    assert code == 2
    line = one_error_line(err)
    assert line.endswith(f"{tmp_path / 'run' / 'records.jsonl'}: No space left on device")
    monkeypatch.setattr(record_log, "write_all", real_write_all)
    before = len(run_log.read_records(tmp_path / "run" / "records.jsonl"))
    code, out, _ = umb(capsys, *args)
    assert code == 0
    assert f"{8 - before} records written, {before} already there" in out
    assert len(lines(tmp_path / "run" / "records.jsonl")) == 8


def test_write_all_names_the_file_on_a_full_device() -> None:
    fd = os.open("/dev/full", os.O_WRONLY)
    try:
        with pytest.raises(OSError, match="No space left on device") as info:
            write_all(fd, b"{}\n", Path("/dev/full"))
    finally:
        os.close(fd)
    assert info.value.errno == errno.ENOSPC and info.value.filename == "/dev/full"


@pytest.mark.parametrize(
    ("option", "value", "expected"),
    [
        ("--limit", "99999999999999999999999", "Invalid value for '--limit'"),
        ("--limit", "0", "Invalid value for '--limit'"),
        ("--timeout", "nan", "'nan' is not a finite number of seconds above 0"),
        ("--timeout", "inf", "'inf' is not a finite number of seconds above 0"),
        ("--concurrency", "-1", "Invalid value for '--concurrency'"),
    ],
)
def test_numeric_options_are_checked_at_parse_time(
    option: str,
    value: str,
    expected: str,
    demo_bench: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = umb(capsys, "eval", "--bench", demo_bench, "--out", tmp_path / "run",
                       "--system", "no_context", option, value)  # fmt: skip
    assert code == 2
    assert expected in one_error_line(err)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("command", ["eval", "report"])
def test_a_fifo_in_a_run_directory_is_refused_without_hanging(
    command: str, demo_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    eval_args = ["eval", "--bench", str(demo_bench), "--out", str(run), "--system", "no_context",
                 "--limit", "2", "--no-progress"]  # fmt: skip
    assert umb(capsys, *eval_args)[0] == 0
    (run / "records.jsonl").unlink()
    os.mkfifo(run / "records.jsonl")
    args = eval_args if command == "eval" else ["report", str(run), "--out", str(tmp_path / "r")]
    result = subprocess.run([sys.executable, "-m", "umb", *args], capture_output=True,
                            text=True, timeout=120, check=False)  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert "records.jsonl: is a FIFO or device, not a file" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
