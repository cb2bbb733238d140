"""What tracing costs: per recorded operation, and on a whole offline ``umb eval`` run.

1. Per operation: ``benchmarks/trace_micro.py`` (tracing off, on with identities only, on with a
   new value per op), run in a child process, CPU µs per op.
2. On a run: the demo benchmark (generated into a temporary folder) evaluated with every built-in
   offline system and the ``offline`` answerer, tracing on and ``--no-trace`` alternately in the
   same process (after one untimed warm-up of each), ``--repeat`` times. The automatic
   attribution that follows a traced run is timed apart: the headline ratio is the recording
   alone, the second one includes attribution. CPU time of this process is the headline (the
   development machine is shared; wall time mostly measures the neighbours). Each repeat runs
   the two modes back to back, so the headline is the median of the per-repeat ratios (the two
   runs of a pair share the machine's load of that moment); medians and bests of the times are
   reported too.
3. With ``--instructions`` (needs valgrind; about 15 minutes): the same run's cost in executed
   instructions, which other processes on the machine cannot disturb. Three child processes run
   under ``valgrind --tool=callgrind``: start-up and a warm-up only, then the same plus the
   evaluation with ``--no-trace``, then with tracing; the ratio of the evaluation's instructions
   is reported. Instructions are not time (hashing and the interpreter retire them at different
   rates), but a 5% difference is real here, where timings on a shared machine wander by 20%.

Run: ``python benchmarks/trace.py [--repeat 7] [--micro-ops 40000] [--instructions] [--json]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from umb.attribute import attribute_run
from umb.run import RunConfig, run_eval, trace_paths
from umb.trace import read_trace

SYSTEMS = ("full_context", "no_context", "oracle_evidence", "rag_bm25", "rag_dense",
           "rag_hybrid", "mem0_style", "summary")  # fmt: skip
MICRO_CASES = ("baseline", "off", "ids", "values")


def micro(ops: int, repeat: int) -> dict[str, Any]:
    """CPU µs per operation from trace_micro.py (a child process, so nothing here interferes)."""
    script = Path(__file__).with_name("trace_micro.py")
    out = subprocess.run(
        [sys.executable, str(script), "--ops", str(ops), "--repeat", str(repeat), "--json"],
        capture_output=True, text=True, check=True, timeout=1800,
    )  # fmt: skip
    found: dict[str, Any] = json.loads(out.stdout)
    return {k: v for k, v in found.items() if k in MICRO_CASES}


def one_run(bench: Path, out: Path, trace: bool) -> dict[str, float]:
    """Evaluate every offline system once; CPU and wall seconds, then (traced) the attribution
    that ``umb eval`` makes after such a run, timed apart."""
    config = RunConfig(bench=bench, out=out, systems=SYSTEMS, trace=trace)
    gc.collect()
    c0, t0 = time.process_time(), time.perf_counter()
    run_eval(config, progress=False)
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    a0 = time.process_time()
    if trace:
        attribute_run(out, bench=bench, progress=False)
    return {"cpu_s": cpu, "wall_s": wall, "attribution_cpu_s": time.process_time() - a0}


def overhead(repeat: int) -> dict[str, Any]:
    """Tracing on vs off on the demo benchmark, interleaved; medians and their ratio."""
    from umb.pipeline._generate import generate, resolve_config

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        bench = root / "bench"
        generate(resolve_config("demo"), bench)
        one_run(bench, root / "warm-on", True)  # imports, embeddings, caches
        one_run(bench, root / "warm-off", False)
        runs: dict[str, list[dict[str, float]]] = {"on": [], "off": []}
        for r in range(repeat):
            order = ("on", "off") if r % 2 == 0 else ("off", "on")
            for mode in order:
                out = root / f"{mode}-{r}"
                runs[mode].append(one_run(bench, out, mode == "on"))
        traced = root / "on-0"
        sizes = {s: p.stat().st_size for s, p in trace_paths(traced).items()}
        ops = {s: len(read_trace(p).ops) for s, p in trace_paths(traced).items()}
        records = sum(1 for _ in (traced / "records.jsonl").open("rb"))

    def median(mode: str, key: str) -> float:
        return statistics.median(x[key] for x in runs[mode])

    def best(mode: str, key: str) -> float:
        return min(x[key] for x in runs[mode])

    on, off = median("on", "cpu_s"), median("off", "cpu_s")
    pairs = [a["cpu_s"] / b["cpu_s"] for a, b in zip(runs["on"], runs["off"], strict=True)]
    attribution = median("on", "attribution_cpu_s")
    total_ops = sum(ops.values())
    return {
        "systems": list(SYSTEMS),
        "records": records,
        "repeat": repeat,
        "cpu_s": {"off": round(off, 3), "on": round(on, 3),
                  "attribution": round(attribution, 3),
                  "best_off": round(best("off", "cpu_s"), 3),
                  "best_on": round(best("on", "cpu_s"), 3)},
        "wall_s": {"off": round(median("off", "wall_s"), 3),
                   "on": round(median("on", "wall_s"), 3)},
        "ratio_recording": round(statistics.median(pairs), 4),
        "ratio_recording_pairs": [round(r, 4) for r in pairs],
        "ratio_recording_best": round(best("on", "cpu_s") / best("off", "cpu_s"), 4),
        "ratio_with_attribution": round((on + attribution) / off, 4),
        "ops": total_ops,
        "ops_per_question": round(total_ops / records, 1),
        "added_cpu_us_per_op": round((on - off) / total_ops * 1e6, 2),
        "trace_bytes": sum(sizes.values()),
        "trace_bytes_per_op": round(sum(sizes.values()) / total_ops, 1),
        "per_system": {s: {"ops": ops[s], "bytes": sizes[s]} for s in sorted(ops)},
        "runs": runs,
    }  # fmt: skip


def child(mode: str, bench: Path) -> None:
    """What one process of ``--instructions`` runs: a warm-up, then (unless ``none``) the eval."""
    with tempfile.TemporaryDirectory() as tmp:
        warm = RunConfig(bench=bench, out=Path(tmp) / "warm", systems=SYSTEMS, trace=False, limit=3)
        run_eval(warm, progress=False)
        if mode != "none":
            config = RunConfig(bench=bench, out=Path(tmp) / "run", systems=SYSTEMS,
                               trace=mode == "on")  # fmt: skip
            run_eval(config, progress=False)


def instructions() -> dict[str, Any]:
    """Executed instructions of the evaluation, tracing on and off (see the module docstring)."""
    from umb.pipeline._generate import generate, resolve_config

    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (Debian: apt-get install valgrind)")
    counts: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        bench = Path(tmp) / "bench"
        generate(resolve_config("demo"), bench)
        for mode in ("none", "off", "on"):
            out = subprocess.run(
                ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                 sys.executable, __file__, "--child", mode, "--bench", str(bench)],
                capture_output=True, text=True, check=True, timeout=7200,
                env={**os.environ, "PYTHONHASHSEED": "0"},
            )  # fmt: skip
            found = re.search(r"Collected : (\d+)", out.stderr)
            if found is None:
                raise SystemExit(f"valgrind reported no count:\n{out.stderr[-2000:]}")
            counts[mode] = int(found.group(1))
    on, off = counts["on"] - counts["none"], counts["off"] - counts["none"]
    return {"instructions": counts, "eval_off": off, "eval_on": on, "ratio": round(on / off, 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7, help="timed runs per mode (interleaved)")
    ap.add_argument("--micro-ops", type=int, default=40_000)
    ap.add_argument("--micro-repeat", type=int, default=5)
    ap.add_argument("--instructions", action="store_true", help="also count instructions")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--child", choices=("none", "off", "on"), help=argparse.SUPPRESS)
    ap.add_argument("--bench", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.child:
        child(args.child, args.bench)
        return
    result: dict[str, Any] = {
        "load_average": os.getloadavg()[0],
        "micro": micro(args.micro_ops, args.micro_repeat),
        "eval": overhead(args.repeat),
    }
    if args.instructions:
        result["instructions"] = instructions()
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"load average {result['load_average']:.2f}\n")
    print(f"{'per operation':<16} {'cpu µs/op':>10} {'bytes/op':>9}")
    for name, r in result["micro"].items():
        print(f"{name:<16} {r['cpu_us_per_op']:>10.2f} {r['bytes_per_op']:>9.0f}")
    e = result["eval"]
    print(f"\noffline umb eval of the demo benchmark, {len(e['systems'])} systems, "
          f"{e['records']} records, median of {e['repeat']} interleaved runs per mode")  # fmt: skip
    print(f"  CPU s   --no-trace {e['cpu_s']['off']:.2f}   traced {e['cpu_s']['on']:.2f}"
          f"   (+ attribution {e['cpu_s']['attribution']:.2f}); best "
          f"{e['cpu_s']['best_off']:.2f} / {e['cpu_s']['best_on']:.2f}")  # fmt: skip
    print(f"  wall s  --no-trace {e['wall_s']['off']:.2f}   traced {e['wall_s']['on']:.2f}")
    print(f"  ratio traced / --no-trace: {e['ratio_recording']:.3f} recording (median of pairs), "
          f"{e['ratio_recording_best']:.3f} (best / best), "
          f"{e['ratio_with_attribution']:.3f} with attribution")  # fmt: skip
    print(
        f"  {e['ops']:,} operations ({e['ops_per_question']} per record), "
        f"{e['added_cpu_us_per_op']:.1f} CPU µs added per op, "
        f"{e['trace_bytes'] / 1e6:.1f} MB of traces ({e['trace_bytes_per_op']:.0f} B/op)"
    )
    if "instructions" in result:
        i = result["instructions"]
        print(f"  instructions of the evaluation: --no-trace {i['eval_off'] / 1e9:.2f} G, "
              f"traced {i['eval_on'] / 1e9:.2f} G, ratio {i['ratio']:.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
