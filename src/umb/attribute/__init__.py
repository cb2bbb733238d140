"""Root-cause attribution of failed questions, fault injection that checks it, and memory
metrics.

:func:`attribute_run` gives each failed question of a run its error type and decisive faulty
operation, from the run's traces and the benchmark's gold evidence;
:func:`run_fault_injection` checks it against faults injected for real;
:func:`memory_metrics_run` measures each system's write path (extraction, fabrication, updates,
omissions) against the gold facts.
"""

from umb.attribute._attribute import attribute_question
from umb.attribute._evidence import FactChecker, QuestionInputs
from umb.attribute._facts import Need, build_needs
from umb.attribute._faults import FAULT_KINDS, Fault
from umb.attribute._faults_run import FaultReport, run_fault_injection
from umb.attribute._llm import LLMFactChecker
from umb.attribute._memory_metrics_run import (
    MEMORY_METRICS,
    MemoryMetricsRun,
    memory_metrics_run,
    read_memory_metrics,
)
from umb.attribute._run import (
    ATTRIBUTION_SUMMARY,
    ATTRIBUTIONS,
    AttributionRun,
    attribute_run,
    read_attributions,
)
from umb.attribute._types import ERROR_TYPES, Attribution

__all__ = [
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
    "memory_metrics_run",
    "read_attributions",
    "read_memory_metrics",
    "run_fault_injection",
]
