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
    from umb.run._log import HEADER, RECORDS, RESULTS, RecordKey, read_records, record_key
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
    from umb.run._ray_cluster import import_ray, ray_cluster
    from umb.run._record import answer_question
    from umb.run._results import add_to_results, aggregate_run, load_results, sort_records
    from umb.run._rundir import RunDirectory, RunHeader, read_header
    from umb.run._runner import RunOutcome, arun_eval, run_eval
    from umb.run._score import JudgeTemplates, ScoreOutcome, score_predictions
    from umb.run._traces import trace_path, trace_paths
    from umb.run._tracestream import CHUNK, summarize_trace
    from umb.run._traceview import RunTraceView

# Names load on first use: the attribution worker reads the run's log and traces without
# loading the runner, the prompts and every scorer.
_LAZY: dict[str, str] = {
    "CHUNK": "umb.run._tracestream",
    "HEADER": "umb.run._log",
    "RunDirectory": "umb.run._rundir",
    "RunHeader": "umb.run._rundir",
    "read_header": "umb.run._rundir",
    "RECORDS": "umb.run._log",
    "RESULTS": "umb.run._log",
    "RecordKey": "umb.run._log",
    "add_to_results": "umb.run._results",
    "aggregate_run": "umb.run._results",
    "answer_question": "umb.run._record",
    "import_ray": "umb.run._ray_cluster",
    "load_results": "umb.run._results",
    "ray_cluster": "umb.run._ray_cluster",
    "record_key": "umb.run._log",
    "sort_records": "umb.run._results",
    "summarize_trace": "umb.run._tracestream",
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
    "CHUNK",
    "HEADER",
    "RunDirectory",
    "RunHeader",
    "read_header",
    "RECORDS",
    "RESULTS",
    "RecordKey",
    "add_to_results",
    "aggregate_run",
    "answer_question",
    "import_ray",
    "load_results",
    "ray_cluster",
    "record_key",
    "sort_records",
    "summarize_trace",
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
