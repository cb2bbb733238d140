"""Scoring: answer parsing, normalising, rule scorers per family, the judge, peers' scorers by
name, and aggregation with confidence intervals."""

from umb.scoring._aggregate import AGGREGATE_VERSION, RECORD_KEYS, aggregate
from umb.scoring._family import SCORERS, score_parsed, score_replies, score_reply
from umb.scoring._judge import (
    JUDGE_PROMPT_SHA256,
    JUDGE_PROMPT_VERSION,
    JUDGED_FIELDS,
    Judge,
    JudgeOutcome,
)
from umb.scoring._native import native_breakdown
from umb.scoring._normalise import match_value, normalise_tokens
from umb.scoring._parsing import SOFT_DEFAULTS, ParseResult, Policy, parse_answer
from umb.scoring._peer import NATIVE_SCORER, PEER_SCORERS, answer_scorer_names, load_peer_scorer
from umb.scoring._record import RuleScorer, Score, get_scorer, rule_scorer

__all__ = [
    "AGGREGATE_VERSION",
    "JUDGED_FIELDS",
    "JUDGE_PROMPT_SHA256",
    "JUDGE_PROMPT_VERSION",
    "NATIVE_SCORER",
    "PEER_SCORERS",
    "RECORD_KEYS",
    "SCORERS",
    "SOFT_DEFAULTS",
    "Judge",
    "JudgeOutcome",
    "ParseResult",
    "Policy",
    "RuleScorer",
    "Score",
    "aggregate",
    "answer_scorer_names",
    "get_scorer",
    "load_peer_scorer",
    "match_value",
    "native_breakdown",
    "normalise_tokens",
    "parse_answer",
    "rule_scorer",
    "score_parsed",
    "score_replies",
    "score_reply",
]
