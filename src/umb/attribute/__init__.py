"""Root-cause attribution of failed questions, and fault injection that checks it.

:func:`attribute_run` gives each failed question of a run its error type and decisive faulty
operation, from the run's traces and the benchmark's gold evidence;
:func:`run_fault_injection` checks it against faults injected for real.
"""

from umb.attribute._attribute import attribute_question
from umb.attribute._evidence import FactChecker, QuestionInputs
from umb.attribute._facts import Need, build_needs
from umb.attribute._faults import FAULT_KINDS, Fault
from umb.attribute._faults_run import FaultReport, run_fault_injection
from umb.attribute._llm import LLMFactChecker
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
    "Need",
    "QuestionInputs",
    "attribute_question",
    "attribute_run",
    "build_needs",
    "read_attributions",
    "run_fault_injection",
]
