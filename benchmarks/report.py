"""Wall time of `umb report` on one run, without and with the evidence graphs of failed questions.

Usage: python benchmarks/report.py RUN

RUN is a traced run directory (``umb run --out Q`` leaves one in Q/run). Each report is built in
a fresh subprocess into a temporary folder; the page size is that of ``index.html``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("run", type=Path)
    opts = parser.parse_args()
    print(f"{'pictures':<10}{'seconds':>10}{'page MiB':>10}")
    for pictures in (0, 50):
        with tempfile.TemporaryDirectory(prefix="umb-report-") as tmp:
            out = Path(tmp) / "report"
            t0 = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "umb", "report", str(opts.run), "--out", str(out),
                 "--max-trace-pictures", str(pictures)],
                check=True, stdout=subprocess.DEVNULL,
            )  # fmt: skip
            secs = time.perf_counter() - t0
            size = (out / "index.html").stat().st_size / 2**20
        print(f"{pictures:<10}{secs:>10.1f}{size:>10.1f}", flush=True)


if __name__ == "__main__":
    main()
