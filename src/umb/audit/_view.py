"""What the baselines may read of a benchmark, read once: questions, profiles and turns.

Dialogues are streamed one at a time and decoded into slim records (a turn's text, speaker and
fact ids, its session's date), so a benchmark of a thousand long dialogues is read in seconds and
never held whole; a broken line is one ``file:line: reason`` error, as everywhere else.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import msgspec

from umb._jsonio import iter_typed
from umb.bench import Benchmark, Fact, Question, holds_wanted_id

DIALOGUES = "dialogues.jsonl"


class Line(msgspec.Struct):
    """One turn as a baseline sees it (decoded straight from the file: no copy per turn)."""

    speaker: str
    text: str
    fact_ids: tuple[str, ...] = ()
    said_at: str = ""
    """The session's start, ``YYYY-MM-DDTHH:MM`` (set after decoding; not in the file)."""


class _Session(msgspec.Struct):
    started_at: str
    turns: list[Line]


class _Dialogue(msgspec.Struct):
    id: str
    character_id: str
    sessions: tuple[_Session, ...]


@dataclass(frozen=True)
class BenchView:
    """The parts of a benchmark the audit reads besides the dialogues."""

    bench: Benchmark
    questions: list[Question]
    facts: dict[str, Fact]
    profiles: dict[str, dict[str, str]]
    """Character id -> the static profile (attribute -> value) that session 1 tells; empty
    without a world (imported benchmarks)."""
    names: frozenset[str]
    """The characters' full and first names (more come from the dialogues' speakers)."""


@dataclass(frozen=True, slots=True)
class DialogueLines:
    """One dialogue's turns, in order."""

    id: str
    character_id: str
    lines: list[Line]
    speakers: frozenset[str]


def _profiles(world: dict[str, Any]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for ch in world.get("characters", ()):
        if not isinstance(ch, dict) or "id" not in ch:
            continue
        profile = {k: str(ch[k]) for k in ("name", "age", "home_city", "occupation") if k in ch}
        state = ch.get("initial_state")
        if isinstance(state, dict):
            profile.update({str(k): str(v) for k, v in state.items()})
        out[str(ch["id"])] = profile
    return out


def open_view(bench: Benchmark | str | Path) -> BenchView:
    """Read the questions, facts and profiles of ``bench``.

    Raises:
        DataError: The directory is not a benchmark, or a record is broken (file and line).
    """
    b = bench if isinstance(bench, Benchmark) else Benchmark.open(bench)
    world = b.read_world() if b.has_world else {}
    names = {
        str(ch[k])
        for ch in world.get("characters", ())
        if isinstance(ch, dict)
        for k in ("name", "first_name")
        if ch.get(k)
    }
    return BenchView(b, b.questions, b.facts, _profiles(world), frozenset(names))


def iter_dialogues(view: BenchView, only: Collection[str] | None = None) -> Iterator[DialogueLines]:
    """Each dialogue's turns, streamed from ``dialogues.jsonl``; with ``only``, just those ids
    (the others are skipped unparsed)."""
    keep = None if only is None else partial(holds_wanted_id, only)
    for _, d in iter_typed(view.bench.root / DIALOGUES, _Dialogue, keep=keep):
        if only is not None and d.id not in only:
            continue
        lines: list[Line] = []
        for s in d.sessions:
            for t in s.turns:
                t.said_at = s.started_at
            lines += s.turns
        yield DialogueLines(d.id, d.character_id, lines, frozenset(t.speaker for t in lines))
