"""Properties of the generated world, dialogues and questions, checked against the world."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, timedelta
from pathlib import Path

import pytest

from umb.bench import Benchmark, Dialogue, Question
from umb.render._timeexpr import NUMBERS, WEEKDAYS, phrases_for


@pytest.fixture(scope="module")
def bench(demo_bench: Path) -> Benchmark:
    return Benchmark.open(demo_bench)


@pytest.fixture(scope="module")
def dialogues(bench: Benchmark) -> dict[str, Dialogue]:
    return {d.id: d for d in bench.iter_dialogues()}


@pytest.fixture(scope="module")
def events(bench: Benchmark) -> dict[str, dict]:
    return {e["id"]: e for e in bench.world["events"]}


def _turns(d: Dialogue) -> dict[str, tuple[int, str, tuple[str, ...], str]]:
    out = {}
    for s in d.sessions:
        for t in s.turns:
            out[t.id] = (len(out), s.started_at, t.fact_ids, t.text)
    return out


def _by_family(bench: Benchmark, family: str) -> list[Question]:
    qs = [q for q in bench.questions if q.family == family]
    assert qs, family
    return qs


def test_tr_days_equal_event_date_difference(bench: Benchmark, events: dict) -> None:
    for q in _by_family(bench, "TR"):
        kind = q.meta["kind"]
        start, end = (
            date.fromisoformat(q.gold["start_date"]),
            date.fromisoformat(q.gold["end_date"]),
        )
        assert q.gold["days"] == (end - start).days
        evs = [events[e] for e in q.evidence.event_ids]
        if kind == "days_between":
            assert (
                q.gold["days"]
                == (
                    date.fromisoformat(evs[1]["at"][:10]) - date.fromisoformat(evs[0]["at"][:10])
                ).days
            )
        elif kind == "days_since":
            assert (
                q.gold["end_date"] == q.asked_at[:10] and q.gold["start_date"] == evs[0]["at"][:10]
            )
        else:
            assert evs[0]["at"][:10] == evs[1]["at"][:10]
            assert q.gold["final_answer"] == ("before" if evs[0]["at"] < evs[1]["at"] else "after")


def test_ku_deprecated_value_stated_before_latest(
    bench: Benchmark, dialogues: dict, events: dict
) -> None:
    facts = bench.facts
    for q in _by_family(bench, "KU"):
        turns = _turns(dialogues[q.dialogue_id])
        said = {}
        for order, _, ids, _ in turns.values():
            for fid in ids:
                said.setdefault(facts[fid].value, []).append(order)
        old, new = q.gold["deprecated_state"], q.gold["latest_state"]
        assert old != new and old in q.meta["deprecated_values"]
        assert min(said[old]) < max(said[new])
        # The latest value really is the world's value at question time.
        timeline = bench.world["timelines"][dialogues[q.dialogue_id].character_id][
            q.meta["attribute"]
        ]
        assert [p["value"] for p in timeline if p["at"] < q.asked_at][-1] == new


def test_ma_premise_differs_from_world_in_exactly_one_slot(bench: Benchmark, events: dict) -> None:
    kinds = Counter()
    for q in _by_family(bench, "MA"):
        kinds[q.meta["kind"]] += 1
        event = events[q.evidence.event_ids[0]]
        slots = event["slots"]
        assert slots[q.meta["slot"]] == q.meta["true_value"]
        assert slots[q.meta["asked_slot"]] == q.gold["final_answer"]
        mentioned = [s for s, v in slots.items() if v.lower() in q.query.lower()]
        if q.meta["kind"] == "false_premise":
            assert q.meta["wrong_value"] != q.meta["true_value"]
            assert q.meta["wrong_value"] in q.query and q.meta["true_value"] not in q.query
            assert q.gold["premise_verdict"] == "incorrect"
        else:
            assert q.meta["true_value"] in q.query and q.gold["premise_verdict"] == "correct"
            assert q.meta["slot"] in mentioned
    # Balanced, so a constant verdict earns no more than the no-context floor.
    share = kinds["false_premise"] / (kinds["false_premise"] + kinds["true_premise"])
    assert 0.35 <= share <= 0.65, kinds


def test_evidence_turns_exist_precede_and_state_the_facts(
    bench: Benchmark, dialogues: dict
) -> None:
    for q in bench.questions:
        turns = _turns(dialogues[q.dialogue_id])
        stated = set()
        for tid in q.evidence.turn_ids:
            assert tid in turns, tid
            assert turns[tid][1] < q.asked_at
            stated |= set(turns[tid][2])
        assert set(q.evidence.fact_ids) <= stated
        if q.family != "ABS":
            assert q.evidence.turn_ids


def test_no_question_text_or_answer_in_queries_or_dialogues(
    bench: Benchmark, dialogues: dict
) -> None:
    for q in bench.questions:
        texts = " ".join(t[3] for t in _turns(dialogues[q.dialogue_id]).values())
        assert q.query not in texts
        if q.family == "IE":
            assert q.gold["answer"].lower() not in q.query.lower()


def test_world_shape(bench: Benchmark, events: dict) -> None:
    world = bench.world
    per_year: Counter = Counter()
    categories = set()
    for e in world["events"]:
        if e["kind"] == "initial_state":
            continue
        categories.add(e["category"])
        for cid in (e["character_id"], *e["participants"]):
            per_year[(cid, e["at"][:4])] += 1
        for cause in e["caused_by"]:
            assert events[cause]["at"] < e["at"]
    assert min(per_year.values()) >= 5 and max(per_year.values()) <= 8
    assert len(categories) >= 5
    changed = {sc["attribute"] for e in world["events"] for sc in e["state_changes"]}
    assert {
        "employer",
        "job_title",
        "city",
        "relationship_status",
        "partner",
        "pet",
        "car",
        "hobby",
    } <= changed
    assert any(e["lookalike_of"] for e in world["events"] if e["kind"] == "trip")
    assert any(e["lookalike_of"] for e in world["events"] if e["kind"] == "purchase")
    assert any(e["participants"] for e in world["events"])
    for c in world["characters"]:
        for attr, points in world["timelines"][c["id"]].items():
            for before, after in zip(points, points[1:], strict=False):
                change = next(
                    sc
                    for sc in events[after["event_id"]]["state_changes"]
                    if sc["attribute"] == attr
                )
                assert change["old"] == before["value"] and change["new"] == after["value"]


def test_msr_chains_are_causal_and_ordered(bench: Benchmark, events: dict) -> None:
    for q in _by_family(bench, "MSR"):
        chain = [events[e] for e in q.evidence.event_ids]
        assert 3 <= len(chain) <= 6
        for a, b in zip(chain, chain[1:], strict=False):
            assert b["caused_by"] == [a["id"]] and a["at"] < b["at"]
        assert q.gold["event_chain"] == [e["summary"] for e in chain]


def test_joint_events_are_told_in_both_dialogues(bench: Benchmark, dialogues: dict) -> None:
    joint = [e for e in bench.world["events"] if e["participants"]]
    by_character = {d.character_id: d for d in dialogues.values()}
    for e in joint:
        for cid in (e["character_id"], *e["participants"]):
            ids = {f for t in by_character[cid].turns() for f in t.fact_ids}
            assert f"{e['id']}/{cid}/F0" in ids


_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def _resolve(phrase: str, day: date) -> date:
    """An independent reading of the renderer's time phrases."""
    phrase = phrase.lower()
    if phrase in ("today", "earlier today"):
        return day
    if phrase == "yesterday":
        return day - timedelta(days=1)
    if m := re.fullmatch(r"(\w+) days ago", phrase):
        return day - timedelta(days=NUMBERS.index(m[1]) if m[1] in NUMBERS else int(m[1]))
    if phrase in ("a week ago today", "exactly one week ago"):
        return day - timedelta(days=7)
    if m := re.fullmatch(r"exactly (\w+) weeks ago", phrase):
        return day - timedelta(days=7 * NUMBERS.index(m[1]))
    if m := re.fullmatch(r"last (\w+)", phrase):
        back = (day.weekday() - [w.lower() for w in WEEKDAYS].index(m[1])) % 7 or 7
        return day - timedelta(days=back)
    m = re.fullmatch(r"on (\w+) (\d+)(?:st|nd|rd|th)(?:, (\d{4}))?", phrase)
    assert m, phrase
    return date(int(m[3] or day.year), [x.lower() for x in _MONTHS].index(m[1]) + 1, int(m[2]))


