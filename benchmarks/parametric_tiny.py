"""Time each step of the parametric ``tiny`` pipeline on this machine, through the CLI.

Usage: python benchmarks/parametric_tiny.py [--keep DIR]

Runs generate, prepare, train, eval and retention as separate ``python -m umb`` children with
the ``tiny`` preset's settings and prints wall and CPU seconds per step and in total (the issue
asks for the whole pipeline in at most 10 minutes on a CPU).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def step(name: str, args: list[str]) -> tuple[float, float]:
    """Run ``python -m umb ARGS``; return (wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "umb", *args], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"{name:10s} wall {wall:7.1f}s  cpu {cpu:7.1f}s", flush=True)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="Keep the outputs here.")
    ns = parser.parse_args()
    root = ns.keep or Path(tempfile.mkdtemp(prefix="umb-parametric-"))
    bench, project, run = root / "bench", root / "project", root / "run"
    steps = [
        ("generate", ["generate", "--out", str(bench), "--characters", "16", "--target-tokens",
                      "1000", "--start", "2022-01-01", "--end", "2023-06-30", "--no-progress"]),
        ("prepare", ["parametric", "prepare", "--bench", str(bench), "--out", str(project),
                     "--stages", "4", "--train-ratio", "0.67", "--control-ratio", "0.25",
                     "--max-chunk-tokens", "256", "--overlap-tokens", "64",
                     "--instructions", "compact"]),
        ("train", ["parametric", "train", "--project", str(project), "--out", str(run),
                   "--pt-epochs", "2", "--sft-epochs", "40", "--pt-lr", "3e-3", "--sft-lr",
                   "3e-3", "--batch-size", "8", "--max-length", "512", "--threads", "1",
                   "--tiny-vocab", "1024", "--warmup-ratio", "0.03", "--no-progress"]),
        ("eval", ["parametric", "eval", "--run", str(run), "--batch-size", "16",
                  "--max-new-tokens", "160", "--no-progress"]),
        ("retention", ["parametric", "retention", "--run", str(run)]),
    ]  # fmt: skip
    total_wall = total_cpu = 0.0
    for name, args in steps:
        wall, cpu = step(name, args)
        total_wall += wall
        total_cpu += cpu
    print(f"{'total':10s} wall {total_wall:7.1f}s  cpu {total_cpu:7.1f}s  ({root})")


if __name__ == "__main__":
    main()
