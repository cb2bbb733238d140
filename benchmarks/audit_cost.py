"""What the audit costs: `umb audit` on each preset, and the generate-time gate against
`umb generate --no-audit`.

Usage: python benchmarks/audit_cost.py [--presets demo,small,umb]

Each step runs in a fresh subprocess; CPU seconds (user + system) are given beside wall seconds
because a shared machine stretches the wall time. The gate's overhead is the CPU of
`umb generate` minus that of `umb generate --no-audit`, over the latter.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def measure(args: list[str]) -> tuple[float, float]:
    """Run ``python -m umb ARGS`` in a child; return (wall seconds, CPU seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    # umb audit exits 1 when a threshold fails: that is a result here, not an error.
    run = subprocess.run([sys.executable, "-m", "umb", *args], stdout=subprocess.DEVNULL)
    if run.returncode not in (0, 1):
        raise SystemExit(f"umb {' '.join(args)} exited {run.returncode}")
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--presets", default="demo,small,umb")
    opts = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="umb-audit-"))
    print(f"{'preset':<8}{'step':<26}{'seconds':>10}{'CPU s':>10}")
    for preset in opts.presets.split(","):
        plain, gated = root / f"{preset}-plain", root / f"{preset}-gated"
        rows = {
            "generate --no-audit": measure(
                ["generate", "--preset", preset, "--out", str(plain), "--no-audit",
                 "--no-progress"]
            ),
            "generate (gate)": measure(
                ["generate", "--preset", preset, "--out", str(gated), "--no-progress"]
            ),
            "audit (with retrieval)": measure(["audit", str(plain)]),
            "audit --no-retrieval": measure(["audit", str(plain), "--no-retrieval"]),
        }  # fmt: skip
        for step, (wall, cpu) in rows.items():
            print(f"{preset:<8}{step:<26}{wall:>10.1f}{cpu:>10.1f}")
        base = rows["generate --no-audit"][1]
        extra = rows["generate (gate)"][1] - base
        print(f"{preset:<8}{'gate overhead':<26}{100 * extra / base:>9.1f}%")
        for path in (plain, gated):
            subprocess.run(["rm", "-rf", str(path)], check=True)


if __name__ == "__main__":
    main()
