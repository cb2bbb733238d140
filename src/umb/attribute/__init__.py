"""Root-cause attribution of failed questions, fault injection that checks it, and memory
metrics.

:func:`attribute_run` gives each failed question of a run its error type and decisive faulty
operation, from the run's traces and the benchmark's gold evidence;
:func:`run_fault_injection` checks it against faults injected for real;
:func:`memory_metrics_run` measures each system's write path (extraction, fabrication, updates,
omissions) against the gold facts.
"""

from __future__ import annotations

import typing

from umb._lazy import lazy_names as _lazy_names
from umb.attribute._files import ATTRIBUTION_SUMMARY, ATTRIBUTIONS, MEMORY_METRICS
from umb.attribute._types import ERROR_TYPES, Attribution

if typing.TYPE_CHECKING:
    from umb.attribute._attribute import attribute_question
    from umb.attribute._background import BackgroundAnalysis
    from umb.attribute._evidence import FactChecker, QuestionInputs
    from umb.attribute._facts import Need
    from umb.attribute._faults import FAULT_KINDS, Fault
    from umb.attribute._faults_run import FaultReport, run_fault_injection
    from umb.attribute._llm import LLMFactChecker
    from umb.attribute._memory_metrics_run import (
        RATES,
        MemoryMetricsRun,
        memory_metrics_entry,
        memory_metrics_run,
        read_memory_detail,
        read_memory_metrics,
    )
    from umb.attribute._needs import NEEDS_RULES, NeedsRule, build_needs, needs_rule
    from umb.attribute._run import (
        AttributionRun,
        attribute_run,
        read_attributions,
        run_traces,
    )

# The rest loads on first use: a command that only names the files (the eval summary) or
# hands attribution to its second process does not pay for matching and fault injection.
_LAZY: dict[str, str] = {
    "BackgroundAnalysis": "umb.attribute._background",
    "RATES": "umb.attribute._memory_metrics_run",
    "read_memory_detail": "umb.attribute._memory_metrics_run",
    "run_traces": "umb.attribute._run",
    "attribute_question": "umb.attribute._attribute",
    "FactChecker": "umb.attribute._evidence",
    "QuestionInputs": "umb.attribute._evidence",
    "Need": "umb.attribute._facts",
    "build_needs": "umb.attribute._needs",
    "needs_rule": "umb.attribute._needs",
    "NEEDS_RULES": "umb.attribute._needs",
    "NeedsRule": "umb.attribute._needs",
    "FAULT_KINDS": "umb.attribute._faults",
    "Fault": "umb.attribute._faults",
    "FaultReport": "umb.attribute._faults_run",
    "run_fault_injection": "umb.attribute._faults_run",
    "LLMFactChecker": "umb.attribute._llm",
    "MemoryMetricsRun": "umb.attribute._memory_metrics_run",
    "memory_metrics_entry": "umb.attribute._memory_metrics_run",
    "memory_metrics_run": "umb.attribute._memory_metrics_run",
    "read_memory_metrics": "umb.attribute._memory_metrics_run",
    "AttributionRun": "umb.attribute._run",
    "attribute_run": "umb.attribute._run",
    "read_attributions": "umb.attribute._run",
}


__getattr__, __dir__ = _lazy_names("umb.attribute", _LAZY, globals())


__all__ = [
    "BackgroundAnalysis",
    "RATES",
    "read_memory_detail",
    "run_traces",
    "ATTRIBUTIONS",
    "ATTRIBUTION_SUMMARY",
    "ERROR_TYPES",
    "FAULT_KINDS",
    "Attribution",
    "AttributionRun",
    "FactChecker",
    "Fault",
    "FaultReport",
    "LLMFactChecker",
    "MEMORY_METRICS",
    "MemoryMetricsRun",
    "Need",
    "QuestionInputs",
    "attribute_question",
    "attribute_run",
    "build_needs",
    "needs_rule",
    "NEEDS_RULES",
    "NeedsRule",
    "memory_metrics_run",
    "memory_metrics_entry",
    "read_attributions",
    "read_memory_metrics",
    "run_fault_injection",
]
