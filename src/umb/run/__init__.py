"""The run: prompts, the resumable runner, the run directory and its traces, results."""

from umb.run._capture import RUN_LOG, capture_third_party
from umb.run._config import RunConfig, parse_granularity, parse_structured_output, parse_systems
from umb.run._log import read_records
from umb.run._options import ExecutorOptions, ScoringOptions
from umb.run._prompts import (
    FAMILY_INSTRUCTIONS,
    PROMPT_VERSION,
    SYSTEM_POLICY,
    FamilyInstruction,
    build_messages,
    build_request,
    family_instruction_text,
    prompt_sha256,
)
from umb.run._runner import RunOutcome, arun_eval, run_eval
from umb.run._score import JudgeTemplates, ScoreOutcome, score_predictions
from umb.run._traces import trace_path, trace_paths
from umb.run._traceview import RunTraceView

__all__ = [
    "FAMILY_INSTRUCTIONS",
    "PROMPT_VERSION",
    "RUN_LOG",
    "SYSTEM_POLICY",
    "ExecutorOptions",
    "FamilyInstruction",
    "JudgeTemplates",
    "RunConfig",
    "RunOutcome",
    "RunTraceView",
    "ScoringOptions",
    "ScoreOutcome",
    "arun_eval",
    "build_messages",
    "build_request",
    "capture_third_party",
    "family_instruction_text",
    "parse_granularity",
    "parse_structured_output",
    "parse_systems",
    "prompt_sha256",
    "read_records",
    "run_eval",
    "score_predictions",
    "trace_path",
    "trace_paths",
]
