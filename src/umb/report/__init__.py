"""The HTML report of one or more runs, and the leaderboard as text.

Build it with :func:`build_report`; extend it with :func:`register_section` (a new block on the
page) or :data:`QUESTION_DETAILS` (extra rows per answer in the drill-down). Sections hand data
to each other through the :class:`ReportContext` they are all given, never through globals.
"""

from umb.report._attribution import register as _register_attribution
from umb.report._build import Report, build_report
from umb.report._context import ReportContext, ReportOptions, Section, SectionBuilder
from umb.report._leaderboard import fmt_score, format_leaderboard, leaderboard_rows
from umb.report._load import Entry, ReportData, RunData, load_report_data, load_run
from umb.report._memory_metrics import register as _register_memory_metrics
from umb.report._native import format_native
from umb.report._sections import QUESTION_DETAILS, SECTIONS, QuestionDetail, register_section
from umb.report._traces import register as _register_traces

_register_traces()
_register_attribution()
_register_memory_metrics()

__all__ = [
    "QUESTION_DETAILS",
    "SECTIONS",
    "Entry",
    "Report",
    "ReportContext",
    "ReportData",
    "ReportOptions",
    "QuestionDetail",
    "RunData",
    "Section",
    "SectionBuilder",
    "build_report",
    "fmt_score",
    "format_native",
    "format_leaderboard",
    "leaderboard_rows",
    "load_report_data",
    "load_run",
    "register_section",
]
