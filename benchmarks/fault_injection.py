"""Validate error attribution by fault injection, and report its accuracy.

For each built-in memory system, the questions it answers right (offline reader, rule-based
extractor) are broken one stage at a time — a fact dropped at extraction, corrupted by an update,
its unit deleted, kept out of retrieval, the answer corrupted — the system runs again, traced,
and each question that now fails is attributed. Type accuracy is the share of effective faults
whose attributed error type is the injected one; operation accuracy the share whose decisive
faulty operation is the operation the fault broke.

Run: ``python benchmarks/fault_injection.py [--bench DIR] [--per-cell 14] [--seed 0]``. Without
``--bench`` it generates the demo benchmark in a temporary folder. ``--json FILE`` also writes
every fault with its outcome.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from umb.attribute import FAULT_KINDS
from umb.attribute._faults_run import SYSTEMS, run_fault_injection_sync, status_counts


def _table(rows: list[dict[str, object]]) -> str:
    head = ["system", "fault", "injected", "effective", "type ok", "op ok"]
    body = [[str(r["system"]), str(r["kind"]), str(r["injected"]), str(r["effective"]),
             str(r["type_ok"]), str(r["op_ok"])] for r in rows]  # fmt: skip
    widths = [max(len(x[i]) for x in [head, *body]) for i in range(len(head))]
    fmt = [(lambda c, w: c.ljust(w)) if i < 2 else (lambda c, w: c.rjust(w)) for i in range(6)]
    lines = ["  ".join(f(c, w) for f, c, w in zip(fmt, row, widths, strict=True))
             for row in [head, *body]]  # fmt: skip
    return "\n".join([lines[0], "  ".join("-" * w for w in widths), *lines[1:]])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", type=Path, help="benchmark directory (default: demo, generated)")
    parser.add_argument("--per-cell", type=int, default=14, help="faults per (system, kind)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--systems", default=",".join(SYSTEMS))
    parser.add_argument("--kinds", default=",".join(FAULT_KINDS))
    parser.add_argument("--json", type=Path, help="write every fault and its outcome here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="umb-faults-") as tmp:
        bench = args.bench
        if bench is None:
            from umb.pipeline._generate import generate, resolve_config

            bench = Path(tmp) / "demo"
            generate(resolve_config("demo"), bench)
        started = time.perf_counter()
        report = run_fault_injection_sync(
            bench, Path(tmp) / "work", systems=args.systems.split(","),
            kinds=args.kinds.split(","), per_cell=args.per_cell, seed=args.seed,
        )  # fmt: skip
        elapsed = time.perf_counter() - started
    print(_table(report.table()))
    counts = status_counts(report)
    type_acc, op_acc = report.accuracy()
    n = len(report.effective)
    print(f"\n{len(report.outcomes)} faults injected: {counts['effective']} effective, "
          f"{counts['ineffective']} ineffective (the answer stayed right), "
          f"{counts['not applied']} not applied; {elapsed:.1f} s")  # fmt: skip
    print(f"type accuracy {type_acc:.1%} ({round(type_acc * n)}/{n}), "
          f"operation accuracy {op_acc:.1%} ({round(op_acc * n)}/{n})")  # fmt: skip
    misses = [o.to_dict() for o in report.effective if not (o.type_ok and o.op_ok)]
    for m in misses:
        print(f"  miss: {m['system']} {m['kind']} {m['question_id']} ({m['fact']}): expected "
              f"{m['expected_type']} at {m['expected_op']}, got {m['error_type']} at "
              f"{m['op_id']} — {m['reason']}")  # fmt: skip
    if args.json is not None:
        rows = [o.to_dict() for o in report.outcomes]
        args.json.write_text(json.dumps({"type_accuracy": type_acc, "op_accuracy": op_acc,
                                         "faults": rows}, indent=2) + "\n")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
