"""Question families: codes, names and the JSON answer fields each one asks for.

The fields follow the original UnifiedMemBench release so results line up with its tables;
``ABS`` (unanswerable) is umb's own addition.
"""

from __future__ import annotations

from typing import Final

FAMILIES: Final = ("IE", "MSR", "ES", "TR", "KU", "MA", "ABS")

FAMILY_NAMES: Final[dict[str, str]] = {
    "IE": "Information Extraction",
    "MSR": "Multi-session Reasoning",
    "ES": "Event Summarization",
    "TR": "Temporal Reasoning",
    "KU": "Knowledge Updating",
    "MA": "Memory Arbitration",
    "ABS": "Abstention",
}

REQUIRED_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "IE": ("answer", "evidence_snippets"),
    "MSR": ("event_chain", "final_outcome"),
    "ES": ("time_span", "key_turning_points", "summary"),
    "TR": ("final_answer", "days", "start_date", "end_date"),
    "KU": ("latest_state", "as_of_time", "deprecated_state"),
    "MA": ("premise_verdict", "premise_error", "corrected_facts", "final_answer"),
    "ABS": ("answerable", "answer"),
}

#: Families scored 0/1; the others get 0, 0.5 or 1 (as in the original's scheme "A").
BINARY_FAMILIES: Final = frozenset({"IE", "TR", "KU", "ABS"})


def family_name(code: str) -> str:
    """Return the long name of a family code such as ``"IE"``."""
    return FAMILY_NAMES[code]
