"""Run every shortcut baseline over a benchmark and gather figures, checks and the verdict."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import umb.bench as bench_package
from umb.audit._answers import floor_answer
from umb.audit._cues import FAMILIES as CUE_FAMILIES
from umb.audit._cues import cue_answer, links
from umb.audit._mentions import FAMILIES as MENTION_FAMILIES
from umb.audit._mentions import changed, mention_answer, mentions
from umb.audit._sample import RETRIEVAL_DIALOGUES, sample_dialogues
from umb.audit._score import Scored, family_figures, score_answer
from umb.audit._static import profile_only, question_only
from umb.audit._template import name_pattern, template_key, template_prior
from umb.audit._verdict import EXCLUDED, RULES, checks, verdict
from umb.audit._view import BenchView, iter_dialogues, open_view
from umb.bench import Benchmark, Question

AUDIT_FORMAT: Final = "umb-audit"
AUDIT_VERSION: Final = "2"

BASELINES: Final = {
    "question_only": "the question's own words as the answer; no dialogue",
    "profile_only": "the character's static profile (session 1), no events; the attribute "
    "chosen per template on the other questions",
    "template_prior": "the majority gold of the other questions of the same template "
    "(names, dates and numbers masked)",
    "first_mention": "the first value of the asked attribute stated anywhere in the dialogue",
    "latest_mention": "the last value of the asked attribute stated anywhere in the dialogue",
    "cue_matching": 'events linked by surface cue words alone ("It all started with …", '
    '"Is that because of …?")',
}
"""Baseline -> what it sees, in words (the report's table)."""

Progress = Callable[[str], None]


def _dialogue_baselines(
    view: BenchView,
    bases: dict[str, dict[str, Any]],
    by_dialogue: dict[str, list[Question]],
    out: dict[str, list[Scored]],
    only: frozenset[str] | None,
) -> tuple[frozenset[str], dict[str, str]]:
    """First/latest mention and cue matching, one dialogue at a time; returns the speakers
    and each dialogue's character."""
    speakers: set[str] = set()
    owners: dict[str, str] = {}
    with_facts = bool(view.facts)
    for d in iter_dialogues(view, only):
        speakers |= d.speakers
        owners[d.id] = d.character_id
        asked = by_dialogue.get(d.id, [])
        if with_facts and any(q.family in MENTION_FAMILIES for q in asked):
            said = mentions(d, view.facts)
            for q in asked:
                if q.family not in MENTION_FAMILIES:
                    continue
                subset = changed(q, said)
                for name, which in (("first_mention", 0), ("latest_mention", -1)):
                    answer = mention_answer(q, bases[q.id], said, which)
                    out[name].append(Scored(q.id, q.family, score_answer(q, answer), subset))
        if any(q.family in CUE_FAMILIES for q in asked):
            found = links(d)
            names = frozenset(n.lower() for s in d.speakers for n in s.split())
            for q in asked:
                if q.family in CUE_FAMILIES:
                    answer = cue_answer(q, bases[q.id], found, names)
                    out["cue_matching"].append(Scored(q.id, q.family, score_answer(q, answer)))
    return frozenset(speakers), owners


def run_audit(
    bench: Benchmark | str | Path,
    *,
    retrieval: bool = True,
    dialogues: int | None = None,
    retrieval_dialogues: int | None = RETRIEVAL_DIALOGUES,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Audit ``bench`` with every shortcut baseline; the result is what ``audit.json`` holds.

    Args:
        bench: A benchmark directory (or an open :class:`~umb.bench.Benchmark`).
        retrieval: Also compute BM25 recall@5 of the evidence per family (the costly part,
            which the generate-time gate leaves out).
        dialogues: Audit the questions of a seeded sample of this many dialogues; None: all.
        retrieval_dialogues: Rank with BM25 the questions of a seeded sample of this many of
            the audited dialogues; None: all of them.
        progress: Called with the name of each stage as it starts.

    Returns:
        ``{"format", "version", "benchmark", "floor", "baselines", "retrieval", "checks",
        "verdict", "failures"}``; figures are percentages with 95 % bootstrap intervals.

    Raises:
        DataError: ``bench`` is not a benchmark or one of its records is broken.
    """
    say = progress or (lambda _: None)
    say("reading")
    view = open_view(bench)
    asked = {q.dialogue_id for q in view.questions}
    audited = sample_dialogues(asked, dialogues)
    questions = [
        q
        for q in view.questions
        if q.family not in EXCLUDED and (audited is None or q.dialogue_id in audited)
    ]
    say("floor")
    bases = {q.id: floor_answer(q) for q in questions}
    by_dialogue: dict[str, list[Question]] = {}
    for q in questions:
        by_dialogue.setdefault(q.dialogue_id, []).append(q)
    scored: dict[str, list[Scored]] = {name: [] for name in BASELINES}
    say("dialogues")
    speakers, owners = _dialogue_baselines(view, bases, by_dialogue, scored, audited)
    say("templates")
    names = name_pattern(view.names | speakers | {s.split()[0] for s in speakers if s})
    keys = [template_key(q, names) for q in questions]
    floor = [Scored(q.id, q.family, score_answer(q, bases[q.id])) for q in questions]
    for q in questions:
        scored["question_only"].append(
            Scored(q.id, q.family, score_answer(q, question_only(q, bases[q.id])))
        )
    for q, answer in zip(questions, template_prior(questions, keys), strict=True):
        scored["template_prior"].append(Scored(q.id, q.family, score_answer(q, answer)))
    profiles = [view.profiles.get(owners.get(q.dialogue_id, "")) for q in questions]
    answers = profile_only(questions, keys, [bases[q.id] for q in questions], profiles)
    for q, answer in zip(questions, answers, strict=True):
        if answer is not None:
            scored["profile_only"].append(Scored(q.id, q.family, score_answer(q, answer)))
    say("scoring")
    floor_figs = family_figures(floor)
    figures = {name: family_figures(rows, subset_only=True) for name, rows in scored.items()}
    report: dict[str, Any] = {
        "format": AUDIT_FORMAT,
        "version": AUDIT_VERSION,
        "benchmark": {
            "generator": view.bench.manifest.get("generator"),
            "questions": len(view.questions),
            "audited": len(questions),
            "dialogues": len(asked),
            "dialogues_audited": len(asked) if audited is None else len(audited),
            "has_world": bool(view.profiles),
        },
        "floor": floor_figs,
        "baselines": {
            name: {
                "sees": BASELINES[name],
                "families": figures[name],
                **(
                    {"all_questions": family_figures(scored[name])}
                    if name in ("first_mention", "latest_mention")
                    else {}
                ),
            }
            for name in BASELINES
        },  # fmt: skip
        "retrieval": None,
    }
    if retrieval:
        say("retrieval")
        pool = asked if audited is None else audited
        ranked = sample_dialogues(pool, retrieval_dialogues)
        report["retrieval"] = _retrieval(view.bench, pool if ranked is None else ranked)
    floor_of = {s.question_id: s for s in floor}
    floors = {
        name: family_figures([floor_of[s.question_id] for s in rows if s.subset], subset_only=True)
        for name, rows in scored.items()
    }
    report["checks"] = checks(figures, floors, scored)
    report["verdict"], report["failures"] = verdict(report["checks"])
    report["thresholds"] = [
        {"baseline": r.baseline, "families": list(r.families or ()) or "all but ABS",
         "rule": r.describe()}
        for r in RULES
    ]  # fmt: skip
    return report


def _retrieval(bench: Benchmark, dialogues: frozenset[str] | set[str]) -> dict[str, Any]:
    # recall_at_5 loads bm25s, which nothing else here needs.
    hits = bench_package.recall_at_5(bench, dialogues)
    rows = [
        Scored("", family, value)
        for family, values in hits.items()
        if family not in EXCLUDED
        for value in values
    ]
    return {"bm25_recall_at_5": family_figures(rows), "dialogues": len(dialogues)}
