"""Scoring: answer parsing, normalising, rule scorers per family, the judge, peers' scorers by
name, and aggregation with confidence intervals.

Every scorer, rule, judge or peer metric, is a :class:`Scorer`: ``build_scorer(name)`` gives
one, ``await scorer.score_many(predictions)`` returns a :class:`Score` per
:class:`Prediction`, and ``scorer.aggregate(scores)`` summarises them its authors' way.
"""

from umb.scoring._adapters import PeerScoring, RetrievalScoring, build_scorer
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
from umb.scoring._peer import (
    NATIVE_SCORER,
    PEER_SCORERS,
    PeerAnswerMetric,
    PeerRetrievalMetric,
    answer_scorer_names,
    load_peer_scorer,
    retrieval_scorer_names,
)
from umb.scoring._record import RuleScorer, Score, get_scorer, rule_scorer
from umb.scoring._scorer import Prediction, RuleScoring, Scorer

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
    "PeerAnswerMetric",
    "PeerRetrievalMetric",
    "PeerScoring",
    "Policy",
    "Prediction",
    "RetrievalScoring",
    "RuleScorer",
    "RuleScoring",
    "Score",
    "Scorer",
    "aggregate",
    "answer_scorer_names",
    "build_scorer",
    "get_scorer",
    "load_peer_scorer",
    "match_value",
    "native_breakdown",
    "normalise_tokens",
    "parse_answer",
    "retrieval_scorer_names",
    "rule_scorer",
    "score_parsed",
    "score_replies",
    "score_reply",
]
