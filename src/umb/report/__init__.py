"""The HTML report of one or more runs, and the leaderboard as text.

Build it with :func:`build_report`; extend it with :func:`register_section` (a new block on the
page) or :data:`QUESTION_DETAILS` (extra rows per answer in the drill-down). Sections hand data
to each other through the :class:`ReportContext` they are all given, never through globals.
"""

from __future__ import annotations

import typing

from umb._lazy import lazy_names as _lazy_names

if typing.TYPE_CHECKING:
    from umb.report._build import (
        QUESTION_DETAILS,
        SECTIONS,
        QuestionDetail,
        Report,
        build_report,
        register_section,
    )
    from umb.report._catalog import catalog_markdown
    from umb.report._context import ReportContext, ReportOptions, Section, SectionBuilder
    from umb.report._leaderboard import fmt_score, format_leaderboard, leaderboard_rows
    from umb.report._load import Entry, ReportData, RunData, load_report_data, load_run
    from umb.report._native import format_native

# Names load on first use: ``umb eval`` prints the leaderboard without loading the page's
# templates and sections. The section registry comes through ``_build``, which adds the
# built-in sections when it loads, so whoever reads it sees them.
_BUILD = "umb.report._build"
_LAZY: dict[str, str] = {
    "QUESTION_DETAILS": _BUILD,
    "SECTIONS": _BUILD,
    "QuestionDetail": _BUILD,
    "Report": _BUILD,
    "build_report": _BUILD,
    "register_section": _BUILD,
    "catalog_markdown": "umb.report._catalog",
    "ReportContext": "umb.report._context",
    "ReportOptions": "umb.report._context",
    "Section": "umb.report._context",
    "SectionBuilder": "umb.report._context",
    "fmt_score": "umb.report._leaderboard",
    "format_leaderboard": "umb.report._leaderboard",
    "leaderboard_rows": "umb.report._leaderboard",
    "Entry": "umb.report._load",
    "ReportData": "umb.report._load",
    "RunData": "umb.report._load",
    "load_report_data": "umb.report._load",
    "load_run": "umb.report._load",
    "format_native": "umb.report._native",
}

__getattr__, __dir__ = _lazy_names(__name__, _LAZY, globals())

__all__ = [
    "Entry",
    "QUESTION_DETAILS",
    "QuestionDetail",
    "Report",
    "ReportContext",
    "ReportData",
    "ReportOptions",
    "RunData",
    "SECTIONS",
    "Section",
    "SectionBuilder",
    "build_report",
    "catalog_markdown",
    "fmt_score",
    "format_leaderboard",
    "format_native",
    "leaderboard_rows",
    "load_report_data",
    "load_run",
    "register_section",
]
