"""Attribution writes the same bytes whatever Python's hash seed: no set order leaks out."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from umb.run import RunConfig, run_eval


@pytest.fixture(scope="module")
def run(demo_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("seeded") / "run"
    config = RunConfig(bench=demo_bench, out=out, systems=("rag_bm25", "mem0_style"))
    run_eval(config, progress=False)
    return out


def _attribute(run: Path, copy: Path, seed: str) -> bytes:
    shutil.copytree(run, copy)
    env = {**os.environ, "PYTHONHASHSEED": seed}
    subprocess.run(
        [sys.executable, "-m", "umb", "attribute", str(copy)],
        env=env, check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    return (copy / "attributions.jsonl").read_bytes()


def test_attributions_are_identical_under_two_hash_seeds(run: Path, tmp_path: Path) -> None:
    first = _attribute(run, tmp_path / "a", "1")
    second = _attribute(run, tmp_path / "b", "4242")
    assert first.count(b"\n") >= 20  # enough failed questions for an order to show
    assert first == second
