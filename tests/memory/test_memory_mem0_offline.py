from __future__ import annotations

from typing import Any

import pytest
from memory_helpers import ScriptedModel, ingest, question, retrieve, session

from umb.memory import Mem0Style, MemoryConfig, build_memory

S1 = session(
    1,
    "2021-01-10T19:00",
    [
        ("user", "How are things?"),
        ("assistant", "Honestly, I work at Initech as a data analyst. It pays the bills."),
        ("user", "And at home?"),
        ("assistant", "I'm dating Tom Reyes now. I also bought a red car in January."),
    ],
)
S2 = session(
    2,
    "2021-03-02T18:00",
    [
        ("user", "Any news?"),
        ("assistant", "Guess what, I just started a new job at Globex as a designer!"),
        ("assistant", "I'm dating Tom Reyes now."),
    ],
)
S3 = session(
    3,
    "2021-05-20T20:15",
    [
        ("user", "You look tired."),
        ("assistant", "Tom and I broke up last month. I also sold my car to a neighbour."),
    ],
)


@pytest.fixture
def memory(offline_embedder: Any) -> Mem0Style:
    system = build_memory("mem0_style", MemoryConfig(top_k=10))
    assert isinstance(system, Mem0Style)
    return system


def units_with(system: Mem0Style, key: str) -> list[Any]:
    return [u for u in system.store.units.values() if u.key == key]


def test_add_then_update_on_a_new_employer(memory: Mem0Style) -> None:
    ingest(memory, [S1])
    (job,) = units_with(memory, "employer")
    assert job.text == "Maya works at Initech as a data analyst."
    assert job.version == 1 and job.source_turn_ids == ("D0001:S001:T0002",)
    ingest(memory, [S2])
    (job,) = units_with(memory, "employer")
    assert job.version == 2 and "Globex" in job.text and job.date == "2021-03-02"
    assert job.source_turn_ids == ("D0001:S002:T0002",)
    (old,) = job.history
    assert (old.event, old.date, old.source_turn_ids) == (
        "ADD",
        "2021-01-10",
        ("D0001:S001:T0002",),
    )
    assert "Initech" in old.text
    assert memory.stats["UPDATE"] == 1

    now = retrieve(memory, question("Where does Maya work?", asked_at="2021-04-01T00:00"))
    assert "Globex" in now.text and "Initech" not in now.text
    assert job.id in now.item_ids and "D0001:S002:T0002" in now.source_turn_ids
    before = retrieve(memory, question("Where does Maya work?", asked_at="2021-02-01T00:00"))
    assert "Initech" in before.text and "Globex" not in before.text


def test_retold_old_change_does_not_overwrite_the_current_state(memory: Mem0Style) -> None:
    retold = session(
        4,
        "2021-12-01T18:00",
        [
            (
                "assistant",
                "Ha, yes, I worked at Initech as a data analyst. That was in 2020, on May 3rd.",
            )
        ],
    )
    ingest(memory, [S1, S2, retold])
    (job,) = units_with(memory, "employer")
    assert job.version == 2 and "Globex" in job.text


def test_repeat_is_none(memory: Mem0Style) -> None:
    ingest(memory, [S1, S2])
    (partner,) = units_with(memory, "partner")
    assert partner.version == 1 and partner.source_turn_ids == ("D0001:S001:T0004",)
    assert memory.stats["NONE"] == 1


def test_endings_delete_and_keep_history(memory: Mem0Style) -> None:
    ingest(memory, [S1, S2, S3])
    (partner,) = units_with(memory, "partner")
    (car,) = units_with(memory, "car")
    for unit in (partner, car):
        assert unit.deleted and [v.event for v in unit.versions] == ["ADD", "DELETE"]
        assert unit.current.source_turn_ids == ("D0001:S003:T0002",)
    assert memory.stats["DELETE"] == 2
    ctx = retrieve(memory, question("Who is Maya dating and what does she drive?"))
    assert "Tom" not in ctx.text and "car" not in ctx.text
    assert ctx.meta["write_stats"]["DELETE"] == 2
    assert ctx.meta["extractor"] == "rules"
    earlier = retrieve(memory, question("Who is Maya dating?", asked_at="2021-04-01T00:00"))
    assert "[2021-01-10] Maya is dating Tom Reyes now." in earlier.text.splitlines()


def test_read_path_renders_dated_units_in_time_order(memory: Mem0Style) -> None:
    ingest(memory, [S1, S2])
    ctx = retrieve(memory, question("What does Maya do?"))
    dates = [line[1:11] for line in ctx.text.splitlines()]
    assert dates == sorted(dates) and all(line.startswith("[20") for line in ctx.text.splitlines())
    assert ctx.tokens > 0 and ctx.meta["memory_units"] == 3
    assert memory.write_latency_s > 0


def test_offline_extractor_model_is_not_called(offline_embedder: Any) -> None:
    offline = ScriptedModel([], spec="offline")
    system = build_memory("mem0_style", MemoryConfig(), offline)
    ingest(system, [S1])
    assert offline.requests == [] and isinstance(system, Mem0Style)
    assert len(system.store.live()) == 3
