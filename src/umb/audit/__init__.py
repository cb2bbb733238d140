"""The benchmark audit: shortcut baselines that see less than a memory system should.

``run_audit(bench)`` scores each baseline (question-only, profile-only, template prior,
first- and latest-mention, cue-matching, and BM25 recall@5 of the evidence) with the family rule
scorers, per family with 95 % intervals, checks each against its threshold and gives a verdict;
``write_audit`` writes ``audit.json`` and ``audit.md``; ``gate`` is the cheap audit that
``umb generate`` records in the manifest. docs/audit.md describes each baseline.
"""

from umb.audit._audit import AUDIT_FORMAT, AUDIT_VERSION, BASELINES, run_audit
from umb.audit._gate import gate, gate_line
from umb.audit._report import format_summary, report_markdown, write_audit
from umb.audit._sample import GATE_DIALOGUES, RETRIEVAL_DIALOGUES
from umb.audit._verdict import RULES, Rule

__all__ = [
    "AUDIT_FORMAT",
    "AUDIT_VERSION",
    "BASELINES",
    "GATE_DIALOGUES",
    "RETRIEVAL_DIALOGUES",
    "RULES",
    "Rule",
    "format_summary",
    "gate",
    "gate_line",
    "report_markdown",
    "run_audit",
    "write_audit",
]
