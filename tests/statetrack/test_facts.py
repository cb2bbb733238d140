"""State facts: the original's five-field contract, exact schemas, values that match the world."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from umb import DataError
from umb.bench import Benchmark
from umb.statetrack import attribute_schema, build_state_facts, day_number, slot_schema
from umb.statetrack._facts import _slot_labels


@pytest.fixture(scope="module")
def facts(dense_bench: Path):
    return build_state_facts(Benchmark.open(dense_bench))


@pytest.fixture(scope="module")
def world(dense_bench: Path):
    return json.loads((dense_bench / "world.json").read_text())


def test_contract_has_exactly_five_fields_and_consecutive_ids(facts, dense_ladder):
    on_disk = json.loads((dense_ladder / "facts.json").read_text())
    assert set(on_disk) == {fs[0].character for fs in facts.values()}
    for name, records in on_disk.items():
        assert [r["fact_id"] for r in records] == [f"{i:06d}" for i in range(1, len(records) + 1)]
        for r in records:
            assert set(r) == {"fact", "fact_id", "timestamp", "state_repr", "schema"}
            assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", r["timestamp"])
            assert r["fact"].startswith(f"{name}'s ")
        stamps = [r["timestamp"] for r in records]
        assert stamps == sorted(stamps)


def test_tracked_attribute_schemas_replay_the_world_timelines(facts, world):
    for cid, timeline in world["timelines"].items():
        for attribute, points in timeline.items():
            schema = attribute_schema(attribute)
            got = [(f.timestamp, f.value) for f in facts[cid] if f.schema == schema]
            assert got == [(p["at"][:10], p["value"]) for p in points], (cid, attribute)


def test_slot_schemas_are_one_fact_per_event_with_the_slot_value(facts, world):
    events = {e["id"]: e for e in world["events"]}
    labels = _slot_labels(
        {(e["kind"], s) for e in events.values() for s in e["slots"]},
        {attribute_schema(a) for a in world["characters"][0]["initial_state"]},
    )
    per_schema_events = defaultdict(set)
    name_of = {c["id"]: c["name"] for c in world["characters"]}
    for cid, fs in facts.items():
        for f in fs:
            assert f.value in f.fact and f.fact.endswith(f"{f.value}.")
            assert f.day == day_number(f.timestamp)
            if f.origin != "slot":
                continue
            event_id, _, slot = f.source.partition(f"/{cid}/")
            event = events[event_id]
            names = [s for s in event["slots"] if labels[(event["kind"], s)] == f.schema]
            assert len(names) == 1
            value = event["slots"][names[0]]
            if names[0] == "with":  # a joint event's companions, from this character's side
                value = " and ".join(n for n in value.split(" and ") if n != name_of[cid])
            assert value == f.value
            assert event["at"][:10] == f.timestamp
            key = (cid, f.schema)
            assert event_id not in per_schema_events[key], "two facts of one event in a schema"
            per_schema_events[key].add(event_id)


def test_no_happened_facts_and_no_slot_repeating_its_change(facts, world, dense_bench):
    events = {e["id"]: e for e in world["events"]}
    source = Benchmark.open(dense_bench).facts
    for fs in facts.values():
        for f in fs:
            slot = source[f.source].attribute
            assert slot != "event"
            if f.origin == "slot":
                changes = events[source[f.source].event_id]["state_changes"]
                assert not any(c["attribute"] == slot and c["new"] == f.value for c in changes)
    job = next(e for e in world["events"] if e["kind"] == "job_change")
    cid = job["character_id"]
    of_event = [f for f in facts[cid] if f.source.startswith(job["id"] + "/")]
    assert {f.schema for f in of_event} >= {"employer", "job title"}
    assert "job change employer" not in {f.schema for f in of_event}


def test_slot_labels_say_a_shared_word_once_and_stay_one_to_one():
    assert slot_schema("trip", "destination") == "trip destination"
    assert slot_schema("conference", "conference_city") == "conference city"
    assert slot_schema("admin_task", "task") == "admin task"
    assert slot_schema("joint_hike", "with") == "joint hike companions"
    labels = _slot_labels({("conference", "conference_city"), ("conference", "city")}, set())
    assert len(set(labels.values())) == 2
    clash = _slot_labels({("relationship", "status")}, {"relationship status"})
    assert clash[("relationship", "status")] != "relationship status"


def test_a_benchmark_without_world_is_refused(tmp_path, dense_bench):
    for name in ("manifest.json", "dialogues.jsonl", "questions.jsonl", "facts.jsonl"):
        (tmp_path / name).write_bytes((dense_bench / name).read_bytes())
    with pytest.raises(DataError, match="needs the world"):
        build_state_facts(Benchmark.open(tmp_path))
