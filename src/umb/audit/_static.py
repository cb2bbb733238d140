"""Baselines that read no dialogue: question-only and profile-only.

- **question-only** answers with the question's own words: the value field is the question,
  the event list its clauses. It scores only where a gold is given away by the wording.
- **profile-only** knows the character's static profile (what session 1 tells: job, city,
  partner, car, hobby …) and no event. The value field is the profile's value of the attribute
  a question names (KU), or of the attribute that most often equals the gold among the *other*
  questions of the same template (IE, MA; leave-one-out, as the template prior). It shows golds
  that follow from static traits (an injury's activity that is always the hobby).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from umb.audit._answers import VALUE_FIELD, clauses, with_list, with_value
from umb.bench import Question
from umb.scoring import match_value


def question_only(question: Question, base: dict[str, Any]) -> dict[str, Any]:
    """The floor's answer with the question's words as the value or the event list."""
    if question.family in VALUE_FIELD:
        return with_value(question, base, question.query)
    return with_list(question, base, clauses(question.query))


def _gold_value(question: Question) -> str:
    field = VALUE_FIELD.get(question.family)
    value = question.gold.get(field) if field else None
    return value if isinstance(value, str) else ""


def _matching_attributes(question: Question, profile: dict[str, str]) -> set[str]:
    gold = _gold_value(question)
    if not gold:
        return set()
    return {a for a, v in profile.items() if v and match_value(v, [gold])[0] is not None}


def profile_only(
    questions: list[Question],
    keys: list[str],
    bases: list[dict[str, Any]],
    profiles: list[dict[str, str] | None],
) -> list[dict[str, Any] | None]:
    """Each question's profile-only answer; None where no profile is known (imported data)."""
    hits = [
        _matching_attributes(q, p) if p and q.family in ("IE", "MA") else set()
        for q, p in zip(questions, profiles, strict=True)
    ]
    votes: dict[str, Counter[str]] = {}
    for k, h in zip(keys, hits, strict=True):
        votes.setdefault(k, Counter()).update(h)
    out: list[dict[str, Any] | None] = []
    for q, k, h, base, p in zip(questions, keys, hits, bases, profiles, strict=True):
        if not p:
            out.append(None)
            continue
        if q.family == "KU":
            value = p.get(str(q.meta.get("attribute", "")), "")
        elif q.family in ("IE", "MA"):
            # Leave-one-out: this question's own hits are taken out of its template's vote.
            tally = votes[k].copy()
            tally.subtract(h)
            ranked = sorted((-n, a) for a, n in tally.items() if n > 0)
            value = p.get(ranked[0][1], "") if ranked else ""
        else:
            out.append(with_list(q, base, list(p.values())))
            continue
        out.append(with_value(q, base, value))
    return out
