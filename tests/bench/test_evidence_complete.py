"""Evidence is complete and true: every turn stating an answer fact before ``asked_at``, no other.

Checked from the files alone: a turn states an answer fact when it carries the fact's id or the
id of a fact with the same character, event, attribute and value (a retelling, the
interlocutor's echo, a "changed from" fact and the slot fact of one change). Run on the demo and
small presets and one shard of the umb preset (the same worlds the full preset holds).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from umb.bench import Benchmark, Dialogue, Fact, Question
from umb.pipeline import generate, resolve_config

Key = tuple[str, str, str, str]


def _generated(factory: pytest.TempPathFactory, preset: str, shard: str | None = None) -> Path:
    out = factory.mktemp(preset) / preset
    generate(resolve_config(preset), out, shard=shard)
    return out


def _key(f: Fact) -> Key:
    return (f.character_id, f.event_id, f.attribute, f.value)


def _stating_turns(d: Dialogue, q: Question, facts: dict[str, Fact]) -> set[str]:
    """Turns of sessions before ``q.asked_at`` carrying a fact that states an answer fact."""
    answer = {_key(facts[fid]) for fid in q.evidence.fact_ids}
    return {
        t.id
        for s in d.sessions
        if s.started_at < q.asked_at
        for t in s.turns
        if any(fid in facts and _key(facts[fid]) in answer for fid in t.fact_ids)
    }


def _check(path: Path) -> None:
    bench = Benchmark.open(path)
    dialogues = {d.id: d for d in bench.iter_dialogues()}
    session_of = {t.id: s.id for d in dialogues.values() for s in d.sessions for t in s.turns}
    wrong: list[tuple[str, list[str], list[str]]] = []
    for q in bench.questions:
        want = _stating_turns(dialogues[q.dialogue_id], q, bench.facts)
        got = set(q.evidence.turn_ids)
        if got != want:
            wrong.append((q.id, sorted(want - got), sorted(got - want)))
        assert set(q.evidence.session_ids) == {session_of[t] for t in want}, q.id
    assert not wrong, (len(wrong), wrong[:3])


@pytest.mark.parametrize("preset", ["demo", "small"])
def test_evidence_complete(tmp_path_factory: pytest.TempPathFactory, preset: str) -> None:
    _check(_generated(tmp_path_factory, preset))


def test_evidence_complete_umb_shard(tmp_path_factory: pytest.TempPathFactory) -> None:
    _check(_generated(tmp_path_factory, "umb", shard="0/250"))
