"""Pseudo-relevance feedback: expansion terms drawn from the first pass's best units (RM3).

A relevance model weighs each term by how much of the best units it makes up, each unit
counted by its share of the first-pass score (Lavrenko and Croft's RM1, interpolated with the
query as in RM3). Terms are also weighted by their inverse document frequency: a turn is short,
and without it the speaker's name, in every turn, would be the first expansion term.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence


def expansion_terms(
    docs: Sequence[Sequence[str]],
    weights: Sequence[float],
    query: Sequence[str],
    document_frequency: Mapping[str, int],
    n_docs: int,
    n_terms: int,
) -> list[tuple[str, float]]:
    """The ``n_terms`` best new terms of ``docs`` (first-pass units, with their ``weights``),
    and their weights summing to 1; none of ``query``'s terms is among them."""
    total = sum(w for w in weights if w > 0)
    if total <= 0 or n_terms <= 0:
        return []
    seen = set(query)
    model: dict[str, float] = {}
    for terms, weight in zip(docs, weights, strict=True):
        if weight <= 0 or not terms:
            continue
        for term, count in Counter(terms).items():
            if term not in seen:
                model[term] = model.get(term, 0.0) + (weight / total) * count / len(terms)
    for term in model:
        model[term] *= math.log(1 + n_docs / (1 + document_frequency.get(term, 0)))
    best = sorted(model.items(), key=lambda kv: (-kv[1], kv[0]))[:n_terms]
    mass = sum(w for _, w in best)
    return [(t, w / mass) for t, w in best] if mass > 0 else []
