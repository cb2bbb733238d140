"""Wall time and peak memory of the quick start, `umb run`, fresh and then run again.

Usage: python benchmarks/quickstart.py [--out DIR]

Each run is a fresh subprocess (`umb run --out DIR --no-progress`); the second reuses the
benchmark and the records, so it times mostly the attribution read-back and the report.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def measure(args: list[str]) -> tuple[float, float]:
    """Run ``python -m umb ARGS`` in a child; return (seconds, peak RSS of children in MiB)."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "umb", *args], check=True, stdout=subprocess.DEVNULL)
    elapsed = time.perf_counter() - t0
    return elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, help="Folder to run in (default: a temp dir).")
    opts = parser.parse_args()
    out = opts.out or Path(tempfile.mkdtemp(prefix="umb-quickstart-")) / "q"
    shutil.rmtree(out, ignore_errors=True)
    print(f"{'step':<8}{'seconds':>10}{'peak MiB':>10}")
    for step in ("fresh", "again"):
        secs, mib = measure(["run", "--out", str(out), "--no-progress"])
        print(f"{step:<8}{secs:>10.1f}{mib:>10.0f}", flush=True)


if __name__ == "__main__":
    main()
