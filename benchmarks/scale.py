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
    one = m["ray_s"][min(m["ray_s"], key=int)]
    return {
        "cpu_s": m["local_s"] / units,
        "cpu_s_per_1k_dialogue_tokens": m["local_s"] / units / (m["dialogue_tokens"] / 1000),
        "ray_overhead_s": max(0.0, (one - m["local_s"]) / units),
    }


def model_run(unit: dict[str, float], *, nodes: int = 100, workers_per_node: int = 16,
              dialogues: int = 1000, questions: int = 17_000, systems: int = 4,
              dialogue_tokens: int = 100_000, prompt_tokens: int = 26_500, replicas: int = 50,
              prefill_tokens_per_s: float = 15_000, node_hour_usd: float = 1.5,
              replica_hour_usd: float = 4.0) -> dict[str, float]:  # fmt: skip
    """Wall time and cost of a cluster run of the umb preset, from the measured per-unit costs.

    CPU side: each (system, dialogue) unit costs the measured CPU seconds per 1k dialogue tokens
    times its dialogue's length, plus Ray's per-unit cost, spread over every worker. Model
    side: every answer's prompt (``prompt_tokens`` on average: one ``full_context`` system at
    ~100k tokens and three retrieval systems at ~2k) through replicas that prefill
    ``prefill_tokens_per_s`` each (a planning figure for a 7B model on one GPU under vLLM, not
    measured here). The run takes the longer of the two: workers wait on the model meanwhile.
    """
    units = dialogues * systems
    answers = questions * systems
    unit_s = unit["cpu_s_per_1k_dialogue_tokens"] * dialogue_tokens / 1000
    cpu_s = units * (unit_s + unit["ray_overhead_s"]) / (nodes * workers_per_node)
    model_s = answers * prompt_tokens / (replicas * prefill_tokens_per_s)
    wall_s = max(cpu_s, model_s)
    return {
        "units": units,
        "answers": answers,
        "cpu_bound_s": cpu_s,
        "model_bound_s": model_s,
        "wall_s": wall_s,
        "cost_usd": wall_s / 3600 * (nodes * node_hour_usd + replicas * replica_hour_usd),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    parser.add_argument("--latency", type=float, default=0.05, help="test server latency (s)")
    parser.add_argument("--preset", default="demo")
    parser.add_argument("--measured", type=Path, help="recompute the model from saved output")
    args = parser.parse_args()
    workers = [int(w) for w in args.workers.split(",")]
    if args.measured:
        m = json.loads(args.measured.read_text())["measured"]
    else:
        config = resolve_config(args.preset)
        with tempfile.TemporaryDirectory(prefix="umb-scale-") as tmp:
            bench = Path(tmp) / "bench"
            generate(config, bench)
            m = measure(bench, Path(tmp), workers, args.latency)
        m["dialogue_tokens"] = config.target_tokens
    unit = per_unit(m)
    print(json.dumps({"measured": m, "per_unit": unit, "model_100_nodes": model_run(unit)},
                     indent=2))  # fmt: skip


if __name__ == "__main__":
    main()
