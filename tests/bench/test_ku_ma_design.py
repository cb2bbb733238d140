"""KU asks between two changes, MA about an event inside its slot's stated values: neither the
first nor the last value said in the dialogue answers them."""

from __future__ import annotations

import pytest

from umb.bench import Benchmark
from umb.pipeline._generate import generate, resolve_config


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Benchmark:
    out = tmp_path_factory.mktemp("kuma") / "small"
    generate(resolve_config("small"), out)
    return Benchmark.open(out)


def _stated(bench: Benchmark, dialogue_id: str, before: str | None = None) -> dict[str, list[str]]:
    """Attribute -> the character's values in the order the dialogue states them."""
    facts = bench.facts
    d = next(iter(bench.iter_dialogues(only={dialogue_id})))
    out: dict[str, list[str]] = {}
    for s in d.sessions:
        if before is not None and s.started_at >= before:
            break
        for t in s.turns:
            for fid in t.fact_ids:
                f = facts.get(fid)
                if f is not None and f.character_id == d.character_id:
                    out.setdefault(f.attribute, []).append(f.value)
    return out


def test_ku_gold_is_the_value_at_asked_at_and_a_later_one_follows(small: Benchmark) -> None:
    timelines = small.world["timelines"]
    ku = [q for q in small.questions if q.family == "KU"]
    assert len(ku) >= 80
    for q in ku:
        owner = q.evidence.fact_ids[0].split("/")[1]
        timeline = timelines[owner][q.meta["attribute"]]
        holding = [p for p in timeline if p["at"] < q.asked_at][-1]
        assert q.gold["latest_state"] == holding["value"], q.id
        assert q.gold["deprecated_state"] in q.meta["deprecated_values"], q.id
        later = _stated(small, q.dialogue_id)[q.meta["attribute"]]
        seen = _stated(small, q.dialogue_id, q.asked_at)[q.meta["attribute"]]
        # What the dialogue says after the question changes the value: recency cannot answer.
        assert later[-1] != q.gold["latest_state"] and later[0] != q.gold["latest_state"], q.id
        assert q.gold["latest_state"] in seen, q.id  # (a reminiscence may restate an older value)


def test_ma_asks_about_an_event_inside_its_slots_stated_values(small: Benchmark) -> None:
    ma = [q for q in small.questions if q.family == "MA"]
    assert len(ma) >= 200
    for q in ma:
        said = _stated(small, q.dialogue_id)
        for slot, value in ((q.meta["slot"], q.meta["true_value"]),
                            (q.meta["asked_slot"], q.gold["final_answer"])):  # fmt: skip
            values = said[slot]
            assert value in values and value not in (values[0], values[-1]), (q.id, slot)
