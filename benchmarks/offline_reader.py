"""Time the offline reader per question on long full-history contexts, and its scores.

Generates a small benchmark with long dialogues, renders each question's full history (every
session before the question) and answers it with the offline reader twice: cold (the context's
sentence index is built first) and warm (the index is cached, as for the next question on the
same history). Prints per-family medians and the worst case.

    python benchmarks/offline_reader.py --characters 3 --target-tokens 100000
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from umb.bench import Benchmark
from umb.memory._render import render_sessions
from umb.models import _offline_index
from umb.models.offline import read
from umb.pipeline._generate import generate, resolve_config
from umb.scoring import score_reply


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=3)
    parser.add_argument("--target-tokens", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench"
        config = resolve_config(
            "demo", characters=args.characters, target_tokens=args.target_tokens, seed=args.seed
        )
        generate(config, out)
        bench = Benchmark.open(out)
        dialogues = {d.id: d for d in bench.iter_dialogues()}
        cold: dict[str, list[float]] = defaultdict(list)
        warm: dict[str, list[float]] = defaultdict(list)
        scores: dict[str, list[float]] = defaultdict(list)
        sizes = []
        for q in bench.questions:
            sessions = [s for s in dialogues[q.dialogue_id].sessions if s.started_at < q.asked_at]
            context = render_sessions(sessions)
            sizes.append(len(context))
            _offline_index.build_index.cache_clear()
            t0 = time.perf_counter()
            answer = read(q.family, q.query, q.asked_at, context)
            t1 = time.perf_counter()
            read(q.family, q.query, q.asked_at, context)
            t2 = time.perf_counter()
            cold[q.family].append(t1 - t0)
            warm[q.family].append(t2 - t1)
            scores[q.family].append(score_reply(q, json.dumps(answer))[1].value or 0.0)

    tokens = [s // 4 for s in sizes]
    print(
        f"{len(sizes)} questions; context tokens mean {statistics.mean(tokens):,.0f}, "
        f"max {max(tokens):,}"
    )
    print(f"{'family':6} {'n':>3} {'cold p50 ms':>12} {'cold max':>9} {'warm p50':>9} {'score':>6}")
    for fam in cold:
        print(
            f"{fam:6} {len(cold[fam]):3d} {1000 * statistics.median(cold[fam]):12.1f} "
            f"{1000 * max(cold[fam]):9.1f} {1000 * statistics.median(warm[fam]):9.1f} "
            f"{statistics.mean(scores[fam]):6.2f}"
        )
    every_cold = [x for v in cold.values() for x in v]
    every_warm = [x for v in warm.values() for x in v]
    print(
        f"all    cold mean {1000 * statistics.mean(every_cold):.1f} ms, "
        f"warm mean {1000 * statistics.mean(every_warm):.1f} ms"
    )


if __name__ == "__main__":
    main()
