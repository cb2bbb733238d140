"""The run: prompts, the resumable runner, the run directory and its traces, results."""

from __future__ import annotations

import typing

from umb._lazy import lazy_names as _lazy_names

if typing.TYPE_CHECKING:
    from umb.run._capture import RUN_LOG, capture_third_party
    from umb.run._config import (
        RunConfig,
        parse_granularity,
        parse_structured_output,
        parse_systems,
    )
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

# Names load on first use: the attribution worker reads the run's log and traces without
# loading the runner, the prompts and every scorer.
_LAZY: dict[str, str] = {
    "RUN_LOG": "umb.run._capture",
    "capture_third_party": "umb.run._capture",
    "RunConfig": "umb.run._config",
    "parse_granularity": "umb.run._config",
    "parse_structured_output": "umb.run._config",
    "parse_systems": "umb.run._config",
    "read_records": "umb.run._log",
    "FAMILY_INSTRUCTIONS": "umb.run._prompts",
    "PROMPT_VERSION": "umb.run._prompts",
    "SYSTEM_POLICY": "umb.run._prompts",
    "FamilyInstruction": "umb.run._prompts",
    "build_messages": "umb.run._prompts",
    "build_request": "umb.run._prompts",
    "family_instruction_text": "umb.run._prompts",
    "prompt_sha256": "umb.run._prompts",
    "ExecutorOptions": "umb.run._options",
    "ScoringOptions": "umb.run._options",
    "RunOutcome": "umb.run._runner",
    "arun_eval": "umb.run._runner",
    "run_eval": "umb.run._runner",
    "JudgeTemplates": "umb.run._score",
    "ScoreOutcome": "umb.run._score",
    "score_predictions": "umb.run._score",
    "trace_path": "umb.run._traces",
    "trace_paths": "umb.run._traces",
    "RunTraceView": "umb.run._traceview",
}

__getattr__, __dir__ = _lazy_names(__name__, _LAZY, globals())

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
