"""Scoring: answer parsing, normalising, rule scorers per family, the judge, peers' scorers by
name, and aggregation with confidence intervals.

Every scorer, rule, judge or peer metric, is a :class:`Scorer`: ``build_scorer(name)`` gives
one, ``await scorer.score_many(predictions)`` returns a :class:`Score` per
:class:`Prediction`, and ``scorer.aggregate(scores)`` summarises them its authors' way.
"""

from __future__ import annotations

import typing

from umb._lazy import lazy_names as _lazy_names

if typing.TYPE_CHECKING:
    from umb.scoring._adapters import PeerScoring, RetrievalScoring, build_scorer
    from umb.scoring._aggregate import AGGREGATE_VERSION, RECORD_KEYS, aggregate, bootstrap_ratio_ci
    from umb.scoring._family import SCORERS, score_parsed, score_replies, score_reply
    from umb.scoring._judge import (
        JUDGE_PROMPT_SHA256,
        JUDGE_PROMPT_VERSION,
        JUDGED_FIELDS,
        Judge,
        JudgeOutcome,
    )
    from umb.scoring._native import enrich_groups, native_breakdown
    from umb.scoring._normalise import (
        as_int,
        as_text,
        as_text_list,
        contains_value,
        match_value,
        normalise_tokens,
    )
    from umb.scoring._parsing import (
        SOFT_DEFAULTS,
        ParseResult,
        Policy,
        balanced_end,
        parse_answer,
        strip_code_fence,
    )
    from umb.scoring._peer import (
        JUDGE_SCORERS,
        NATIVE_SCORER,
        PEER_SCORERS,
        PeerAnswerMetric,
        PeerRetrievalMetric,
        answer_scorer_names,
        check_scorer,
        load_peer_scorer,
        peer_scorer_header,
        retrieval_scorer_names,
    )
    from umb.scoring._record import RuleScorer, Score, get_scorer, rule_scorer
    from umb.scoring._retrieval import retrieval_record
    from umb.scoring._scorer import Prediction, RuleScoring, Scorer

# Names load on first use: the runner and the attribution worker need a scorer or the text
# normalising, not every peer metric and numpy.
_LAZY: dict[str, str] = {
    "JUDGE_SCORERS": "umb.scoring._peer",
    "as_int": "umb.scoring._normalise",
    "as_text": "umb.scoring._normalise",
    "as_text_list": "umb.scoring._normalise",
    "balanced_end": "umb.scoring._parsing",
    "bootstrap_ratio_ci": "umb.scoring._aggregate",
    "check_scorer": "umb.scoring._peer",
    "contains_value": "umb.scoring._normalise",
    "enrich_groups": "umb.scoring._native",
    "peer_scorer_header": "umb.scoring._peer",
    "retrieval_record": "umb.scoring._retrieval",
    "strip_code_fence": "umb.scoring._parsing",
    "PeerScoring": "umb.scoring._adapters",
    "RetrievalScoring": "umb.scoring._adapters",
    "build_scorer": "umb.scoring._adapters",
    "AGGREGATE_VERSION": "umb.scoring._aggregate",
    "RECORD_KEYS": "umb.scoring._aggregate",
    "aggregate": "umb.scoring._aggregate",
    "SCORERS": "umb.scoring._family",
    "score_parsed": "umb.scoring._family",
    "score_replies": "umb.scoring._family",
    "score_reply": "umb.scoring._family",
    "JUDGED_FIELDS": "umb.scoring._judge",
    "JUDGE_PROMPT_SHA256": "umb.scoring._judge",
    "JUDGE_PROMPT_VERSION": "umb.scoring._judge",
    "Judge": "umb.scoring._judge",
    "JudgeOutcome": "umb.scoring._judge",
    "native_breakdown": "umb.scoring._native",
    "match_value": "umb.scoring._normalise",
    "normalise_tokens": "umb.scoring._normalise",
    "ParseResult": "umb.scoring._parsing",
    "Policy": "umb.scoring._parsing",
    "SOFT_DEFAULTS": "umb.scoring._parsing",
    "parse_answer": "umb.scoring._parsing",
    "NATIVE_SCORER": "umb.scoring._peer",
    "PEER_SCORERS": "umb.scoring._peer",
    "PeerAnswerMetric": "umb.scoring._peer",
    "PeerRetrievalMetric": "umb.scoring._peer",
    "answer_scorer_names": "umb.scoring._peer",
    "load_peer_scorer": "umb.scoring._peer",
    "retrieval_scorer_names": "umb.scoring._peer",
    "RuleScorer": "umb.scoring._record",
    "Score": "umb.scoring._record",
    "get_scorer": "umb.scoring._record",
    "rule_scorer": "umb.scoring._record",
    "Prediction": "umb.scoring._scorer",
    "RuleScoring": "umb.scoring._scorer",
    "Scorer": "umb.scoring._scorer",
}
__getattr__, __dir__ = _lazy_names(__name__, _LAZY, globals())

__all__ = [
    "JUDGE_SCORERS",
    "as_int",
    "as_text",
    "as_text_list",
    "balanced_end",
    "bootstrap_ratio_ci",
    "check_scorer",
    "contains_value",
    "enrich_groups",
    "peer_scorer_header",
    "retrieval_record",
    "strip_code_fence",
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
