"""KU and MA design, checked from the files alone (world timelines, facts, turns' fact ids).

- KU: the gold is the attribute's value at ``asked_at``, a later value exists, and no evidence
  turn lies in a session starting at or after ``asked_at``.
- MA: both slots' values are stated for the character but are neither the first nor the last
  value the dialogue states for that slot (primacy or recency cannot answer).
"""

from __future__ import annotations

import pytest

from umb.bench import Benchmark, Dialogue, Fact
from umb.pipeline import generate, resolve_config


@pytest.fixture(scope="module")
def small_bench(tmp_path_factory: pytest.TempPathFactory) -> Benchmark:
    out = tmp_path_factory.mktemp("small") / "small"
    generate(resolve_config("small"), out)
    return Benchmark.open(out)


def _stated(d: Dialogue, facts: dict[str, Fact]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for s in d.sessions:
        for t in s.turns:
            for fid in t.fact_ids:
                f = facts.get(fid)
                if f is not None and f.character_id == d.character_id:
                    out.setdefault(f.attribute, []).append(f.value)
    return out


def test_ku_gold_is_the_value_at_asked_time(small_bench: Benchmark) -> None:
    timelines = small_bench.world["timelines"]
    dialogues = {d.id: d for d in small_bench.iter_dialogues()}
    ku = [q for q in small_bench.questions if q.family == "KU"]
    assert len(ku) > 50
    for q in ku:
        d = dialogues[q.dialogue_id]
        points = timelines[d.character_id][q.meta["attribute"]]
        current = [p for p in points if p["at"] < q.asked_at]
        assert q.gold["latest_state"] == current[-1]["value"], q.id
        assert len(current) < len(points), q.id  # a later value exists
        start = {t.id: s.started_at for s in d.sessions for t in s.turns}
        assert all(start[t] < q.asked_at for t in q.evidence.turn_ids), q.id


def test_ma_slots_are_neither_first_nor_last_stated(small_bench: Benchmark) -> None:
    dialogues = {d.id: d for d in small_bench.iter_dialogues()}
    ma = [q for q in small_bench.questions if q.family == "MA"]
    assert len(ma) > 200
    for q in ma:
        said = _stated(dialogues[q.dialogue_id], small_bench.facts)
        for slot, value in (
            (q.meta["asked_slot"], q.gold["final_answer"]),
            (q.meta["slot"], q.meta["true_value"]),
        ):
            values = said[slot]
            assert value in values and value not in (values[0], values[-1]), q.id
