"""Surface statistics of a benchmark's dialogues, comparable across umb and imported peers.

Per dialogue: distinct-1/2/3 (unique word n-grams over all n-grams, n-grams never crossing a
turn), the share of turns whose exact text occurs three or more times in the dialogue, the share
of turns of at most four words, and words per turn; each is averaged over dialogues. Per family:
BM25 recall@5 of the evidence turns with the question as the query, over the turns said before the
question was asked.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from typing import Any

import bm25s

from umb.bench._io import Benchmark
from umb.bench._records import Dialogue, Question

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
TOP_K = 5


def words(text: str) -> list[str]:
    """Lower-cased word tokens (apostrophes kept inside words)."""
    return _WORD.findall(text.lower())


def _dialogue_style(d: Dialogue) -> dict[str, float]:
    texts = [t.text for t in d.turns()]
    tokens = [words(t) for t in texts]
    out: dict[str, float] = {}
    for n in (1, 2, 3):
        grams: Counter[tuple[str, ...]] = Counter(
            tuple(ws[i : i + n]) for ws in tokens for i in range(len(ws) - n + 1)
        )
        total = sum(grams.values())
        out[f"distinct_{n}"] = 100 * len(grams) / total if total else 0.0
    counts = Counter(" ".join(t.split()) for t in texts)
    n_turns = max(1, len(texts))
    out["repeat_turns_pct"] = (
        100 * sum(1 for t in texts if counts[" ".join(t.split())] >= 3) / n_turns
    )
    out["short_turns_pct"] = 100 * sum(1 for ws in tokens if len(ws) <= 4) / n_turns
    out["words_per_turn"] = sum(len(ws) for ws in tokens) / n_turns
    return out


def _recall(d: Dialogue, questions: list[Question], hits: dict[str, list[float]]) -> None:
    """Add each question's recall@5 (share of its evidence turns in the top 5) to ``hits``."""
    rows = [(t.id, s.started_at, t.text) for s in d.sessions for t in s.turns]
    cache: dict[str, Any] = {}
    # In asking order, so questions that see the same turns share one index.
    for q in sorted(questions, key=lambda q: q.asked_at):
        wanted = set(q.evidence.turn_ids)
        if not wanted:
            continue
        pool = [r for r in rows if r[1] < q.asked_at] if q.asked_at else rows
        key = pool[-1][0] if pool else ""
        if key not in cache:
            retriever = bm25s.BM25()
            retriever.index(bm25s.tokenize([r[2] for r in pool], show_progress=False),
                            show_progress=False)  # fmt: skip
            cache = {key: retriever}
        k = min(TOP_K, len(pool))
        if k == 0:
            hits.setdefault(q.family, []).append(0.0)
            continue
        found, _ = cache[key].retrieve(
            bm25s.tokenize([q.query], show_progress=False), k=k, show_progress=False
        )
        top = {pool[int(i)][0] for i in found[0]}
        hits.setdefault(q.family, []).append(len(wanted & top) / len(wanted))


def recall_at_5(
    bench: Benchmark, dialogues: Collection[str] | None = None
) -> dict[str, list[float]]:
    """Family -> each question's BM25 recall@5 of its evidence turns (a share in [0, 1]), as
    :func:`style_stats` averages it; questions without evidence turns are left out.

    With ``dialogues``, only the questions of those dialogue ids (the rest are not parsed).
    """
    by_dialogue: dict[str, list[Question]] = {}
    for q in bench.questions:
        if dialogues is None or q.dialogue_id in dialogues:
            by_dialogue.setdefault(q.dialogue_id, []).append(q)
    hits: dict[str, list[float]] = {}
    for d in bench.iter_dialogues(only=set(by_dialogue)):
        _recall(d, by_dialogue[d.id], hits)
    return dict(sorted(hits.items()))


def style_stats(bench: Benchmark, recall: bool = True) -> dict[str, Any]:
    """Surface statistics averaged over dialogues, and BM25 recall@5 per family (in percent)."""
    by_dialogue: dict[str, list[Question]] = {}
    for q in bench.questions:
        by_dialogue.setdefault(q.dialogue_id, []).append(q)
    sums: dict[str, float] = {}
    hits: dict[str, list[float]] = {}
    n = 0
    for d in bench.iter_dialogues():
        n += 1
        for key, value in _dialogue_style(d).items():
            sums[key] = sums.get(key, 0.0) + value
        if recall:
            _recall(d, by_dialogue.get(d.id, []), hits)
    out: dict[str, Any] = {"dialogues": n}
    out.update({k: round(v / max(1, n), 1) for k, v in sums.items()})
    if recall:
        per = {f: round(100 * sum(v) / len(v), 1) for f, v in sorted(hits.items())}
        total = [x for v in hits.values() for x in v]
        out["bm25_recall_at_5"] = per
        out["bm25_recall_at_5_all"] = round(100 * sum(total) / len(total), 1) if total else 0.0
        out["bm25_questions"] = {f: len(v) for f, v in sorted(hits.items())}
    return out


def format_style(stats: dict[str, Any]) -> str:
    """The style statistics as aligned text lines."""
    lines = [
        f"dialogues: {stats['dialogues']}",
        f"distinct-1/2/3: {stats['distinct_1']} / {stats['distinct_2']} / {stats['distinct_3']}",
        f"turns repeated verbatim >= 3 times: {stats['repeat_turns_pct']}%",
        f"turns of <= 4 words: {stats['short_turns_pct']}%",
        f"words per turn: {stats['words_per_turn']}",
    ]
    if "bm25_recall_at_5" in stats:
        lines.append(f"BM25 recall@5 (question as query): {stats['bm25_recall_at_5_all']}% overall")
        for fam, value in stats["bm25_recall_at_5"].items():
            lines.append(f"  {fam:<4} {value}%  ({stats['bm25_questions'][fam]} questions)")
    return "\n".join(lines)
