"""Rule scorers for the list families: MSR (causal chains) and ES (turning points).

A gold step is recalled when any of its distinctive keys (``meta.step_keys`` /
``meta.point_keys``) appears, as whole normalised tokens, in a predicted step. Order counts:
ordered recall is the longest run of gold steps found in the same order as predicted (a longest
common subsequence) over the number of gold steps. Precision is the share of predicted items
that match some gold step, so listing every event of the period costs what it adds.

Version 2: every step in order with precision at least :data:`FULL_PRECISION` -> 1; at least
half the steps in order with precision at least :data:`HALF_PRECISION` -> 0.5; else 0. (Version
1 read only the first ``max(6, gold steps)`` items and ignored precision, so listing a year's
six events scored 1.)
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any, Final

from umb.bench import Question
from umb.scoring._normalise import as_text_list, normalise_tokens
from umb.scoring._record import RuleScorer

#: Precision needed for full credit: at most one predicted item in five may match no gold step.
FULL_PRECISION: Final = 0.8
#: Precision needed for half credit: at least half the predicted items match a gold step.
HALF_PRECISION: Final = 0.5
VERSION: Final = "2"


def _key_position(step: tuple[str, ...], key: tuple[str, ...]) -> int:
    """Token index where ``key`` starts in ``step``; -1 if absent."""
    n = len(key)
    if n == 0:
        return -1
    for i in range(len(step) - n + 1):
        if step[i : i + n] == key:
            return i
    return -1


def _distinctive(keys: list[list[tuple[str, ...]]]) -> list[list[tuple[str, ...]]]:
    owners: dict[tuple[str, ...], int] = {}
    for ks in keys:
        for k in set(ks):
            owners[k] = owners.get(k, 0) + 1
    return [[k for k in ks if owners[k] == 1] or ks for ks in keys]


def _hit_sequence(
    gold_keys: Sequence[Sequence[str]], predicted: Sequence[str]
) -> tuple[list[int], int]:
    """The gold step indices found in the prediction, in predicted order, and how many
    predicted items matched at least one gold step.

    A predicted step that merges two gold steps contributes both, ordered by where their keys
    appear in it, so "lost the job, then moved to Lisbon" can cover two steps. A key listed for
    several gold steps (a city both booked and visited) is not distinctive, so it counts only
    for a step that has no key of its own.
    """
    keys = _distinctive([[normalise_tokens(k) for k in ks] for ks in gold_keys])
    sequence: list[int] = []
    matched = 0
    for text in predicted:
        tokens = normalise_tokens(text)
        hits: list[tuple[int, int]] = []
        for g, ks in enumerate(keys):
            positions = [p for k in ks if (p := _key_position(tokens, k)) >= 0]
            if positions:
                hits.append((min(positions), g))
        sequence += [g for _, g in sorted(hits)]
        matched += bool(hits)
    return sequence, matched


def _longest_increasing(sequence: Sequence[int]) -> int:
    """Length of the longest strictly increasing subsequence.

    Gold steps are 0..n-1 in order, so this equals the longest common subsequence between the
    gold order and the order the prediction gives them in.
    """
    tails: list[int] = []
    for x in sequence:
        i = bisect.bisect_left(tails, x)
        if i == len(tails):
            tails.append(x)
        else:
            tails[i] = x
    return len(tails)


def _three_level(in_order: int, total: int, precision: float) -> float:
    if in_order == total and precision >= FULL_PRECISION:
        return 1.0
    return 0.5 if 2 * in_order >= total and precision >= HALF_PRECISION else 0.0


def _ordered_recall(
    gold_keys: Sequence[Sequence[str]], predicted: list[str]
) -> tuple[float | None, dict[str, Any]]:
    total = len(gold_keys)
    if total == 0:
        return None, {"reason": "gold has no steps"}
    items = [p for p in predicted if p.strip()]
    sequence, matched = _hit_sequence(gold_keys, items)
    in_order = _longest_increasing(sequence)
    found = sorted(set(sequence))
    # No items is no answer: precision 0, so it cannot pass either threshold.
    precision = matched / len(items) if items else 0.0
    details = {
        "steps": total,
        "predicted": len(items),
        "matched_items": matched,
        "unmatched_items": len(items) - matched,
        "found": found,
        "found_in_order": in_order,
        "recall": len(found) / total,
        "ordered_recall": in_order / total,
        "precision": precision,
    }
    return _three_level(in_order, total, precision), details


def _keys(question: Question, meta_key: str, gold_list: str) -> tuple[list[list[str]], bool]:
    raw = question.meta.get(meta_key)
    if isinstance(raw, list) and raw:
        return [as_text_list(ks) for ks in raw], True
    # Without distinctive keys the whole gold step is the only key: stricter, still exact.
    return [[s] for s in as_text_list(question.gold.get(gold_list))], False


def score_msr(question: Question, answer: dict[str, Any]) -> tuple[float | None, dict[str, Any]]:
    """Ordered recall and precision of ``event_chain`` against the gold chain's steps."""
    keys, from_meta = _keys(question, "step_keys", "event_chain")
    value, details = _ordered_recall(keys, as_text_list(answer.get("event_chain")))
    return value, {**details, "keys_from_meta": from_meta}


def score_es(question: Question, answer: dict[str, Any]) -> tuple[float | None, dict[str, Any]]:
    """Ordered recall and precision of ``key_turning_points`` against the gold points."""
    keys, from_meta = _keys(question, "point_keys", "key_turning_points")
    value, details = _ordered_recall(keys, as_text_list(answer.get("key_turning_points")))
    return value, {**details, "keys_from_meta": from_meta}


# The entries of umb.scoring.SCORERS (BUILTIN_RULES in _record.py).
MSR = RuleScorer("MSR", "msr_chain_recall", VERSION, score_msr)
ES = RuleScorer("ES", "es_point_recall", VERSION, score_es)
