"""Executor options are checked at once; ``--executor ray`` without the extra is one clear error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from umb import ConfigError, UmbError
from umb.run import ExecutorOptions, RunConfig, run_eval


def test_without_ray_the_error_names_the_extra(
    demo_bench: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    monkeypatch.delitem(sys.modules, "umb.run._ray_eval", raising=False)
    config = RunConfig(bench=demo_bench, out=tmp_path / "run", systems=("no_context",),
                       limit=3, executor=ExecutorOptions(kind="ray"))  # fmt: skip
    with pytest.raises(UmbError, match=r"unifiedmembench\[ray\]"):
        run_eval(config, progress=False)


def test_bad_executor_options_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="--workers"):
        ExecutorOptions(kind="ray", workers=0)
    with pytest.raises(ConfigError, match="--executor"):
        ExecutorOptions(kind="slurm")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="--workers is for --executor ray"):
        ExecutorOptions(workers=4)


def test_the_address_defaults_to_ray_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.7:6379")
    assert ExecutorOptions(kind="ray").address == "10.0.0.7:6379"
    monkeypatch.delenv("RAY_ADDRESS")
    assert ExecutorOptions(kind="ray").address is None


def test_the_cli_reports_the_missing_extra_in_one_line(demo_bench: Path, tmp_path: Path) -> None:
    args = [
        "eval", "--bench", str(demo_bench), "--system", "no_context", "--out",
        str(tmp_path / "run"), "--limit", "2", "--executor", "ray", "--no-progress",
    ]  # fmt: skip
    script = (
        "import sys; sys.modules['ray'] = None; from umb._cli.main import main; "
        f"sys.argv = ['umb', *{args!r}]; main()"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [
        "umb: error: ray is not installed; install it with: pip install 'unifiedmembench[ray]'"
    ]

