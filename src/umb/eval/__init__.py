"""Evaluation: prompts, answer parsing, rule scoring, the optional judge and aggregation."""

from umb.eval._aggregate import AGGREGATE_VERSION, RECORD_KEYS, aggregate
from umb.eval._judge import (
    JUDGE_PROMPT_SHA256,
    JUDGE_PROMPT_VERSION,
    JUDGED_FIELDS,
    Judge,
    JudgeOutcome,
)
from umb.eval._native import native_breakdown
from umb.eval._normalise import match_value, normalise_tokens
from umb.eval._parsing import SOFT_DEFAULTS, ParseResult, Policy, parse_answer
from umb.eval._peer import NATIVE_SCORER, answer_scorer_names
from umb.eval._prompts import (
    FAMILY_INSTRUCTIONS,
    PROMPT_VERSION,
    SYSTEM_POLICY,
    FamilyInstruction,
    build_messages,
    build_request,
    family_instruction_text,
    prompt_sha256,
)
from umb.eval._runconfig import RunConfig
from umb.eval._runlog import read_records
from umb.eval._runner import RunOutcome, arun_eval, run_eval
from umb.eval._runtrace import trace_path, trace_paths
from umb.eval._score import RuleScorer, Score, get_scorer, rule_scorer
from umb.eval._scoring import SCORERS, score_parsed, score_replies, score_reply

__all__ = [
    "AGGREGATE_VERSION",
    "FAMILY_INSTRUCTIONS",
    "JUDGED_FIELDS",
    "JUDGE_PROMPT_SHA256",
    "JUDGE_PROMPT_VERSION",
    "NATIVE_SCORER",
    "PROMPT_VERSION",
    "RECORD_KEYS",
    "SCORERS",
    "SOFT_DEFAULTS",
    "SYSTEM_POLICY",
    "FamilyInstruction",
    "Judge",
    "JudgeOutcome",
    "ParseResult",
    "Policy",
    "RuleScorer",
    "RunConfig",
    "RunOutcome",
    "Score",
    "aggregate",
    "answer_scorer_names",
    "arun_eval",
    "build_messages",
    "build_request",
    "family_instruction_text",
    "get_scorer",
    "match_value",
    "native_breakdown",
    "normalise_tokens",
    "parse_answer",
    "prompt_sha256",
    "read_records",
    "rule_scorer",
    "run_eval",
    "score_parsed",
    "score_replies",
    "score_reply",
    "trace_path",
    "trace_paths",
]
