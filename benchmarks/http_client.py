"""The HTTP clients of ``openai/<model>``: CPU time per request, plain client against httpx.

Both clients (``umb.models._http``) post the same ~8 kB chat request to the test server
(``umb.testing.openai_server``, no added latency) over kept-alive connections, first one request
at a time, then ``--concurrency`` at a time; the client's own CPU time (``time.process_time``:
the server is another process) and the wall time are divided by the number of requests. The
clients take turns, ``--repeat`` rounds, and each one's best is kept.

Run: ``python benchmarks/http_client.py [--requests 400] [--concurrency 8] [--repeat 3]``
(needs the ``dev`` extra for the test server).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

from umb.models._http import HTTPClient, HttpxClient, PlainHTTPClient
from umb.testing import running_server

_BODY = json.dumps(
    {"model": "m", "messages": [{"role": "user", "content": "word " * 1600}], "max_tokens": 64}
).encode()


def _client(kind: str, base_url: str, keep_alive: int) -> HTTPClient:
    headers = {"Authorization": "Bearer no-key", "Content-Type": "application/json"}
    if kind == "plain":
        return PlainHTTPClient(base_url, headers, keep_alive=keep_alive)
    return HttpxClient(base_url, headers, timeout_s=60, keep_alive=keep_alive, tls=None)


async def _measure(kind: str, base_url: str, requests: int, concurrency: int) -> dict[str, float]:
    client = _client(kind, base_url, concurrency)
    try:
        await asyncio.gather(*(client.post("/chat/completions", _BODY) for _ in range(concurrency)))
        remaining = requests

        async def worker() -> None:
            nonlocal remaining
            while remaining > 0:
                remaining -= 1
                response = await client.post("/chat/completions", _BODY)
                assert response.is_success, response.status_code
                json.loads(response.content)

        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        await client.aclose()
    return {"cpu_ms_per_request": round(cpu / requests * 1000, 3),
            "wall_ms_per_request": round(wall / requests * 1000, 3)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    best: dict[str, dict[str, float]] = {}
    with running_server(latency=0.0) as server:
        for _ in range(args.repeat):
            for kind in ("plain", "httpx"):
                for concurrency in (1, args.concurrency):
                    key = f"{kind}, concurrency {concurrency}"
                    got = asyncio.run(_measure(kind, server.base_url, args.requests, concurrency))
                    cpu = got["cpu_ms_per_request"]
                    if key not in best or cpu < best[key]["cpu_ms_per_request"]:
                        best[key] = got
    report: dict[str, Any] = {"requests": args.requests, "repeat": args.repeat, "best": best}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
