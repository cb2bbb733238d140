"""Time and peak memory of `umb generate` for each preset (and of `umb validate` on it).

Usage: python benchmarks/generate.py [--presets demo,small,umb] [--keep DIR]

Each step runs in a fresh subprocess, so peak RSS is that step's own; CPU seconds (user +
system) are given beside wall seconds because a shared machine stretches the wall time.
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


def measure(args: list[str]) -> tuple[float, float, float]:
    """Run ``python -m umb ARGS`` in a child; return (seconds, CPU seconds, peak RSS in MiB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "umb", *args], check=True, stdout=subprocess.DEVNULL)
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    # ru_maxrss of children is the max over all children so far: run the biggest last.
    return elapsed, cpu, max(after.ru_maxrss, before.ru_maxrss) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--presets", default="demo,small,umb")
    parser.add_argument("--keep", type=Path, help="Write benchmarks here instead of a temp dir.")
    opts = parser.parse_args()
    root = opts.keep or Path(tempfile.mkdtemp(prefix="umb-bench-"))
    print(f"{'preset':<8}{'step':<10}{'seconds':>10}{'CPU s':>10}{'peak MiB':>10}{'size MiB':>10}"
          f"{'questions':>11}")  # fmt: skip
    for preset in opts.presets.split(","):
        out = root / preset
        secs, cpu, mib = measure(
            ["generate", "--preset", preset, "--out", str(out), "--no-progress", "--force"]
        )
        size = sum(p.stat().st_size for p in out.iterdir()) / 2**20
        questions = json.loads((out / "manifest.json").read_text())["counts"]["questions"]
        print(f"{preset:<8}{'generate':<10}{secs:>10.1f}{cpu:>10.1f}{mib:>10.0f}{size:>10.0f}"
              f"{questions:>11,}", flush=True)  # fmt: skip
        secs, cpu, mib = measure(["validate", str(out), "--no-progress"])
        print(f"{preset:<8}{'validate':<10}{secs:>10.1f}{cpu:>10.1f}{mib:>10.0f}", flush=True)


if __name__ == "__main__":
    main()
