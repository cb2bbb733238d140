"""Time against workers for ``umb eval`` (local, and Ray with 1..N workers), the per-unit costs
that come out of it, and a model of a 100-node run computed from them (docs/scale.md).

    PYTHONPATH=src HF_HUB_OFFLINE=1 nice -n 10 python benchmarks/scale.py --workers 1,2

Needs the ``ray`` extra. Every run evaluates the same benchmark and systems with the offline
reader (CPU only: memory systems, prompts, scoring), then again against the test server with a
fixed latency standing in for a model replica, so both the CPU cost and the model-bound
throughput of a unit are measured.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from umb.bench import Benchmark
from umb.models import ModelOptions
from umb.pipeline._generate import generate, resolve_config
from umb.run import ExecutorOptions, RunConfig, run_eval
from umb.run._ray_cluster import import_ray
from umb.testing import running_server

SYSTEMS = ("no_context", "rag_bm25")


def _timed(config: RunConfig) -> float:
    started = time.perf_counter()
    outcome = run_eval(config, progress=False)
    assert outcome.results["complete"], "the run did not finish"
    return time.perf_counter() - started


def measure(bench: Path, work: Path, workers: list[int], latency: float) -> dict[str, Any]:
    """Wall times of the same evaluation on each executor, offline and against a slow server."""
    ray = import_ray()
    base = RunConfig(bench=bench, out=work / "local", systems=SYSTEMS, trace=False)
    units = len(SYSTEMS) * len({q.dialogue_id for q in _questions(bench)})
    out: dict[str, Any] = {"units": units, "questions": len(_questions(bench)) * len(SYSTEMS)}
    out["local_s"] = _timed(base)
    started = time.perf_counter()
    ray.init(num_cpus=max(workers), include_dashboard=False, log_to_driver=False,
             _temp_dir=tempfile.mkdtemp(prefix="umb-ray-bench-"))  # fmt: skip
    out["cluster_start_s"] = time.perf_counter() - started
    try:
        out["ray_s"] = {
            w: _timed(replace(base, out=work / f"ray{w}",
                              executor=ExecutorOptions(kind="ray", workers=w)))  # fmt: skip
            for w in workers
        }
        reply = '{"answerable": false, "answer": "no"}'
        with running_server(latency=latency, default_reply=reply) as server:
            api = replace(
                base, model="openai/umb-test", cache=False,
                options=ModelOptions(base_url=server.base_url, concurrency=4),
            )  # fmt: skip
            out["api_local_s"] = _timed(replace(api, out=work / "api-local"))
            out["api_ray_s"] = {
                w: _timed(replace(api, out=work / f"api-ray{w}",
                                  executor=ExecutorOptions(kind="ray", workers=w)))  # fmt: skip
                for w in workers
            }
    finally:
        ray.shutdown()
    return out


def _questions(bench: Path) -> list[Any]:
    return Benchmark.open(bench).questions


def per_unit(m: dict[str, Any]) -> dict[str, float]:
    """Seconds of one (system, dialogue) unit: its CPU work, and Ray's extra cost per unit."""
    units = m["units"]
    one = m["ray_s"][min(m["ray_s"])]
    return {
        "cpu_s": m["local_s"] / units,
        "ray_overhead_s": max(0.0, (one - m["local_s"]) / units),
        "question_cpu_s": m["local_s"] / m["questions"],
    }


def model_run(unit: dict[str, float], *, nodes: int = 100, workers_per_node: int = 16,
              questions: int = 17_000, systems: int = 4, replicas: int = 50,
              per_replica_qps: float = 20.0, node_hour_usd: float = 1.5,
              replica_hour_usd: float = 4.0) -> dict[str, float]:  # fmt: skip
    """Wall time and cost of a cluster run, from the measured per-unit costs.

    CPU side: questions × systems at ``question_cpu_s`` each plus Ray's per-unit cost, spread
    over every worker. Model side: the same answers at ``per_replica_qps`` per replica. The run
    takes the longer of the two (they overlap: workers wait on the model while it answers).
    """
    answers = questions * systems
    units = answers / 17  # the umb preset asks about 17 questions per dialogue
    cpu_s = (answers * unit["question_cpu_s"] + units * unit["ray_overhead_s"]) / (
        nodes * workers_per_node
    )
    model_s = answers / (replicas * per_replica_qps)
    wall_s = max(cpu_s, model_s)
    hours = wall_s / 3600
    return {
        "answers": answers,
        "cpu_bound_s": cpu_s,
        "model_bound_s": model_s,
        "wall_s": wall_s,
        "cost_usd": hours * (nodes * node_hour_usd + replicas * replica_hour_usd),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    parser.add_argument("--latency", type=float, default=0.05, help="test server latency (s)")
    parser.add_argument("--preset", default="demo")
    args = parser.parse_args()
    workers = [int(w) for w in args.workers.split(",")]
    with tempfile.TemporaryDirectory(prefix="umb-scale-") as tmp:
        bench = Path(tmp) / "bench"
        generate(resolve_config(args.preset), bench)
        m = measure(bench, Path(tmp), workers, args.latency)
    unit = per_unit(m)
    print(json.dumps({"measured": m, "per_unit": unit, "model_100_nodes": model_run(unit)},
                     indent=2))  # fmt: skip


if __name__ == "__main__":
    main()
