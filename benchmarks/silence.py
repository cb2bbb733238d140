"""The longest stretch without output of a ``umb`` command, its wall time and peak memory.

Usage: python benchmarks/silence.py [--label NAME] -- umb ARGS... --progress

Runs ``python -m umb ARGS`` in a child process with stdout and stderr piped (``--progress`` then
writes whole lines; a bar redrawn with carriage returns counts at each redraw), stamps each line
as it arrives, and prints one JSON
object: wall seconds, peak RSS of the child (``os.wait4``), the longest gap between two lines
(start and exit included) and the lines either side of it. Target: no gap over 5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from typing import Any


def measure(args: list[str]) -> dict[str, Any]:
    """Run ``umb args`` and time the gaps between its output lines."""
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "umb", *args], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)  # fmt: skip
    assert child.stdout is not None
    stamps: list[tuple[float, str]] = [(0.0, "(start)")]
    pending, pending_at = b"", 0.0
    # A tqdm bar redrawn with carriage returns counts as output at each redraw; a piece is
    # stamped when its first byte came (a redraw starts with "\r", so it ends only at the next).
    while chunk := child.stdout.read1(65536):
        now = time.perf_counter() - started
        first, *rest = re.split(rb"[\r\n]", chunk)
        if not pending:
            pending_at = now
        pending += first
        for piece in rest:
            if pending.strip():
                stamps.append((pending_at, pending.decode("utf-8", "replace").strip()))
            pending, pending_at = piece, now
    if pending.strip():
        stamps.append((pending_at, pending.decode("utf-8", "replace").strip()))
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    stamps.append((wall, "(exit)"))
    gaps = [(b[0] - a[0], a, b) for a, b in zip(stamps, stamps[1:], strict=False)]
    gaps.sort(key=lambda g: -g[0])
    gap, before, after = gaps[0]
    return {
        "command": ["umb", *args],
        "exit_status": os.waitstatus_to_exitcode(status),
        "wall_s": round(wall, 2),
        "peak_rss_mib": round(usage.ru_maxrss / 1024, 1),
        "lines": len(stamps) - 2,
        "longest_silence_s": round(gap, 2),
        "silence_after": f"{before[0]:.1f} s: {before[1][:120]}",
        "silence_until": f"{after[0]:.1f} s: {after[1][:120]}",
        "next_longest_s": [round(g[0], 2) for g in gaps[1:6]],
    }


def main() -> None:
    """Parse options, run the command, print one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--label", help="a name for the measurement in the output")
    parser.add_argument("umb", nargs=argparse.REMAINDER, help="-- umb ARGS...")
    opts = parser.parse_args()
    args = opts.umb[1:] if opts.umb[:1] == ["--"] else opts.umb
    if args[:1] == ["umb"]:
        args = args[1:]
    result = measure(args)
    if opts.label:
        result = {"label": opts.label, **result}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
