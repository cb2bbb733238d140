"""Traced against untraced ``umb eval`` on a generated preset: time, peak memory, trace bytes.

Each mode runs as its own ``umb eval`` child process (the whole command: start-up, the run,
and for the traced one the automatic attribution, made by a second process during the run),
into a fresh run directory. The CPU time (user + system) of the child and everything it
started comes from ``os.wait4``; the peak memory is sampled every 0.1 s as the resident memory
of the child and its descendants together (``psutil``), so two processes count as their sum.
Per system, the trace's bytes per record and operations per record are read from its files.

Each mode's best of ``--repeat`` runs is kept; the order alternates (untraced first, then
traced first, ...), so use an even count.

Run: ``python benchmarks/trace_presets.py --bench DIR --systems rag_bm25,mem0_style
[--limit N] [--repeat 2] [--json FILE]`` (generate DIR first with ``umb generate --preset``).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import psutil


def _dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _run(bench: Path, systems: str, limit: int | None, out: Path, traced: bool) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "umb", "eval", "--bench", str(bench), "--system", systems,
           "--out", str(out), "--no-progress"]  # fmt: skip
    if limit is not None:
        cmd += ["--limit", str(limit)]
    if not traced:
        cmd.append("--no-trace")
    started = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = {"rss": 0}
    sampler = threading.Thread(target=_sample, args=(child.pid, peak), daemon=True)
    sampler.start()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    sampler.join()
    if status != 0:
        err = child.stderr.read().decode() if child.stderr else ""
        raise SystemExit(f"umb eval failed ({status}): {err[-2000:]}")
    return {
        "wall_s": round(wall, 2),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
        "peak_mb": round(peak["rss"] / 2**20, 1),
        "largest_process_peak_mb": round(usage.ru_maxrss / 1024, 1),
    }


def _sample(pid: int, peak: dict[str, int]) -> None:
    # The summed resident memory of the process tree, every 0.1 s, until the child is gone.
    try:
        root = psutil.Process(pid)
        while root.is_running() and root.status() != psutil.STATUS_ZOMBIE:
            total = 0
            for p in [root, *root.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):
                    total += p.memory_info().rss
            peak["rss"] = max(peak["rss"], total)
            time.sleep(0.1)
    except psutil.Error:
        return


def _traces(run: Path) -> dict[str, Any]:
    records: dict[str, int] = {}
    for line in (run / "records.jsonl").read_text().splitlines():
        if line.strip():
            system = json.loads(line)["system"]
            records[system] = records.get(system, 0) + 1
    out: dict[str, Any] = {}
    for path in sorted((run / "traces").glob("*.jsonl*")):
        with gzip.open(path, "rb") if path.suffix == ".gz" else path.open("rb") as f:
            ops = sum(1 for line in f if line.startswith(b'{"t":"op"'))
        n = records.get(path.name.split(".")[0], 0) or 1
        size = path.stat().st_size
        out[path.name.split(".")[0]] = {"bytes": size, "bytes_per_record": round(size / n),
                          "ops_per_record": round(ops / n, 1)}  # fmt: skip
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", type=Path, required=True)
    ap.add_argument("--systems", default="rag_bm25,mem0_style")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    result: dict[str, Any] = {"bench": str(args.bench), "systems": args.systems,
                              "limit": args.limit}  # fmt: skip
    result["bench_bytes"] = _dir_bytes(args.bench)
    with tempfile.TemporaryDirectory() as tmp:
        best: dict[str, dict[str, Any]] = {}
        walls: dict[str, list[float]] = {}  # every run's, in order, to show the spread
        for k in range(args.repeat):
            # ABBA: this machine's speed drifts over minutes; alternating which mode runs first
            # keeps a steady drift from always landing on the same one.
            for mode in ("untraced", "traced") if k % 2 == 0 else ("traced", "untraced"):
                out = Path(tmp) / f"{mode}{k}"
                got = _run(args.bench, args.systems, args.limit, out, mode == "traced")
                walls.setdefault(mode, []).append(got["wall_s"])
                if mode not in best or got["wall_s"] < best[mode]["wall_s"]:
                    best[mode] = got
                if mode == "traced":
                    result["traces"] = _traces(out)
                    result["traces_bytes"] = _dir_bytes(out / "traces")
                shutil.rmtree(out)
        result.update(best)
        result["walls_s"] = walls
    t, u = result["traced"], result["untraced"]
    result["cpu_ratio"] = round(t["cpu_s"] / u["cpu_s"], 3)
    result["wall_ratio"] = round(t["wall_s"] / u["wall_s"], 3)
    result["peak_ratio"] = round(t["peak_mb"] / u["peak_mb"], 3)
    result["traces_over_bench"] = round(result["traces_bytes"] / result["bench_bytes"], 3)
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
