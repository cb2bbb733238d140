"""``umb generate --executor ray``: character shards on a local Ray cluster, the same bytes."""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray", reason="the ray extra is not installed")

from umb.pipeline import resolve_config  # noqa: E402
from umb.pipeline._generate_ray import SHARDS, _keep, generate_on_ray, generate_shard  # noqa: E402
from umb.run import ExecutorOptions  # noqa: E402

FILES = ("manifest.json", "world.json", "dialogues.jsonl", "questions.jsonl", "facts.jsonl")


def _same(a: Path, b: Path) -> None:
    for name in FILES:
        assert filecmp.cmp(a / name, b / name, shallow=False), name


def test_the_cli_on_ray_writes_the_local_bytes(
    ray_address: str, demo_bench: Path, tmp_path: Path
) -> None:
    out = tmp_path / "bench"
    # --no-audit: the library's bytes; the audit record the CLI adds is tested in tests/audit.
    result = subprocess.run(
        [sys.executable, "-m", "umb", "generate", "--preset", "demo", "--out", str(out),
         "--executor", "ray", "--workers", "2", "--ray-address", ray_address, "--no-progress",
         "--no-audit"],
        env=dict(os.environ), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "wrote" in result.stdout and result.stderr == ""
    _same(demo_bench, out)
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)  # no staging left


def test_a_rerun_keeps_the_shards_already_finished(
    ray_address: str, demo_bench: Path, tmp_path: Path
) -> None:
    config = resolve_config("demo")
    executor = ExecutorOptions(kind="ray", workers=2)
    out = tmp_path / "bench"
    # As a killed run leaves it: shard 0 of 8 finished, a half-written shard 1 (no manifest).
    _keep(out / SHARDS / "0-of-8", generate_shard(config, 0, 8))
    torn = out / SHARDS / "1-of-8"
    torn.mkdir(parents=True)
    (torn / "world.json").write_text("{")
    seen: list[tuple[int, int]] = []
    generate_on_ray(config, out, executor, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(n, 8) for n in range(2, 9)]  # seven shards run, shard 0 reused
    _same(demo_bench, out)
    assert not (out / SHARDS).exists()
