"""Turn a finished session set into a dialogue: turn ids, audited fact ids, coverage counts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from umb._tokens import estimate_tokens
from umb.bench import TEMPLATE, Dialogue, Session, Turn
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
    sessions: Sequence[tuple[SessionPlan, Sequence[WorkLine], dict[str, Finding], str]],
    stats: dict[str, int],
) -> RenderedDialogue:
    """The dialogue of ``plan`` from each session's lines and final findings.

    Coverage figures (required, found, repaired, missing) count the sessions the model wrote;
    a session that fell back to the template is counted under ``sessions_by_renderer`` and its
    missing facts (if any) under ``missing_in_template_sessions``, and still drop questions.

    Args:
        plan: The dialogue's plan.
        sessions: Per session: its plan, its lines, the audit's findings on them, and who wrote
            it (the model's spec or ``template``).
        stats: Request and retry counts (must hold ``missing_after_write``, counted over the
            model-written sessions).
    """
    out = []
    missing: dict[str, str] = {}
    how = {"match": 0, "verifier": 0}
    required = optional = missing_model = 0
    by_renderer: dict[str, int] = {}
    first = plan.sessions[0]
    for sp, lines, findings, rendered_by in sessions:
        by_model = rendered_by != TEMPLATE
        by_renderer[rendered_by] = by_renderer.get(rendered_by, 0) + 1
        ids: dict[int, list[str]] = {}
        for f in sp.required_facts() + sp.optional_facts():
            found = findings.get(f.id)
            required += f.required and by_model
            if found is not None and found.status == FOUND and found.line is not None:
                ids.setdefault(found.line, []).append(f.id)
                if by_model:
                    how[found.how] = how.get(found.how, 0) + f.required
                    optional += not f.required
            elif f.required:
                missing[f.id] = sp.session_id
                missing_model += by_model
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
        out.append(Session(sp.session_id, sp.started_at, turns, rendered_by))
    dialogue = Dialogue(plan.dialogue_id, plan.character_id, first.interlocutor, tuple(out))
    report = {
        "dialogue_id": plan.dialogue_id,
        "sessions": len(out),
        "sessions_by_renderer": dict(sorted(by_renderer.items())),
        "turns": sum(len(s.turns) for s in out),
        "tokens": sum(estimate_tokens(t.text) for s in out for t in s.turns),
        "required_facts": required,
        "found_by_match": how["match"],
        "found_by_verifier": how["verifier"],
        "repaired": stats["missing_after_write"] - missing_model,
        "missing": missing_model,
        "missing_in_template_sessions": len(missing) - missing_model,
        "callbacks_stated": optional,
        **stats,
    }
    return RenderedDialogue(dialogue, missing, report)
