"""First-mention and latest-mention baselines (KU, MA).

Each answers with the first, or the last, value of the asked attribute stated anywhere in the
dialogue, ignoring when the question is asked: a benchmark whose current state is simply the last
thing said, or never changes from the first, shows here. The thresholded figure counts only the
questions whose attribute was stated with a latest value that differs from the first one (where
a reader must actually track the change). The values come from the turns' fact ids, so the
baseline needs ``facts.jsonl`` (generated benchmarks); imported ones have no figure.
"""

from __future__ import annotations

from typing import Any, Final

from umb.audit._answers import with_value
from umb.audit._view import DialogueLines
from umb.bench import Fact, Question
from umb.scoring import contains_value

FAMILIES: Final = ("KU", "MA")


def mentions(d: DialogueLines, facts: dict[str, Fact]) -> dict[str, list[str]]:
    """Attribute -> its values in the order the dialogue states them (repeats dropped)."""
    out: dict[str, list[str]] = {}
    for line in d.lines:
        for fid in line.fact_ids:
            fact = facts.get(fid)
            if fact is None or fact.character_id != d.character_id:
                continue
            values = out.setdefault(fact.attribute, [])
            if not values or values[-1] != fact.value:
                values.append(fact.value)
    return out


def _attribute(question: Question) -> str:
    key = "attribute" if question.family == "KU" else "asked_slot"
    return str(question.meta.get(key, ""))


def changed(question: Question, said: dict[str, list[str]]) -> bool:
    """Whether the asked attribute's latest stated value differs from its first."""
    values = said.get(_attribute(question), [])
    return len(values) > 1 and values[0] != values[-1]


def mention_answer(
    question: Question, base: dict[str, Any], said: dict[str, list[str]], which: int
) -> dict[str, Any]:
    """The floor's answer with the first (``which=0``) or last (``-1``) stated value."""
    values = said.get(_attribute(question), [])
    value = values[which] if values else ""
    out = with_value(question, base, value)
    if question.family == "MA":
        # The premise is accepted when the slot's stated value is the one it names.
        premise = said.get(str(question.meta.get("slot", "")), [])
        true = premise[which] if premise else ""
        accepted = bool(true) and contains_value(question.query, true)
        out["premise_verdict"] = "correct" if accepted else "incorrect"
        out["premise_error"] = "" if accepted else f"It was {true}." if true else ""
        out["corrected_facts"] = [f"It was {true}."] if true and not accepted else []
    return out
