"""ES golds are complete: every event of the asked kinds that the dialogue tells in the period.

Checked from the files alone (world events, facts, the turns' fact ids), not from the builder's
own bookkeeping, on the demo and small presets and on four characters of the umb preset (one
shard of it: the same worlds and dialogues the full preset holds, for under a second).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from umb.bench import Benchmark, Dialogue, Question
from umb.pipeline import generate, resolve_config
from umb.qa._summary import THEMES
from umb.scoring import get_scorer
from umb.world import PROFILE_KIND
from umb.world._kinds import KINDS
from umb.world._simulate import JOINT_ACTIVITIES

#: Kinds no theme asks about, on purpose: a birthday dinner is neither love life nor free time.
UNTHEMED = frozenset({"joint_dinner"})


def _generated(factory: pytest.TempPathFactory, preset: str, shard: str | None = None) -> Path:
    out = factory.mktemp(preset) / preset
    generate(resolve_config(preset), out, shard=shard)
    return out


@pytest.fixture(scope="module")
def small_bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _generated(tmp_path_factory, "small")


@pytest.fixture(scope="module")
def umb_shard(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _generated(tmp_path_factory, "umb", shard="0/250")


def _told_before(d: Dialogue, event_of: dict[str, str], asked_at: str) -> set[str]:
    """Ids of the events a turn of a session started before ``asked_at`` states a fact of."""
    return {
        event_of[fid]
        for s in d.sessions
        if s.started_at < asked_at
        for t in s.turns
        for fid in t.fact_ids
    }


def _history(events: list[dict[str, Any]], character: str) -> list[dict[str, Any]]:
    """The character's events, joint ones included, profile excluded, in time order."""
    mine = [
        e
        for e in events
        if e["kind"] != PROFILE_KIND
        and (e["character_id"] == character or character in e.get("participants", ()))
    ]
    return sorted(mine, key=lambda e: e["at"])


def _expected(q: Question, history: list[dict[str, Any]], told: set[str]) -> list[str]:
    start, end = str(q.gold["time_span"]).split(" to ")
    kinds = set(q.meta["event_kinds"])
    return [
        e["id"]
        for e in history
        if e["kind"] in kinds and start <= e["at"][:10] <= end and e["id"] in told
    ]


def _check_question(q: Question, history: list[dict[str, Any]], told: set[str]) -> None:
    theme = {t.name: t for t in THEMES}[q.meta["theme"]]
    # The wording names the kinds the gold is complete for.
    assert list(theme.kinds) == q.meta["event_kinds"], q.id
    assert any(theme.listing.format(pronoun=p) in q.query for p in ("he", "she")), q.id
    gold = list(q.evidence.event_ids)
    assert set(gold) <= told, (q.id, "a gold event is not told before asked_at")
    assert gold == _expected(q, history, told), (q.id, "an event is missing or out of order")
    points = q.gold["key_turning_points"]
    summaries = {e["id"]: e["summary"] for e in history}
    for point, e in zip(points, gold, strict=True):
        assert point.startswith(summaries[e]), (q.id, point)
    assert len(set(points)) == len(points), (q.id, "two points read the same")
    assert len(gold) >= 2 and len(q.meta["point_keys"]) == len(gold), q.id
    assert get_scorer("ES")(q, dict(q.gold)).value == 1.0, (q.id, "the gold does not score 1")


def _check(root: Path) -> int:
    """Check every ES question of the benchmark at ``root``; how many there are."""
    bench = Benchmark.open(root)
    events = bench.world["events"]
    event_of = {fid: f.event_id for fid, f in bench.facts.items()}
    questions: dict[str, list[Question]] = {}
    for q in bench.questions:
        if q.family == "ES":
            questions.setdefault(q.dialogue_id, []).append(q)
    for d in bench.iter_dialogues():
        history = _history(events, d.character_id)
        for q in questions.get(d.id, []):
            _check_question(q, history, _told_before(d, event_of, q.asked_at))
    return sum(len(qs) for qs in questions.values())


def test_demo_es_golds_are_complete(demo_bench: Path) -> None:
    assert _check(demo_bench) > 0


def test_small_es_golds_are_complete(small_bench: Path) -> None:
    assert _check(small_bench) >= 100


def test_umb_shard_es_golds_are_complete(umb_shard: Path) -> None:
    assert _check(umb_shard) > 0


def test_every_event_kind_is_in_a_theme() -> None:
    """A new event kind must join a theme (or UNTHEMED): else ES never asks about it."""
    themed = {k for t in THEMES for k in t.kinds}
    kinds = set(KINDS) | {a[0] for a in JOINT_ACTIVITIES}
    assert kinds - UNTHEMED == themed
