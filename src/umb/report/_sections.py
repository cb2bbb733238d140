"""The built-in sections of the report, and the ordered list other parts of umb extend.

To add a section (attribution tables, trace pictures, …) write a builder that takes a
:class:`~umb.report.ReportContext` and returns a :class:`~umb.report.Section` (or None), then
register it::

    register_section("attribution", build_attribution, after="invalid_json")

Per-question details for the drill-down come from two places: rows an earlier section left in
the context (:meth:`~umb.report.ReportContext.add_detail`, as the attribution and trace sections
do), and :data:`QUESTION_DETAILS`, functions of ``(ctx, entry, record)`` that return extra
``(label, html)`` rows — so a later feature can add rows under each answer without touching
this module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markupsafe import Markup

from umb._errors import ConfigError
from umb._registry import Registry
from umb.report import _plots
from umb.report._board import leaderboard
from umb.report._context import ReportContext, Section, SectionBuilder
from umb.report._glossary import glossary
from umb.report._load import Entry
from umb.report._native import native_categories, retrieval_metrics

SECTIONS: Registry[SectionBuilder] = Registry("report section", "report")
"""Section id -> builder, in page order."""

QuestionDetail = Callable[[ReportContext, Entry, dict[str, Any]], list[tuple[str, Markup]]]
"""``(ctx, entry, record) -> [(label, html)]``: rows shown under one answer of the drill-down."""

QUESTION_DETAILS: list[QuestionDetail] = []
"""Extra rows shown under each answer in the drill-down (see :data:`QuestionDetail`)."""


def register_section(
    section_id: str,
    builder: SectionBuilder,
    *,
    after: str | None = None,
    before: str | None = None,
) -> None:
    """Add a section builder to the page (at the end unless ``after`` or ``before`` is given).

    Raises:
        ConfigError: ``section_id`` is taken.
        ConfigError: ``after``/``before`` names no section, or both are given.
    """
    ids = SECTIONS.names()
    if after is not None and before is not None:
        raise ConfigError("give after or before, not both")
    anchor = after if after is not None else before
    if anchor is None:
        SECTIONS.add(section_id, builder)
        return
    if anchor not in ids:
        raise ConfigError(f"no report section {anchor!r}; known: {', '.join(ids)}")
    SECTIONS.add(section_id, builder, at=ids.index(anchor) + (1 if after is not None else 0))


def families(ctx: ReportContext) -> Section | None:
    """Per-family means with 95% CIs, as a table and as grouped bars."""
    if not ctx.data.entries:
        return None
    fig = _plots.family_bars(ctx.data.entries, ctx.data.families)
    plot = ctx.figure("families", fig, "Mean score per question family with 95% CIs")
    html = ctx.render("families.html.j2", families=ctx.data.families, plot=plot)
    return Section("families", "Per family", html)


def tokens(ctx: ReportContext) -> Section | None:
    """Each question's score against the context it was given."""
    if not any(e.records for e in ctx.data.entries):
        return None
    fig = _plots.score_vs_tokens(ctx.data.entries)
    plot = ctx.figure("score_vs_tokens", fig, "Score against context tokens, per question")
    return Section("tokens", "Score vs context", ctx.render("tokens.html.j2", plot=plot))


def invalid_json(ctx: ReportContext) -> Section:
    """How often each entry's reply was not a usable answer object, and some examples."""
    rows = []
    for e in ctx.data.entries:
        bad = [r for r in e.records if r.get("parse_status") not in (None, "ok")]
        per_family = {
            f: b["invalid_json"]
            for f, b in e.group.get("families", {}).items()
            if b.get("invalid_json")
        }
        rows.append(
            {
                "entry": e,
                "invalid": sum(bool(r.get("invalid_json")) for r in e.records),
                "missing": sum(r.get("parse_status") == "missing_fields" for r in e.records),
                "errors": sum(bool(r.get("error")) for r in e.records),
                "per_family": per_family,
                "examples": bad[:3],
            }
        )
    html = ctx.render(
        "invalid.html.j2", rows=rows, any_family=any(r["per_family"] for r in rows)
    )
    return Section("invalid_json", "Invalid JSON", html)


def drilldown(ctx: ReportContext) -> Section | None:
    """Every question with its gold answer and each entry's raw answer, score and context ids."""
    ids = sorted({r["question_id"] for e in ctx.data.entries for r in e.records})
    if not ids:
        return None
    shown = set(ids[: ctx.options.max_questions])
    by_question: dict[str, dict[str, Any]] = {}
    for e in ctx.data.entries:
        for r in e.records:
            if r["question_id"] not in shown:
                continue  # only the first questions are on the page (and loaded whole)
            item = by_question.setdefault(r["question_id"], {"record": r, "answers": []})
            extra = list(ctx.details.get((e.key, r["question_id"]), []))
            extra += [row for detail in QUESTION_DETAILS for row in detail(ctx, e, r)]
            item["answers"].append({"entry": e, "record": r, "extra": extra})
    html = ctx.render(
        "drilldown.html.j2",
        questions=[(qid, by_question[qid]) for qid in sorted(by_question)],
        total=len(ids),
        raw_chars=ctx.options.raw_chars,
        entries=ctx.data.entries,
    )
    return Section("questions", "Questions", html)


def runs(ctx: ReportContext) -> Section:
    """What each run was: benchmark, models, parameters, versions, usage."""
    return Section("runs", "Runs", ctx.render("runs.html.j2", runs=ctx.data.runs))


for _id, _builder in (
    ("leaderboard", leaderboard),
    ("families", families),
    ("native", native_categories),
    ("retrieval", retrieval_metrics),
    ("tokens", tokens),
    ("invalid_json", invalid_json),
    ("questions", drilldown),
    ("runs", runs),
    ("glossary", glossary),
):
    register_section(_id, _builder)
