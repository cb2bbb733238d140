"""Summary numbers of a benchmark: questions per family, tokens and sessions per dialogue."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from umb._tokens import estimate_tokens
from umb.bench._io import Benchmark


def _spread(values: list[int]) -> dict[str, float]:
    if not values:
        return {"min": 0, "mean": 0, "max": 0, "total": 0}
    return {
        "min": min(values),
        "mean": round(sum(values) / len(values), 1),
        "max": max(values),
        "total": sum(values),
    }


def benchmark_stats(
    bench: Benchmark, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """Counts per family, tokens, sessions and turns per dialogue (min/mean/max/total), and
    sessions per renderer (``template``, a model spec, or ``unknown`` for imported text);
    ``progress(done, total)`` is called after each dialogue."""
    tokens, sessions, turns = [], [], []
    by_renderer: Counter[str] = Counter()
    total = (bench.manifest.get("counts") or {}).get("dialogues") or 0
    for d in bench.iter_dialogues():
        sessions.append(len(d.sessions))
        by_renderer.update(s.rendered_by or "unknown" for s in d.sessions)
        turns.append(sum(len(s.turns) for s in d.sessions))
        tokens.append(sum(estimate_tokens(t.text) for s in d.sessions for t in s.turns))
        if progress is not None:
            progress(len(tokens), max(int(total), len(tokens)))
    families = Counter(q.family for q in bench.questions)
    return {
        "dialogues": len(tokens),
        "questions": sum(families.values()),
        "questions_per_family": dict(sorted(families.items())),
        "tokens_per_dialogue": _spread(tokens),
        "sessions_per_dialogue": _spread(sessions),
        "turns_per_dialogue": _spread(turns),
        "sessions_by_renderer": dict(sorted(by_renderer.items())),
    }


def format_stats(stats: dict[str, Any]) -> str:
    lines = [f"dialogues: {stats['dialogues']}", f"questions: {stats['questions']}"]
    lines += [f"  {fam:<4} {n}" for fam, n in stats["questions_per_family"].items()]
    for key in ("tokens_per_dialogue", "sessions_per_dialogue", "turns_per_dialogue"):
        s = stats[key]
        lines.append(
            f"{key.replace('_', ' ')}: min {s['min']}  mean {s['mean']}  max {s['max']}"
            f"  total {s['total']}"
        )
    split = stats.get("sessions_by_renderer") or {}
    if split:
        lines.append("sessions by renderer: " + ", ".join(f"{k} {n}" for k, n in split.items()))
    return "\n".join(lines)