@pytest.mark.parametrize("seed", range(5))
def test_every_time_phrase_resolves_to_its_day(seed: int) -> None:
    import random

    rng = random.Random(seed)
    for _ in range(400):
        session = date(2021, 1, 1) + timedelta(days=rng.randrange(1500))
        event = session - timedelta(days=rng.choice([0, 1, 2, 5, 6, 7, 8, 14, 21, 30, 44, 60, 400]))
        for phrase in phrases_for(event, session):
            assert _resolve(phrase, session) == event, (phrase, session)


def test_event_turns_say_when_it_happened(dialogues: dict, events: dict) -> None:
    """A turn listing an event fact says its day, or cues the character's very next turn, which
    lists the same fact and says the day (a fact spread over two turns names both)."""
    checked = cued = 0
    for d in dialogues.values():
        for s in d.sessions:
            for i, t in enumerate(s.turns):
                for fid in (f for f in t.fact_ids if f.endswith("/F0")):
                    event_day = date.fromisoformat(events[fid.split("/")[0]]["at"][:10])
                    options = phrases_for(event_day, date.fromisoformat(s.started_at[:10]))
                    says = [x for x in (t, *s.turns[i + 1 : i + 2]) if fid in x.fact_ids]
                    said = [any(o.lower() in x.text.lower() for o in options) for x in says]
                    if t.role == "user" and not said[0]:
                        assert len(said) == 2 and said[1] and says[1].role == "assistant", t.text
                        cued += 1
                    else:
                        assert said[0], t.text
                    checked += 1
    assert checked > 100 and cued > 10
