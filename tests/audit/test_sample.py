"""The audit on a seeded sample of dialogues: the gate's and retrieval's bounded cost."""

from __future__ import annotations

import json
from pathlib import Path

from umb.audit import run_audit
from umb.audit._sample import sample_dialogues
from umb.bench import Benchmark


def test_sample_is_seeded_and_bounded() -> None:
    ids = [f"D{i:04d}" for i in range(50)]
    first = sample_dialogues(ids, 7)
    assert first is not None and len(first) == 7 and first <= set(ids)
    assert sample_dialogues(list(reversed(ids)), 7) == first  # order of reading does not matter
    assert sample_dialogues(ids, 50) is None and sample_dialogues(ids, None) is None


def test_audit_of_a_sample_reads_only_its_questions(demo_bench: Path) -> None:
    every = Benchmark.open(demo_bench).questions
    report = run_audit(demo_bench, dialogues=3, retrieval_dialogues=2)
    scope = report["benchmark"]
    assert scope["dialogues"] == len({q.dialogue_id for q in every}) > 3
    assert scope["dialogues_audited"] == 3
    picked = sample_dialogues({q.dialogue_id for q in every}, 3)
    assert picked is not None
    expected = [q for q in every if q.dialogue_id in picked and q.family != "ABS"]
    assert scope["audited"] == len(expected)
    assert sum(f["n"] for f in report["floor"].values()) == len(expected)
    assert report["retrieval"]["dialogues"] == 2
    # The same sample gives the same figures, byte for byte.
    again = run_audit(demo_bench, dialogues=3, retrieval_dialogues=2)
    assert json.dumps(again, sort_keys=True) == json.dumps(report, sort_keys=True)
