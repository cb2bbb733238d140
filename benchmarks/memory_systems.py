"""Write- and read-path time of each offline memory system on one long dialogue.

Usage: python benchmarks/memory_systems.py [--target-tokens 50000] [--seed 0]

Generates one dialogue of about ``--target-tokens`` tokens, then for each system ingests every
session and retrieves the context of each of its questions, each system in its own process so
model loading and caches do not leak between them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SYSTEMS = (
    "full_context",
    "no_context",
    "oracle_evidence",
    "rag_bm25",
    "rag_dense",
    "rag_hybrid",
    "mem0_style",
    "summary",
)


def measure_one(bench: Path, system: str) -> dict[str, float]:
    """Ingest the first dialogue and answer its questions' retrievals with ``system``."""
    from umb.bench import Benchmark
    from umb.memory import build_memory

    b = Benchmark.open(bench)
    dialogue = next(b.iter_dialogues())
    questions = [q for q in b.questions if q.dialogue_id == dialogue.id]
    memory = build_memory(system)
    memory.start(dialogue)

    async def go() -> tuple[float, list[float], list[int]]:
        t0 = time.perf_counter()
        for s in dialogue.sessions:
            await memory.ingest(s)
        ingest = time.perf_counter() - t0
        times, tokens = [], []
        for q in questions:
            t = time.perf_counter()
            ctx = await memory.retrieve(q)
            times.append(time.perf_counter() - t)
            tokens.append(ctx.tokens)
        return ingest, times, tokens

    ingest, times, tokens = asyncio.run(go())
    return {
        "ingest_ms": ingest * 1e3,
        "retrieve_total_ms": sum(times) * 1e3,
        "retrieve_median_ms": statistics.median(times) * 1e3,
        "context_tokens_mean": statistics.mean(tokens),
        "questions": len(questions),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--target-tokens", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--one", nargs=2, metavar=("BENCH", "SYSTEM"), help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.one:
        print(json.dumps(measure_one(Path(opts.one[0]), opts.one[1])))
        return
    bench = Path(tempfile.mkdtemp(prefix="umb-mem-")) / "bench"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "umb",
            "generate",
            "--characters",
            "1",
            "--seed",
            str(opts.seed),
            "--target-tokens",
            str(opts.target_tokens),
            "--out",
            str(bench),
            "--no-progress",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    print(
        f"{'system':<16}{'ingest ms':>10}{'retrieve ms (all)':>19}{'median ms':>11}"
        f"{'ctx tokens':>12}"
    )
    for system in SYSTEMS:
        out = subprocess.run(
            [sys.executable, __file__, "--one", str(bench), system],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        r = json.loads(out.strip().splitlines()[-1])
        print(
            f"{system:<16}{r['ingest_ms']:>10.1f}{r['retrieve_total_ms']:>19.1f}"
            f"{r['retrieve_median_ms']:>11.2f}{r['context_tokens_mean']:>12.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
