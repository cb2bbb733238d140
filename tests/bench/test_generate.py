"""Generation is reproducible, shardable, and passes its own validator."""

from __future__ import annotations

import filecmp
import subprocess
import sys
from pathlib import Path

import pytest

from umb import ConfigError
from umb.bench import Benchmark
from umb.bench._validate import validate
from umb.pipeline import generate, merge_shards, resolve_config

FILES = ("manifest.json", "world.json", "dialogues.jsonl", "questions.jsonl", "facts.jsonl")


def _same(a: Path, b: Path) -> None:
    for name in FILES:
        assert filecmp.cmp(a / name, b / name, shallow=False), name


def test_same_seed_gives_identical_bytes(demo_bench: Path, tmp_path: Path) -> None:
    generate(resolve_config("demo"), tmp_path / "again")
    _same(demo_bench, tmp_path / "again")


def test_other_seed_differs(demo_bench: Path, tmp_path: Path) -> None:
    generate(resolve_config("demo", seed=1), tmp_path / "seed1")
    assert not filecmp.cmp(
        demo_bench / "questions.jsonl", tmp_path / "seed1" / "questions.jsonl", shallow=False
    )


def test_two_shards_merge_to_the_whole(demo_bench: Path, tmp_path: Path) -> None:
    config = resolve_config("demo")
    generate(config, tmp_path / "s1", shard="1/2")
    generate(config, tmp_path / "s0", shard="0/2")
    merge_shards([tmp_path / "s1", tmp_path / "s0"], tmp_path / "merged")
    _same(demo_bench, tmp_path / "merged")


def test_demo_validates_and_counts(demo_bench: Path) -> None:
    assert validate(demo_bench) == []
    bench = Benchmark.open(demo_bench)
    manifest = bench.manifest
    assert manifest["seed"] == 0 and manifest["config"]["preset"] == "demo"
    assert manifest["counts"]["questions"] == len(bench.questions)
    assert set(manifest["counts"]["questions_per_family"]) == {
        "IE",
        "MSR",
        "ES",
        "TR",
        "KU",
        "MA",
        "ABS",
    }


def test_small_preset_validates(tmp_path: Path) -> None:
    generate(resolve_config("small", characters=30), tmp_path / "small")
    assert validate(tmp_path / "small") == []


def test_bad_config_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        resolve_config("huge")
    with pytest.raises(ConfigError):
        resolve_config("demo", start="2020-01-01", end="2020-03-01")


def test_cli_generate_validate_stats(tmp_path: Path) -> None:
    umb = [sys.executable, "-m", "umb"]
    out = tmp_path / "cli"
    run = subprocess.run(
        [*umb, "generate", "--characters", "3", "--out", str(out), "--no-progress"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "3 dialogues" in run.stdout
    assert subprocess.run([*umb, "validate", str(out)], capture_output=True).returncode == 0
    stats = subprocess.run([*umb, "stats", str(out)], capture_output=True, text=True, check=True)
    assert "questions:" in stats.stdout and "tokens per dialogue" in stats.stdout
    bad = subprocess.run(
        [*umb, "generate", "--preset", "nope", "--out", str(out)], capture_output=True, text=True
    )
    assert bad.returncode == 2
