"""Throughput of the openai/<model> path against a local server with a fixed latency.

With a per-request latency L and a concurrency limit C, no client can beat C / L requests per
second; this script reports how close ``load_model("openai/…")`` gets (target: >= 0.9).

    python benchmarks/harness_throughput.py --latency 0.2 --concurrency 16 --requests 800

The server runs in its own process on 127.0.0.1. On a machine shared with other work, the
numbers drop with the load average, which the report includes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from typing import Any

from umb.models import GenerateRequest, Message, ModelOptions, load_model
from umb.testing import running_server


def _requests(n: int, prompt_chars: int, tag: str) -> list[GenerateRequest]:
    padding = "x" * prompt_chars
    return [
        GenerateRequest(
            messages=(
                Message("system", "Answer in JSON."),
                Message("user", f"{tag} question {i}: {padding}"),
            ),
            max_tokens=64,
        )
        for i in range(n)
    ]


async def _run(base_url: str, args: argparse.Namespace, tag: str) -> dict[str, Any]:
    options = ModelOptions(base_url=base_url, concurrency=args.concurrency, max_retries=0)
    model = load_model("openai/bench", options=options)
    try:
        # Opens the connections before the clock starts.
        await model.generate(_requests(args.concurrency * 2, args.prompt_chars, "warm-" + tag))
        requests = _requests(args.requests, args.prompt_chars, tag)
        load = os.getloadavg()[0]
        cpu, started = time.process_time(), time.perf_counter()
        results = await model.generate(requests)
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    finally:
        await model.aclose()
    failed = sum(r.error is not None for r in results)
    if failed:
        raise SystemExit(f"{failed} of {len(results)} requests failed")
    latencies = sorted(r.latency_s for r in results)
    qps = args.requests / elapsed
    return {
        "elapsed_s": round(elapsed, 3),
        "requests_per_s": round(qps, 2),
        "fraction_of_ideal": round(qps * args.latency / args.concurrency, 3),
        "request_latency_p50_s": round(statistics.median(latencies), 4),
        "request_latency_p95_s": round(latencies[int(0.95 * (len(latencies) - 1))], 4),
        "client_cpu_ms_per_request": round(cpu / args.requests * 1000, 3),
        "load_average_1min": round(load, 2),
    }


def main() -> None:
    """Parse options, run the measurement, print one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.2, help="server latency L, seconds")
    parser.add_argument("--concurrency", type=int, default=16, help="client concurrency C")
    parser.add_argument("--requests", type=int, default=800, help="requests N to time per run")
    parser.add_argument("--prompt-chars", type=int, default=2000, help="user message size")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs")
    args = parser.parse_args()
    runs = []
    with running_server(latency=args.latency) as server:
        for i in range(args.repeat):
            server.reset()
            run = asyncio.run(_run(server.base_url, args, f"run{i}"))
            run["server_max_in_flight"] = server.stats()["max_in_flight"]
            runs.append(run)
    fractions = [r["fraction_of_ideal"] for r in runs]
    report = {
        "latency_s": args.latency,
        "concurrency": args.concurrency,
        "requests_per_run": args.requests,
        "prompt_chars": args.prompt_chars,
        "ideal_requests_per_s": round(args.concurrency / args.latency, 2),
        "median_fraction_of_ideal": statistics.median(fractions),
        "best_fraction_of_ideal": max(fractions),
        "runs": runs,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
