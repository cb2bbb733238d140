"""Questions of a rendered dialogue: the same builders, evidence from the audited turns.

The question builders pick their questions from the world and take evidence turns from where
the dialogue states each fact. To pick exactly the questions the template twin gets, a fact that
is still missing after repair is marked, for the builders only, on the last turn of the session
that should have stated it; every question resting on such a fact is then dropped. The kept
questions' evidence therefore points only at turns the audit found.
"""

from __future__ import annotations

from dataclasses import replace

from umb.bench import Dialogue, Question
from umb.qa import build_questions
from umb.world import CharacterWorld


def _with_marks(dialogue: Dialogue, missing: dict[str, str]) -> Dialogue:
    by_session: dict[str, list[str]] = {}
    for fid, sid in missing.items():
        by_session.setdefault(sid, []).append(fid)
    sessions = []
    for s in dialogue.sessions:
        marks = by_session.get(s.id)
        if marks and s.turns:
            last = s.turns[-1]
            s = replace(
                s, turns=(*s.turns[:-1], replace(last, fact_ids=last.fact_ids + tuple(marks)))
            )
        sessions.append(s)
    return replace(dialogue, sessions=tuple(sessions))


def questions_for(
    seed: int,
    world: CharacterWorld,
    dialogue: Dialogue,
    counts: dict[str, int],
    missing: dict[str, str],
) -> tuple[list[Question], dict[str, int]]:
    """The questions of ``dialogue`` whose evidence it states, and the drops per family.

    Args:
        seed: The benchmark's seed (the builders draw from it).
        world: The character's world.
        dialogue: The rendered dialogue, with audited fact ids.
        counts: Questions per family per dialogue.
        missing: Facts the dialogue fails to state, fact id -> session id that should state them.

    Returns:
        (kept questions in builder order, dropped questions per family).
    """
    marked = _with_marks(dialogue, missing) if missing else dialogue
    kept: list[Question] = []
    dropped: dict[str, int] = {}
    for q in build_questions(seed, world, marked, counts):
        if any(fid in missing for fid in q.evidence.fact_ids):
            dropped[q.family] = dropped.get(q.family, 0) + 1
        else:
            kept.append(q)
    return kept, dropped
