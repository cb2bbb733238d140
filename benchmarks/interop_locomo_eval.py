"""Run ``umb eval --scorer locomo_f1`` on the whole of LoCoMo with the offline reader.

Usage: python benchmarks/interop_locomo_eval.py [--file ../shared/external/locomo10.json]

Imports ``locomo10.json`` into a temporary benchmark and evaluates, each in a fresh run
directory: ``rag_bm25`` and ``full_context`` with the default options (rounds, top-k 10), then
``rag_bm25`` and ``rag_dense`` over single turns with top-k 50 for turn-level recall@k. Prints the
wall time of each run, LoCoMo's F1 per native category with the official micro overalls, and the
official recall. The ``offline`` model is a non-LLM reader: these are lower bounds.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

DEFAULT = Path(__file__).resolve().parents[1] / ".." / "shared" / "external" / "locomo10.json"

# (system, granularity, top-k)
RUNS = (
    ("rag_bm25", "round", 10),
    ("full_context", "round", 10),
    ("rag_bm25", "turn", 50),
    ("rag_dense", "turn", 50),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--file", type=Path, default=DEFAULT)
    opts = parser.parse_args()
    from umb.interop import import_locomo
    from umb.memory import MemoryConfig
    from umb.report import format_native
    from umb.run import RunConfig, ScoringOptions, run_eval
    from umb.run._config import parse_granularity

    root = Path(tempfile.mkdtemp(prefix="umb-locomo-eval-"))
    bench = root / "bench"
    import_locomo(opts.file, bench)
    for i, (system, granularity, top_k) in enumerate(RUNS):
        config = RunConfig(
            bench=bench,
            out=root / f"run{i}",
            systems=(system,),
            scoring=ScoringOptions(scorer="locomo_f1"),
            memory=MemoryConfig(top_k=top_k, granularity=parse_granularity(granularity)),
        )
        started = time.perf_counter()
        outcome = run_eval(config, progress=False)
        elapsed = time.perf_counter() - started
        unit = f"{granularity}s, top-k {top_k}" if system.startswith("rag") else "whole history"
        print(f"\n{system} ({unit}): {outcome.written} questions in {elapsed:.1f} s")
        print(format_native(outcome.results))


if __name__ == "__main__":
    main()
