"""ES and MSR against the "list the whole period" answer, and the oracle, on a benchmark.

For each ES question the prediction lists every event of the character in the year asked about;
for each MSR question, every event of the character from the chain's first step to its last.
Both are in time order, as event summaries. Prints the mean score of each, next to the gold
lists' (the oracle), under the scorer versions installed.

    python benchmarks/es_msr_listing.py BENCH
"""

from __future__ import annotations

import argparse
import statistics

from umb.bench import Benchmark
from umb.scoring import get_scorer
from umb.testing._listing import character_of, events_by_character, listing_answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench")
    args = parser.parse_args()
    bench = Benchmark.open(args.bench)
    events = events_by_character(bench)
    for family in ("ES", "MSR"):
        qs = [q for q in bench.questions if q.family == family and q.evidence.event_ids]
        scorer = get_scorer(family)
        listed = [scorer(q, listing_answer(q, events[character_of(q)])).value for q in qs]
        oracle = [scorer(q, dict(q.gold)).value for q in qs]
        print(
            f"{family} {scorer.name}@{scorer.version}: n={len(qs)} "
            f"list-the-period {statistics.mean(v or 0.0 for v in listed):.3f} "
            f"oracle {statistics.mean(v or 0.0 for v in oracle):.3f}"
        )


if __name__ == "__main__":
    main()
