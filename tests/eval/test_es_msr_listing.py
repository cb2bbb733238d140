"""ES and MSR version 2: listing every event of the period cannot pass for the answer."""

from __future__ import annotations

from pathlib import Path

from umb.bench import Benchmark
from umb.scoring import get_scorer
from umb.testing._listing import character_of, events_by_character, listing_answer


def test_listing_the_whole_period_scores_at_most_half(demo_bench: Path) -> None:
    bench = Benchmark.open(demo_bench)
    events = events_by_character(bench)
    for family in ("ES", "MSR"):
        qs = [q for q in bench.questions if q.family == family and q.evidence.event_ids]
        scorer = get_scorer(family)
        assert scorer.version == "2" and qs
        listed = [scorer(q, listing_answer(q, events[character_of(q)])).value or 0.0 for q in qs]
        oracle = [scorer(q, dict(q.gold)).value for q in qs]
        assert sum(listed) / len(listed) <= 0.5, family
        assert oracle == [1.0] * len(qs), family
        # The listings do name the gold steps: recall alone would have given them credit.
        recalls = [scorer(q, listing_answer(q, events[character_of(q)])).details["recall"]
                   for q in qs]  # fmt: skip
        assert sum(recalls) / len(recalls) > 0.9, family
