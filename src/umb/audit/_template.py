"""Question templates (names, dates and numbers masked) and the template-prior baseline.

The template prior answers a question with the most common gold among the *other* questions of
its template: leave-one-out, so a question never sees its own gold. A benchmark whose golds can
be guessed from the wording alone (every "what activity …" answered "hiking") shows here.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any, Final

import orjson

from umb.bench import Question

MONTHS: Final = (
    "January February March April May June July August September October November December"
).split()
_DATE: Final = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2})?\b"
    r"|\b(?:" + "|".join(MONTHS) + r")\b"
    r"|\b\d+(?:[.,:]\d+)*(?:st|nd|rd|th)?\b",
)
_SPACE: Final = re.compile(r"\s+")


def name_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    """One regex matching any of ``names`` as whole words (longest first); None if none."""
    words = sorted({n.strip() for n in names if n.strip()}, key=lambda n: (-len(n), n))
    if not words:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, words)) + r")(?:'s)?(?!\w)")


def template_key(question: Question, names: re.Pattern[str] | None) -> str:
    """The question's family and wording with names, dates and numbers masked."""
    text = question.query
    if names is not None:
        text = names.sub("<name>", text)
    text = _DATE.sub("<n>", text)
    return f"{question.family}|{_SPACE.sub(' ', text).strip().lower()}"


#: The gold field that is the answer, where the rest of the gold only supports it (IE's
#: snippets, KU's dates): golds with the same answer vote together.
ANSWER_FIELD: Final = {"IE": "answer", "KU": "latest_state"}


def gold_key(question: Question) -> bytes:
    """The gold answer as canonical JSON, so equal answers count as one."""
    field = ANSWER_FIELD.get(question.family)
    gold = question.gold.get(field) if field else question.gold
    return orjson.dumps(gold, option=orjson.OPT_SORT_KEYS)


def loo_majority(keys: list[str], golds: list[bytes]) -> list[int | None]:
    """For each item, the index of an item holding the majority gold among the *other* items of
    its template (ties: the smallest gold bytes), or None when its template has no other item.

    Leave-one-out: the item's own gold is taken out of the count before the vote, so it can win
    only if another item of the template has the same gold.
    """
    counts: dict[str, Counter[bytes]] = {}
    holders: dict[tuple[str, bytes], list[int]] = {}
    for i, (k, g) in enumerate(zip(keys, golds, strict=True)):
        counts.setdefault(k, Counter())[g] += 1
        holders.setdefault((k, g), []).append(i)
    ranked = {k: sorted((-n, g) for g, n in c.items()) for k, c in counts.items()}
    out: list[int | None] = []
    for i, (k, g) in enumerate(zip(keys, golds, strict=True)):
        n_own = counts[k][g] - 1  # the vote without this item
        options = [(-n_own, g)] if n_own > 0 else []
        other = next(((n, h) for n, h in ranked[k] if h != g), None)
        if other is not None:
            options.append(other)
        best = min(options, default=None)
        if best is None:
            out.append(None)
            continue
        out.append(next(j for j in holders[(k, best[1])] if j != i))
    return out


def template_prior(questions: list[Question], keys: list[str]) -> list[dict[str, Any] | None]:
    """Each question's template-prior answer: the gold of its template's leave-one-out majority."""
    picks = loo_majority(keys, [gold_key(q) for q in questions])
    return [None if j is None else dict(questions[j].gold) for j in picks]
