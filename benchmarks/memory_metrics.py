"""What the memory metrics cost on top of a traced ``umb eval``, and their values per system.

Runs a traced evaluation (the offline reader and rule-based extractor), then attribution, then
the memory metrics — the steps of :func:`umb.evaluate`, timed apart, with attribution handing
each trace it reads to the metrics as ``umb eval`` does. The overhead is the metrics' time over
the rest (run + attribution), in wall time and in CPU time of this process; on a shared machine
the CPU time is the steadier number.

Run: ``python benchmarks/memory_metrics.py --preset small [--systems mem0_style,summary]``
(generates the preset in a temporary folder unless ``--bench`` is given). ``--json FILE`` also
writes the numbers and every system's headline rates.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from umb.attribute import MemoryMetricsRun, attribute_run
from umb.run import RunConfig, run_eval

DEFAULT_SYSTEMS = "mem0_style,summary,oracle_memory,no_context"


def _timed(fn: Any) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", type=Path, help="benchmark directory (default: generated)")
    parser.add_argument("--preset", default="small", help="preset to generate without --bench")
    parser.add_argument("--systems", default=DEFAULT_SYSTEMS)
    parser.add_argument("--json", type=Path, help="write the numbers here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="umb-memory-metrics-") as tmp:
        bench = args.bench
        if bench is None:
            from umb.pipeline._generate import generate, resolve_config

            bench = Path(tmp) / args.preset
            generate(resolve_config(args.preset), bench)
        out = Path(tmp) / "run"
        config = RunConfig(bench=bench, out=out, systems=tuple(args.systems.split(",")))
        _, run_wall, run_cpu = _timed(lambda: run_eval(config, progress=False))
        metrics, init_wall, init_cpu = _timed(lambda: MemoryMetricsRun(out, bench=bench))
        handed = {"s": 0.0, "cpu": 0.0}

        def add(system: str, dialogue: Any, dialogues: Any) -> None:
            # Time spent measuring inside attribution's loop belongs to the metrics.
            t, c = time.perf_counter(), time.process_time()
            metrics.add_dialogue(system, dialogue, dialogues)
            handed["s"] += time.perf_counter() - t
            handed["cpu"] += time.process_time() - c

        _, attr_wall, attr_cpu = _timed(lambda: attribute_run(out, bench=bench, on_dialogue=add))
        summary, fin_wall, fin_cpu = _timed(metrics.finish)
        metrics_wall = init_wall + handed["s"] + fin_wall
        metrics_cpu = init_cpu + handed["cpu"] + fin_cpu
        base_wall = run_wall + attr_wall - handed["s"]
        base_cpu = run_cpu + attr_cpu - handed["cpu"]
        numbers = {
            "bench": str(args.bench or args.preset),
            "systems": args.systems,
            "run_s": round(run_wall, 2),
            "attribution_s": round(attr_wall - handed["s"], 2),
            "metrics_s": round(metrics_wall, 2),
            "overhead": round(metrics_wall / base_wall, 4),
            "cpu_run_s": round(run_cpu, 2),
            "cpu_attribution_s": round(attr_cpu - handed["cpu"], 2),
            "cpu_metrics_s": round(metrics_cpu, 2),
            "cpu_overhead": round(metrics_cpu / base_cpu, 4),
            "rates": {s: {k: v["value"] for k, v in e["rates"].items()}
                      for s, e in summary["systems"].items()},  # fmt: skip
            "ci95": {s: {k: v["ci95"] for k, v in e["rates"].items()}
                     for s, e in summary["systems"].items()},  # fmt: skip
            "skipped": summary["skipped"],
        }
    print(json.dumps(numbers, indent=2))
    if args.json:
        args.json.write_text(json.dumps(numbers, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
