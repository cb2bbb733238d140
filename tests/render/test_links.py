"""How a character refers back to the cause of news: natural, and never ambiguous."""

from __future__ import annotations

import random
import re
from datetime import date

import pytest

from umb.bench import Fact
from umb.render import _kindtalk as K
from umb.render import _narrate as N
from umb.world import Event, WorldBuilder

_MONTH_FORMS = ("in {m}", "back in {m}", "in early {m}", "in late {m}")


def _event(eid: str, kind: str, at: str, **slots: str) -> Event:
    return Event(eid, "C1", at, "travel", kind, "did it", slots)


def _facts(e: Event) -> list[Fact]:
    main = Fact(f"{e.id}/F0", "C1", e.id, e.at, "event", e.summary, e.summary)
    return [main] + [
        Fact(f"{e.id}/F{i}", "C1", e.id, e.at, slot, v, v)
        for i, (slot, v) in enumerate(e.slots.items(), start=1)
    ]


_SEEN: dict[tuple[str, ...], set[str]] = {}


def _forms(e: Event, told_at: str) -> set[str]:
    """Every wording a reader could take as ``e`` (its kind's group, any month phrase)."""
    key = (e.id, e.kind, e.at, told_at[:7], *e.slots.values())
    if key not in _SEEN:
        _SEEN[key] = _wordings(e, told_at)
    return _SEEN[key]


def _wordings(e: Event, told_at: str) -> set[str]:
    then, now = date.fromisoformat(e.at[:10]), date.fromisoformat(told_at[:10])
    month = then.strftime("%B")
    times = {f"in {month} {then.year}", f"back in {month} {then.year}"}
    if 0 <= (now.year - then.year) * 12 + now.month - then.month < 12:  # its latest occurrence
        times |= {f.format(m=month) for f in _MONTH_FORMS}
    out = set()
    for kind in K.ref_group(e.kind):
        for template in K.KIND_REF.get(kind, ()):
            out |= {template.format(time=f" {t}") for t in times}
    named = N.reference(random.Random(0), e, _facts(e), told_at, ())
    if named is not None:
        out |= {named.mine} | {f"{named.mine} {t}" for t in times}
    return out


def _bare(e: Event) -> set[str]:
    return {t.format(time="") for k in K.ref_group(e.kind) for t in K.KIND_REF.get(k, ())}


def _readings(said: str, told: list[Event], told_at: str) -> list[str]:
    """The events a careful reader could take ``said`` for: those it names, and for a bare
    kind reference, those of that kind already known when the news is told."""
    known_by = N._TOLD_WITHIN + date.fromisoformat(told_at[:10])
    out = [o.id for o in told if said in _bare(o) and date.fromisoformat(o.at[:10]) < known_by]
    if said not in _bare_any:
        out += [o.id for o in told if said in _forms(o, told_at)]
    return sorted(set(out))


_bare_any = {t.format(time="") for ts in K.KIND_REF.values() for t in ts}


def test_kind_references_name_no_value() -> None:
    for kind, templates in K.KIND_REF.items():
        assert kind in K.OPENERS
        for template in templates:
            assert re.findall(r"\{(\w+)\}", template) == ["time"], template


def test_a_lone_cause_is_named_by_its_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(N, "NAME_RATE", 0.0)
    trip = _event("E1", "trip", "2024-03-05T10:00", destination="Lisbon")
    ref = N.reference(random.Random(1), trip, _facts(trip), "2024-05-01T10:00", [trip])
    assert ref is not None and ref.mine in _bare(trip) and ref.ids == ()


def test_an_earlier_look_alike_brings_in_the_month(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(N, "NAME_RATE", 0.0)
    old = _event("E0", "road_trip", "2023-11-20T10:00", destination="Porto")
    trip = _event("E1", "trip", "2024-03-05T10:00", destination="Lisbon")
    for seed in range(20):
        ref = N.reference(random.Random(seed), trip, _facts(trip), "2024-05-01T10:00", [old, trip])
        assert ref is not None and "March" in ref.mine and ref.ids == ()


def test_two_of_a_kind_in_one_month_are_told_apart_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(N, "NAME_RATE", 0.0)
    a = _event("E1", "trip", "2024-03-05T10:00", destination="Lisbon")
    b = _event("E2", "trip", "2024-03-25T10:00", destination="Hanoi")
    ref = N.reference(random.Random(1), a, _facts(a), "2024-05-01T10:00", [a, b])
    assert ref is not None and ref.mine == "the trip to Lisbon"
    assert ref.ids == ("E1/F1",)  # it states the destination
    assert ref.yours == "the trip to Lisbon"
    # The same destination twice that month: no wording is unambiguous, so no link.
    c = _event("E3", "trip", "2024-03-28T10:00", destination="Lisbon")
    assert N.reference(random.Random(1), a, _facts(a), "2024-05-01T10:00", [a, b, c]) is None
    # In another month the name takes the month along.
    d = _event("E4", "trip", "2023-12-28T10:00", destination="Lisbon")
    ref = N.reference(random.Random(1), a, _facts(a), "2024-05-01T10:00", [a, b, d])
    assert ref is not None and ref.mine.startswith("the trip to Lisbon ") and "March" in ref.mine


def test_the_friend_says_your_not_my() -> None:
    injury = _event("E1", "injury", "2024-03-05T10:00", injury="a sprained ankle")
    seen = set()
    for seed in range(40):
        ref = N.reference(random.Random(seed), injury, _facts(injury), "2024-04-01T10:00", [injury])
        assert ref is not None
        seen.add(ref.yours)
    assert "your accident" in seen and not any(re.search(r"\bmy\b", y) for y in seen)


def test_month_phrases_add_the_year_once_it_is_ambiguous() -> None:
    rng = random.Random(0)
    assert {N.month_phrase(rng, "2024-03-15T10:00", "2024-04-01T10:00") for _ in range(20)} == {
        "in March"
    }
    far = {N.month_phrase(rng, "2023-03-15T10:00", "2024-02-01T10:00") for _ in range(20)}
    assert far == {"in March 2023", "back in March 2023"}


def test_every_cause_reference_resolves_to_its_cause() -> None:
    """Over a dense simulated population (look-alikes in one month included): each reference a
    link would use picks out exactly the cause among the character's events, the way a careful
    reader of the earlier sessions reads it."""
    builder = WorldBuilder(5, 30, date(2020, 1, 1), date(2024, 12, 31), (12, 18))
    checked, crowded = 0, 0
    for i in range(30):
        world = builder.build(i)
        told = world.events[1:]
        by_id = {e.id: e for e in told}
        for e in told:
            for cause_id in e.caused_by:
                cause = by_id[cause_id]
                group = K.ref_group(cause.kind)
                crowded += any(
                    o.id != cause_id and o.kind in group and o.at[:7] == cause.at[:7] for o in told
                )
                for seed in range(4):
                    ref = N.reference(random.Random(seed), cause, world.facts[cause_id], e.at, told)
                    if ref is None:
                        continue
                    assert _readings(ref.mine, told, e.at) == [cause_id], (ref.mine, e.id)
                    checked += 1
    assert checked > 2000 and crowded > 10
