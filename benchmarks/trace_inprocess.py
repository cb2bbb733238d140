"""The recording's cost in the run's own process: traced against untraced ``run_eval``, in turns.

The whole command (``trace_presets.py``) also pays for start-up, the attribution worker beside
it and the machine's drift over minutes; this measures only what tracing adds to the process
that runs the memory systems. In one process, after a warm-up run, ``run_eval`` (offline model)
runs untraced and traced in turns (untraced first, then traced first, ...), each into a fresh
run directory, and the process's CPU time (``time.process_time``: every thread of it, not the
worker) and wall time are kept per run. The ratio is of each mode's best.

Run: ``python benchmarks/trace_inprocess.py --bench DIR [--systems mem0_style] [--limit 150]
[--rounds 4]`` (generate DIR first with ``umb generate --preset small``).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from umb.run._config import RunConfig
from umb.run._runner import run_eval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", type=Path, required=True)
    parser.add_argument("--systems", default="mem0_style")
    parser.add_argument("--limit", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    systems = tuple(args.systems.split(","))
    runs: dict[str, list[dict[str, float]]] = {"untraced": [], "traced": []}
    with tempfile.TemporaryDirectory(prefix="umb-trace-inprocess-") as tmp:

        def once(name: str, trace: bool) -> dict[str, float]:
            out = Path(tmp) / f"{name}-{time.monotonic_ns()}"
            config = RunConfig(bench=args.bench, out=out, systems=systems, model="offline",
                               limit=args.limit, trace=trace)  # fmt: skip
            cpu, wall = time.process_time(), time.perf_counter()
            run_eval(config, progress=False)
            return {"cpu_s": round(time.process_time() - cpu, 2),
                    "wall_s": round(time.perf_counter() - wall, 2)}  # fmt: skip

        once("warm", True)  # imports, the embedding model, the page cache
        for r in range(args.rounds):
            order = [("untraced", False), ("traced", True)]
            for name, trace in order if r % 2 == 0 else order[::-1]:
                runs[name].append(once(name, trace))
    best = {k: min(v, key=lambda x: x["cpu_s"]) for k, v in runs.items()}
    report = {
        "bench": str(args.bench), "systems": list(systems), "limit": args.limit,
        "rounds": args.rounds, "runs": runs, "best": best,
        "cpu_ratio": round(best["traced"]["cpu_s"] / best["untraced"]["cpu_s"], 3),
        "wall_ratio": round(min(x["wall_s"] for x in runs["traced"])
                            / min(x["wall_s"] for x in runs["untraced"]), 3),
    }  # fmt: skip
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
