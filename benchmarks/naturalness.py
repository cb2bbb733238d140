"""The surface statistics table of docs/naturalness.md, and its sample sessions.

Generates each preset (the umb preset's settings on ``--umb-characters`` characters, since its
1,000 dialogues read alike), imports LoCoMo when its file is given, and prints one Markdown row per
benchmark with the numbers of ``umb stats --style``. ``--samples FILE`` also writes sample
sessions of the small preset, one from each of twenty dialogues.

    python benchmarks/naturalness.py --locomo ../shared/external/locomo10.json --samples s.md
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from umb.bench import Benchmark
from umb.bench._style import style_stats
from umb.interop import import_locomo
from umb.pipeline._generate import generate, resolve_config

FAMILIES = ("IE", "MSR", "TR", "KU", "MA", "ES")


def _row(name: str, s: dict[str, Any]) -> str:
    recall = " | ".join(f"{s['bm25_recall_at_5'].get(f, '–')}" for f in FAMILIES)
    return (
        f"| {name} | {s['distinct_1']} / {s['distinct_2']} / {s['distinct_3']} | "
        f"{s['repeat_turns_pct']}% | {s['short_turns_pct']}% | {s['words_per_turn']} | {recall} | "
        f"{s['bm25_recall_at_5_all']} |"
    )


def _samples(bench: Benchmark, n: int) -> str:
    out = []
    for k, d in enumerate(bench.iter_dialogues()):
        if k == n:
            break
        s = d.sessions[1 + (k * 7) % (len(d.sessions) - 1)]
        out.append(f"### {d.id}, session {s.id.rsplit(':', 1)[1]} ({s.started_at[:10]})\n")
        out += [f"> **{t.speaker}:** {t.text}  " for t in s.turns]
        out.append("")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, help="locomo10.json, to measure LoCoMo too")
    parser.add_argument("--umb-characters", type=int, default=20)
    parser.add_argument("--samples", type=Path, help="write twenty sample sessions here")
    args = parser.parse_args()
    head = " | ".join(FAMILIES)
    print(f"| benchmark | distinct-1/2/3 | repeated turns | turns ≤ 4 words | words/turn | {head} "
          "| recall all |")  # fmt: skip
    print("|---|---|---:|---:|---:|" + "---:|" * (len(FAMILIES) + 1))
    with tempfile.TemporaryDirectory(prefix="umb-nat-") as tmp:
        root = Path(tmp)
        runs = [
            ("demo (seed 0)", resolve_config("demo")),
            ("small (seed 11)", resolve_config("small", seed=11)),
            ("small (seed 0)", resolve_config("small")),
            (f"umb settings, {args.umb_characters} characters",
             resolve_config("umb", characters=args.umb_characters)),
        ]  # fmt: skip
        for name, config in runs:
            out = root / name.split()[0] / str(config.seed)
            generate(config, out)
            bench = Benchmark.open(out)
            print(_row(name, style_stats(bench)), flush=True)
            if args.samples and name.startswith("small (seed 11)"):
                args.samples.write_text(_samples(bench, 20) + "\n")
        if args.locomo:
            out = root / "locomo"
            import_locomo(str(args.locomo), str(out))
            print(_row("LoCoMo (locomo10.json, imported)", style_stats(Benchmark.open(out))))


if __name__ == "__main__":
    main()
