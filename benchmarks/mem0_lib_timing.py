"""Time the real mem0 library's own write and read paths inside umb (the ``mem0`` system).

The extractor is an in-process stand-in that answers mem0's extraction prompt at once with
every line the character said in the new messages, so the numbers are mem0's overhead
(embedding, local Qdrant, the history database, umb's bookkeeping), not a language model's.

    python benchmarks/mem0_lib_timing.py --dialogues 1
    python benchmarks/mem0_lib_timing.py --dialogues 1 --embedder endpoint

``--embedder endpoint`` embeds through the loopback test server (``/v1/embeddings``) instead of
the bundled wordllama. Needs the ``mem0`` and ``testing`` extras.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from umb.bench import Benchmark
from umb.memory import MemoryConfig
from umb.memory._mem0_lib import Mem0Library, Mem0Options
from umb.models import GenerateRequest, GenerateResult


class EchoExtractor:
    """Answers mem0's extraction prompt with the ``user`` lines of its new messages."""

    spec = "openai/echo"

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        out = []
        for request in requests:
            prompt = request.messages[-1].content
            new = prompt.split("## New Messages\n", 1)[-1].split("\n\n## ", 1)[0]
            said = [line[len("user: ") :] for line in new.splitlines() if line.startswith("user: ")]
            memory = [{"id": str(i), "text": text} for i, text in enumerate(said)]
            out.append(GenerateResult(text=json.dumps({"memory": memory})))
        return out


def _stats(seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    mean, p50 = statistics.mean(ms), statistics.median(ms)
    return f"n={len(ms)} mean={mean:.1f} ms p50={p50:.1f} ms p95={p95:.1f} ms"


async def _dialogue(system: Mem0Library, dialogue: Any, questions: list[Any]) -> tuple[list, list]:
    system.start(dialogue)
    writes, reads = [], []
    for session in dialogue.sessions:
        started = time.perf_counter()
        await system.ingest(session)
        writes.append(time.perf_counter() - started)
    for question in questions:
        started = time.perf_counter()
        await system.retrieve(question)
        reads.append(time.perf_counter() - started)
    return writes, reads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", type=Path, help="benchmark directory (default: demo preset)")
    parser.add_argument("--dialogues", type=int, default=1)
    parser.add_argument("--embedder", choices=("wordllama", "endpoint"), default="wordllama")
    parser.add_argument("--top-k", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="umb-mem0-timing-") as tmp:
        bench = args.bench
        if bench is None:
            from umb.pipeline._generate import generate, resolve_config

            bench = Path(tmp) / "bench"
            generate(resolve_config("demo"), bench)
        if args.embedder == "endpoint":
            from umb.testing import running_server

            with running_server() as server:
                os.environ["OPENAI_API_KEY"] = "unused"
                options = Mem0Options(Path(tmp) / "run", "openai/umb-embed", server.base_url)
                report = _run(Benchmark.open(bench), options, args)
                report["server"] = server.stats()
        else:
            report = _run(Benchmark.open(bench), Mem0Options(Path(tmp) / "run"), args)
    print(json.dumps(report, indent=2))


def _run(bench: Benchmark, options: Mem0Options, args: argparse.Namespace) -> dict[str, Any]:
    writes: list[float] = []
    reads: list[float] = []
    memories = 0
    for dialogue in list(bench.iter_dialogues())[: args.dialogues]:
        questions = [q for q in bench.questions if q.dialogue_id == dialogue.id]
        extractor = EchoExtractor()
        system = Mem0Library(MemoryConfig(top_k=args.top_k), extractor, options=options)
        w, r = asyncio.run(_dialogue(system, dialogue, questions))
        writes += w
        reads += r
        memories += system.stats["ADD"]
        system.close()
    return {
        "embedder": options.embedder,
        "sessions": len(writes),
        "memories": memories,
        "ingest_total_s": round(sum(writes), 2),
        "ingest_per_session": _stats(writes),
        "ingest_per_session_after_first": _stats(writes[1:] or writes),
        "retrieve_per_question": _stats(reads),
        "load_average": os.getloadavg()[0],
    }


if __name__ == "__main__":
    main()
