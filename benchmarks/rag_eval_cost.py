"""What each RAG system costs a whole `umb eval`, and what it scores, on one benchmark.

Usage: python benchmarks/rag_eval_cost.py BENCH [--systems rag_bm25,rag_dense,rag_hybrid]
       [--repeat 1]

Each system runs `umb eval --bench BENCH --system S --model offline --no-trace` in a fresh
subprocess, one system per run, so a system pays its own index builds and wordllama's load.
CPU seconds (user + system of the child) are given beside wall seconds because a shared machine
stretches the wall time; with --repeat N the lowest of N runs is kept. The last column is each
system's CPU over the first system's (issue target: rag_hybrid at most 1.5x rag_bm25).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def measure(bench: Path, system: str, out: Path) -> tuple[float, float, dict[str, object]]:
    """One fresh `umb eval` of ``system``; (wall s, CPU s, its results group)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    command = [
        sys.executable, "-m", "umb", "eval", "--bench", str(bench), "--out", str(out),
        "--system", system, "--model", "offline", "--no-trace", "--no-progress",
    ]  # fmt: skip
    run = subprocess.run(command, stdout=subprocess.DEVNULL)
    if run.returncode != 0:
        raise SystemExit(f"umb eval --system {system} exited {run.returncode}")
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    group: dict[str, object] = json.loads((out / "results.json").read_text())["groups"][0]
    return wall, cpu, group


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("bench", type=Path)
    parser.add_argument("--systems", default="rag_bm25,rag_dense,rag_hybrid")
    parser.add_argument("--repeat", type=int, default=1)
    opts = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="umb-rag-cost-"))
    header = ("system", "n", "task-bal.", "95% CI", "wall s", "CPU s", "CPU x")
    print(("{:<12}{:>7}{:>10}{:>18}{:>9}{:>9}{:>7}").format(*header))
    base = None
    for system in opts.systems.split(","):
        runs = []
        for i in range(opts.repeat):
            out = root / f"{system}-{i}"
            runs.append(measure(opts.bench, system, out))
            subprocess.run(["rm", "-rf", str(out)], check=True)
        wall = min(r[0] for r in runs)
        cpu = min(r[1] for r in runs)
        group = runs[0][2]
        balanced = group["task_balanced"]
        assert isinstance(balanced, dict)
        low, high = balanced["ci95"]
        base = base or cpu
        print(
            f"{system:<12}{group['n']:>7}{balanced['mean']:>10.3f}"
            f"{f'[{low:.3f}, {high:.3f}]':>18}{wall:>9.1f}{cpu:>9.1f}{cpu / base:>7.2f}"
        )
    root.rmdir()


if __name__ == "__main__":
    main()
