"""Results per native category of an imported benchmark, next to umb's canonical families.

Records of imported questions carry ``source``, ``native_category`` and
``native_category_name`` (from ``question.meta``). Each aggregate group then gets, per source,
the mean score per native category with a bootstrap interval, the micro mean over every item and
the macro mean over categories; LoCoMo adds its official micro mean over the non-adversarial
categories 1-4, LongMemEval the accuracy on its abstention (``_abs``) items. With a peer scorer
the group also gets the peer's own ``aggregate`` (:func:`enrich_groups`).
"""

from __future__ import annotations

import zlib
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from umb._peer import PEERS
from umb.scoring._aggregate import _bootstrap_means, _ci
from umb.scoring._peer import NATIVE_SCORER, answer_scorer_names, build_peer_scorer
from umb.scoring._retrieval import aggregate_retrieval

# numpy is imported by the functions that use it: a run needs it only to write its results.
if TYPE_CHECKING:
    import numpy as np

NATIVE_VERSION: Final = "1"


def _block(values: list[float], rng: np.random.Generator, resamples: int) -> dict[str, Any]:
    import numpy as np

    if not values:
        return {"n": 0, "mean": None, "ci95": None}
    arr = np.asarray(values, dtype=float)
    return {
        "n": len(values),
        "mean": float(arr.mean()),
        "ci95": _ci(_bootstrap_means(arr, resamples, rng), 0.95),
    }


def _order(key: str) -> tuple[int, int | str]:
    return (0, int(key)) if key.isdigit() else (1, key)


def native_breakdown(
    records: Sequence[dict[str, Any]], *, resamples: int = 1000, seed: int = 0
) -> dict[str, Any] | None:
    """Per source: scores per native category, micro and macro means (see module docstring).

    Returns:
        ``{source: {"categories": [...], "overall_micro", "category_mean", …}}``, or None when
        no record has a native category.
    """
    import numpy as np

    by_source: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        if r.get("native_category") is not None:
            by_source[str(r.get("source") or "unknown")].append(r)
    if not by_source:
        return None
    out: dict[str, Any] = {}
    for source, rows in sorted(by_source.items()):
        rng = np.random.default_rng([seed, zlib.crc32(source.encode())])
        cats: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in rows:
            cats[str(r["native_category"])].append(r)
        categories = []
        for key in sorted(cats, key=_order):
            items = cats[key]
            values = [float(r["score"]) for r in items if r["score"] is not None]
            families = Counter(str(r["family"]) for r in items)
            categories.append(
                {
                    "id": key,
                    "name": str(items[0].get("native_category_name") or key),
                    "family": families.most_common(1)[0][0],
                    "questions": len(items),
                    "unscored": len(items) - len(values),
                    **_block(values, rng, resamples),
                }
            )
        every = [float(r["score"]) for r in rows if r["score"] is not None]
        means = [c["mean"] for c in categories if c["mean"] is not None]
        block: dict[str, Any] = {
            "categories": categories,
            "overall_micro": _block(every, rng, resamples),
            "category_mean": float(np.mean(means)) if means else None,
        }
        peer = PEERS.get(source)
        adversarial = peer.adversarial_category if peer else None
        if adversarial is not None:
            kept = [
                float(r["score"])
                for r in rows
                if r["score"] is not None and str(r["native_category"]) != adversarial
            ]
            block["overall_micro_non_adversarial"] = _block(kept, rng, resamples)
        if peer is not None and peer.reports_abstention:
            abst = [r["score"] for r in rows if r["family"] == "ABS" and r["score"] is not None]
            block["abstention"] = _block([float(v) for v in abst], rng, resamples)
        out[source] = block
    return out


def peer_aggregate(
    scorer: dict[str, Any], records: Sequence[dict[str, Any]]
) -> dict[str, Any] | None:
    """The peer scorer's own summary of its records (``score_details``), or None for ``umb``."""
    name = str(scorer.get("name") or NATIVE_SCORER)
    # umb's own first: telling the others apart loads every peer scorer.
    if name == NATIVE_SCORER or name not in answer_scorer_names()[1:]:
        return None  # umb's rules, or a retrieval metric (summarised under ``retrieval``)
    details = [
        r["score_details"]
        for r in records
        if r.get("score_by") == name and isinstance(r.get("score_details"), dict)
    ]
    if not details:
        return None
    judge = next((str(d["judge_model"]) for d in details if d.get("judge_model")), "unknown")
    return dict(build_peer_scorer(name, judge).aggregate(details))


def enrich_groups(
    groups: list[dict[str, Any]],
    records: Sequence[dict[str, Any]],
    scorer: dict[str, Any],
    *,
    resamples: int = 1000,
    seed: int = 0,
) -> None:
    """Add ``native``, ``retrieval`` and ``peer`` blocks to each (system, model) group in place."""
    by_pair: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_pair[(str(r["system"]), str(r["model"]))].append(r)
    for group in groups:
        rows = by_pair.get((group["system"], group["model"]), [])
        group["native"] = native_breakdown(rows, resamples=resamples, seed=seed)
        group["retrieval"] = aggregate_retrieval(rows)
        group["peer"] = peer_aggregate(scorer, rows)
