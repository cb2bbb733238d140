"""Wall time, peak memory and longest silence of `umb report` on one run, without and with the
evidence graphs of failed questions.

Usage: python benchmarks/report.py RUN [--pictures 0,50]

RUN is a traced run directory (``umb run --out Q`` leaves one in Q/run). Each report is built in
a fresh subprocess (``--progress``, output piped) into a temporary folder; the page size is that
of ``index.html``, the silence the longest stretch without a line of output (see silence.py).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from silence import measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("run", type=Path)
    parser.add_argument("--pictures", default="0,50", help="--max-trace-pictures values")
    opts = parser.parse_args()
    print(f"{'pictures':<10}{'seconds':>10}{'peak MiB':>10}{'silence s':>10}{'page MiB':>10}")
    for pictures in (int(p) for p in opts.pictures.split(",")):
        with tempfile.TemporaryDirectory(prefix="umb-report-") as tmp:
            out = Path(tmp) / "report"
            got = measure(["report", str(opts.run), "--out", str(out), "--progress",
                           "--max-trace-pictures", str(pictures)])  # fmt: skip
            if got["exit_status"] != 0:
                raise SystemExit(f"umb report exited {got['exit_status']}")
            size = (out / "index.html").stat().st_size / 2**20
        print(f"{pictures:<10}{got['wall_s']:>10.1f}{got['peak_rss_mib']:>10.0f}"
              f"{got['longest_silence_s']:>10.1f}{size:>10.1f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
