"""A question family in 90 lines: CNT asks how many times a character changed jobs.

Adding a family is three registrations and a generator: the :class:`Family` record (fields,
prompt, names of its scorer and needs rule), its rule scorer, and its attribution needs rule.
The generator here reads a generated benchmark's facts and writes a copy with CNT questions
added; every gold count and evidence turn comes from the facts, never from the text.

    python examples/question_family.py BENCH OUT   then   umb eval --bench OUT ... (importing this)
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from itertools import pairwise
from pathlib import Path
from typing import Any

from umb.attribute import NEEDS_RULES, Need
from umb.bench import Benchmark, Evidence, Fact, Question, write_benchmark
from umb.families import INTEGER, Family, Field, register_family
from umb.scoring import as_int, rule_scorer

register_family(Family(
    "CNT", "Counting",
    (Field("count", INTEGER, "integer: how many times"),),
    primary_field="count", scorer="cnt_exact", needs="cnt_changes", binary=True,
    goal="Count how many times something changed over the whole history.",
    rules=("Count every change once, from the first session to the current date.",),
    example={"count": 2},
))  # fmt: skip


@rule_scorer("CNT", name="cnt_exact", version="1")
def score_count(question: Question, answer: dict[str, Any]) -> tuple[float | None, dict[str, Any]]:
    """1 if the count is the gold count."""
    said = as_int(answer.get("count"))
    return float(said == question.gold["count"]), {"said": said}


def count_needs(question: Question, facts: Mapping[str, Fact]) -> list[Need]:
    """Each change is a fact the answer rests on: the new employer, stated in its turns."""
    return [Need(f"change {i + 1}", (facts[f].value,), (), question.evidence.turn_ids)
            for i, f in enumerate(question.evidence.fact_ids) if f in facts]  # fmt: skip


NEEDS_RULES.add("cnt_changes", count_needs)


def job_changes(bench: Benchmark) -> list[Question]:
    """One CNT question per dialogue whose character changed employer, every change stated."""
    names = {c["id"]: c["name"] for c in bench.world["characters"]}
    facts = bench.facts
    out = []
    for dialogue in bench.iter_dialogues():
        said: dict[str, list[str]] = {}  # fact id -> the turns stating it
        for session in dialogue.sessions:
            for turn in session.turns:
                for fid in turn.fact_ids:
                    said.setdefault(fid, []).append(turn.id)
        employers = sorted(
            (f for f in facts.values()
             if f.character_id == dialogue.character_id and f.attribute == "employer"),
            key=lambda f: f.at,
        )  # fmt: skip
        changes = [f for prev, f in pairwise(employers) if f.value != prev.value]
        if not changes or any(f.id not in said for f in changes):
            continue  # nothing changed, or a change the dialogue never states: not askable
        out.append(Question(
            id=f"Q-{dialogue.id}-CNT-01", dialogue_id=dialogue.id, family="CNT",
            query=f"How many times has {names[dialogue.character_id]} changed employer?",
            asked_at=dialogue.sessions[-1].started_at, gold={"count": len(changes)},
            answer_components=(str(len(changes)),),
            evidence=evidence(changes, said),
        ))  # fmt: skip
    return out


def evidence(changes: list[Fact], said: Mapping[str, list[str]]) -> Evidence:
    """The changes' events and facts, and the turns (with their sessions) that state them."""
    turns = tuple(dict.fromkeys(t for f in changes for t in said[f.id]))
    return Evidence(
        event_ids=tuple(dict.fromkeys(f.event_id for f in changes)),
        fact_ids=tuple(f.id for f in changes),
        session_ids=tuple(dict.fromkeys(t.rpartition(":")[0] for t in turns)),
        turn_ids=turns,
    )


def add_count_questions(source: Path, out: Path) -> int:
    """Write ``source`` with its CNT questions added to ``out``; the number added."""
    bench = Benchmark.open(source)
    added = job_changes(bench)
    write_benchmark(
        out, world=bench.world, dialogues=bench.iter_dialogues(),
        questions=[*bench.questions, *added], facts=bench.facts.values(),
        generator="examples/question_family.py", config=bench.manifest.get("config", {}),
    )  # fmt: skip
    return len(added)


if __name__ == "__main__":
    print(f"added {add_count_questions(Path(sys.argv[1]), Path(sys.argv[2]))} CNT questions")
