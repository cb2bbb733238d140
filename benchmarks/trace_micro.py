"""Cost of recording one operation with umb.trace.

Cases (each runs N operations in question scopes of 20 ops, file written and closed inside the
timing):
  baseline      a bare ``with nullcontext()`` block — the floor of any context manager
  off           tracing off: the no-op tracer (``--no-trace``)
  ids           tracing on, reads and writes by identity only (no values)
  values        tracing on, every op writes a new ~200-character value (hashed, stored once)
  values-dup    tracing on, writes values already stored (hashed, deduplicated)
  decorator     tracing on, a ``@traced`` function with one read and its result written

Run: ``python benchmarks/trace_micro.py [--ops 50000] [--repeat 5]``. Prints CPU and wall µs per op,
best of the repeats; ``--json`` prints the figures as JSON instead. With
``--smartcomment PYTHON`` (a Python >= 3.12 with smartcomment installed) it also times
smartcomment's ``comment_op`` on the same values, the reference the tracer was built to beat.
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import tempfile
import time
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path

from umb.trace import Tracer, memory_var, operation, read_trace, traced, turn_var

SCOPE_OPS = 20


def _scoped(tracer: Tracer | None, n: int, body: Callable[[int], None]) -> None:
    for start in range(0, n, SCOPE_OPS):
        scope = tracer.question(f"Q-{start}") if tracer is not None else nullcontext()
        with scope:
            for i in range(start, min(n, start + SCOPE_OPS)):
                body(i)


def case_baseline(n: int, _: Path) -> None:
    def body(i: int) -> None:
        with nullcontext():
            pass

    _scoped(None, n, body)


def case_off(n: int, _: Path) -> None:
    reads = ["turn:D0001:S001:T0001"]

    def body(i: int) -> None:
        with operation("rag.add", "addition", reads=reads) as op:
            op.write("memory:D0001:m1", "text")

    _scoped(None, n, body)


def _on(path: Path, n: int, body: Callable[[int], None]) -> None:
    tr = Tracer(path)
    with tr.activate():
        _scoped(tr, n, body)
    tr.close()


def case_ids(n: int, path: Path) -> None:
    turns = [turn_var(f"D0001:S001:T{i:04d}") for i in range(100)]

    def body(i: int) -> None:
        with operation("rag.add", "addition", reads=[turns[i % 100]]) as op:
            op.write(f"memory:D0001:m{i % 500}")

    _on(path, n, body)


def case_values(n: int, path: Path) -> None:
    texts = [f"[2021-03-20] Maya adopted a beagle called Biscuit, fact {i}. " * 3 for i in range(n)]

    def body(i: int) -> None:
        with operation("rag.add", "addition", reads=["turn:D0001:S001:T0001"]) as op:
            op.write(f"memory:D0001:m{i % 500}", texts[i])

    _on(path, n, body)


def case_values_dup(n: int, path: Path) -> None:
    texts = [
        f"[2021-03-20] Maya adopted a beagle called Biscuit, fact {i}. " * 3 for i in range(50)
    ]

    def body(i: int) -> None:
        with operation("rag.add", "addition", reads=["turn:D0001:S001:T0001"]) as op:
            op.write(f"memory:D0001:m{i % 500}", texts[i % 50])

    _on(path, n, body)


def case_decorator(n: int, path: Path) -> None:
    @traced("mem0.extract", "extraction", reads=lambda i: [turn_var("D0001:S001:T0001")],
            output=lambda r: memory_var("m1", "D0001"))  # fmt: skip
    def extract(i: int) -> str:
        return "Maya adopted a beagle"

    _on(path, n, lambda i: extract(i) and None)


CASES: dict[str, Callable[[int, Path], None]] = {
    "baseline": case_baseline,
    "off": case_off,
    "ids": case_ids,
    "values": case_values,
    "values-dup": case_values_dup,
    "decorator": case_decorator,
}


def measure(name: str, n: int, repeat: int) -> dict[str, float]:
    """Best-of-``repeat`` cost of one case: CPU and wall µs per op, ops/s, trace bytes per op.

    CPU time (user + system of this process) is the headline: on a shared machine wall time
    mostly measures the neighbours.
    """
    best_cpu = best_wall = float("inf")
    size = 0
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "trace.jsonl"
            gc.collect()
            c0, t0 = time.process_time(), time.perf_counter()
            CASES[name](n, path)
            best_wall = min(best_wall, time.perf_counter() - t0)
            best_cpu = min(best_cpu, time.process_time() - c0)
            if path.exists():
                size = path.stat().st_size
                if len(read_trace(path)) != n:
                    raise SystemExit(f"{name}: the trace does not hold {n} operations")
    return {
        "cpu_us_per_op": round(best_cpu / n * 1e6, 3),
        "wall_us_per_op": round(best_wall / n * 1e6, 3),
        "ops_per_s_cpu": round(n / best_cpu) if best_cpu else 0,
        "bytes_per_op": round(size / n, 1),
    }


SMARTCOMMENT = r"""
import gc, sys, time
import smartcomment as sc

n, repeat = int(sys.argv[1]), int(sys.argv[2])
texts = [f"[2021-03-20] Maya adopted a beagle called Biscuit, fact {i}. " * 3 for i in range(n)]
best = float("inf")
for rep in range(repeat):
    gc.collect()
    with sc.comment_graph(), sc.comment_session(session_id=f"s{rep}"):
        c0 = time.process_time()
        for i in range(n):
            sc.comment_op(inputs=["turn:D0001:S001:T0001"], outputs=[texts[i]],
                          op_name="rag.add", category="addition")
        best = min(best, time.process_time() - c0)
print(best / n * 1e6)
"""


def measure_smartcomment(python: str, n: int, repeat: int) -> dict[str, float]:
    """CPU µs per ``comment_op`` call of smartcomment, run in ``python`` (it needs >= 3.12)."""
    out = subprocess.run(
        [python, "-c", SMARTCOMMENT, str(n), str(repeat)],
        capture_output=True,
        text=True,
        check=True,
        timeout=1800,
    )
    us = float(out.stdout.strip().splitlines()[-1])
    return {"cpu_us_per_op": round(us, 3), "wall_us_per_op": float("nan"),
            "ops_per_s_cpu": round(1e6 / us), "bytes_per_op": float("nan")}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--ops", type=int, default=50_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--smartcomment", metavar="PYTHON", help="also time smartcomment there")
    args = ap.parse_args()
    results = {name: measure(name, args.ops, args.repeat) for name in CASES}
    if args.smartcomment:
        # smartcomment keeps the whole graph in memory; a few thousand calls tell its cost.
        n = min(args.ops, 2000)
        results["smartcomment"] = measure_smartcomment(args.smartcomment, n, args.repeat)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{'case':<12} {'cpu µs/op':>10} {'wall µs/op':>11} {'ops/s (cpu)':>12} {'bytes/op':>9}")
    for name, r in results.items():
        print(
            f"{name:<12} {r['cpu_us_per_op']:>10.2f} {r['wall_us_per_op']:>11.2f} "
            f"{r['ops_per_s_cpu']:>12,} {r['bytes_per_op']:>9.0f}"
        )


if __name__ == "__main__":
    main()
