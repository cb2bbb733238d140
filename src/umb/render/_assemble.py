"""Turn a finished session set into a dialogue: turn ids, audited fact ids, coverage counts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from umb._tokens import estimate_tokens
from umb.bench import Dialogue, Session, Turn
from umb.render._audit import FOUND, Finding
from umb.render._plan import DialoguePlan, SessionPlan
from umb.render._repair import WorkLine


@dataclass(frozen=True)
class RenderedDialogue:
    """A rendered dialogue with what it could not state.

    Attributes:
        dialogue: Turns carry the fact ids the audit found in them.
        missing: Required facts still missing, fact id -> the session that should state it.
        report: Coverage and cost counts of this dialogue.
    """

    dialogue: Dialogue
    missing: dict[str, str]
    report: dict[str, Any]


def assemble(
    plan: DialoguePlan,
    sessions: Sequence[tuple[SessionPlan, Sequence[WorkLine], dict[str, Finding]]],
    stats: dict[str, int],
) -> RenderedDialogue:
    """The dialogue of ``plan`` from each session's lines and final findings.

    Args:
        plan: The dialogue's plan.
        sessions: Per session: its plan, its lines, the audit's findings on them.
        stats: Request and retry counts (must hold ``missing_after_write``).
    """
    out = []
    missing: dict[str, str] = {}
    how = {"match": 0, "verifier": 0}
    required = optional = 0
    first = plan.sessions[0]
    for sp, lines, findings in sessions:
        ids: dict[int, list[str]] = {}
        for f in sp.required_facts() + sp.optional_facts():
            found = findings.get(f.id)
            required += f.required
            if found is not None and found.status == FOUND and found.line is not None:
                ids.setdefault(found.line, []).append(f.id)
                how[found.how] = how.get(found.how, 0) + f.required
                optional += not f.required
            elif f.required:
                missing[f.id] = sp.session_id
        turns = tuple(
            Turn(
                f"{sp.session_id}:T{k:04d}",
                x.role,
                first.character if x.role == "assistant" else first.interlocutor.name,
                x.text,
                tuple(ids.get(k - 1, ())),
            )
            for k, x in enumerate(lines, start=1)
        )
        out.append(Session(sp.session_id, sp.started_at, turns))
    dialogue = Dialogue(plan.dialogue_id, plan.character_id, first.interlocutor, tuple(out))
    report = {
        "dialogue_id": plan.dialogue_id,
        "sessions": len(out),
        "turns": sum(len(s.turns) for s in out),
        "tokens": sum(estimate_tokens(t.text) for s in out for t in s.turns),
        "required_facts": required,
        "found_by_match": how["match"],
        "found_by_verifier": how["verifier"],
        "repaired": stats["missing_after_write"] - len(missing),
        "missing": len(missing),
        "callbacks_stated": optional,
        **stats,
    }
    return RenderedDialogue(dialogue, missing, report)
