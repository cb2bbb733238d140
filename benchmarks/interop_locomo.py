"""Time the LoCoMo importer, exporter and official F1, and a plain BM25 dialog-retrieval recall.

Usage: python benchmarks/interop_locomo.py [--file ../shared/external/locomo10.json] [--repeat 5]

The recall rows index every turn of a conversation the way LoCoMo's ``dialog`` RAG database
does (speaker, "said,", the quoted text, "and shared" + caption), rank turns for each question
with bm25s, and score LoCoMo's official recall@k over all 1,986 questions, for comparison with
the paper's dialog retrieval (DRAGON: 56.7 / 66.2 / 76.7 / 82.7 at k = 5 / 10 / 25 / 50).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

DEFAULT = Path(__file__).resolve().parents[1] / ".." / "shared" / "external" / "locomo10.json"


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``fn()`` over ``repeat`` runs."""
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs)


def bm25_recall(bench: Path, ks: tuple[int, ...]) -> dict[str, float]:
    """Official LoCoMo recall@k of a bm25s turn ranking, over every question."""
    import bm25s

    from umb.bench import Benchmark
    from umb.interop.locomo._scorers import LoCoMoRecall

    b = Benchmark.open(bench)
    native = {s["dialogue_id"]: s for s in _native(bench)}
    by_dialogue: dict[str, list[Any]] = {}
    for q in b.questions:
        by_dialogue.setdefault(q.dialogue_id, []).append(q)
    scorer, records = LoCoMoRecall(), []
    for d in b.iter_dialogues():
        turns = d.turns()
        extras = native[d.id]["turn_extras"]
        docs = []
        for t in turns:
            dia = t.id.split(":", 1)[1]
            caption = extras.get(dia, {}).get("blip_caption")
            text = t.text.removesuffix(f" and shared {caption}.") if caption else t.text
            docs.append(
                f'{t.speaker} said, "{text}"' + (f" and shared {caption}" if caption else "")
            )
        retriever = bm25s.BM25()
        retriever.index(
            bm25s.tokenize(docs, stopwords="en", show_progress=False), show_progress=False
        )
        qs = by_dialogue.get(d.id, [])
        top = min(max(ks), len(docs))
        ids, _ = retriever.retrieve(
            bm25s.tokenize([q.query for q in qs], stopwords="en", show_progress=False),
            k=top,
            show_progress=False,
        )
        for q, row in zip(qs, ids, strict=True):
            records.append(scorer.score_ranking(q, [turns[i].id for i in row], ks=ks))
    agg = scorer.aggregate(records)
    return {f"recall@{k}": agg[f"recall@{k}"] for k in ks}


def _native(bench: Path) -> list[dict[str, Any]]:
    import json

    return json.loads((bench / "native.json").read_text())["samples"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--file", type=Path, default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=5)
    opts = parser.parse_args()
    from umb.bench import Benchmark
    from umb.interop import export_locomo, import_locomo
    from umb.interop._common import native_answer_text
    from umb.interop.locomo._scorers import LoCoMoF1

    root = Path(tempfile.mkdtemp(prefix="umb-interop-"))
    bench = root / "bench"
    t_import = timed(lambda: import_locomo(opts.file, bench), opts.repeat)
    t_export = timed(lambda: export_locomo(bench, root / "out.json"), opts.repeat)
    qs = Benchmark.open(bench).questions
    preds = [native_answer_text(q) for q in qs]
    scorer = LoCoMoF1()
    t_f1 = timed(lambda: scorer.score_many(qs, preds), opts.repeat)
    t0 = time.perf_counter()
    cmd = [
        sys.executable,
        "-m",
        "umb",
        "import",
        "locomo",
        str(opts.file),
        "-o",
        str(root / "cli"),
        "--force",
    ]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    t_cli = time.perf_counter() - t0
    print(f"import locomo10.json (in process, median of {opts.repeat}): {t_import:.3f} s")
    print(f"umb import locomo (new process, incl. start-up):         {t_cli:.3f} s")
    print(f"export to LoCoMo JSON:                                  {t_export:.3f} s")
    print(f"LoCoMo F1 on 1,986 gold predictions:                    {t_f1:.3f} s")
    for name, value in bm25_recall(bench, (5, 10, 25, 50)).items():
        print(f"bm25s dialog retrieval {name}: {100 * value:.1f}")


if __name__ == "__main__":
    main()
