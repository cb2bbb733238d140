"""LoCoMo's official QA F1 and RAG recall (``task_eval/evaluation.py`` semantics).

Rules (specs/peer-benchmarks.md §1.7): normalise (drop commas, lower-case, drop ASCII
punctuation, blank out the words a/an/the/and, collapse spaces), Porter-stem, multiset overlap
F1. Category 1 splits prediction and gold on commas and averages, over gold parts, the best F1
against any prediction part; category 3 cuts the gold at its first ``;``; category 5 scores 1
iff the lower-cased prediction contains ``no information available`` or ``not mentioned``.

The article pattern runs on the third-party ``regex`` module, as the authors' does: its ``\b``
treats combining marks and superscripts as word characters where ``re`` does not ("the² dog").
"""

from __future__ import annotations

import string
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import regex

from umb.bench import Question
from umb.interop._common import native_answer_text
from umb.interop._scorer_base import locomo_category, mean, record, scores_by_category
from umb.interop.locomo._spec import CATEGORIES

_PUNCT = set(string.punctuation)
_ARTICLES = regex.compile(r"\b(a|an|the|and)\b")
ADVERSARIAL_KEYS = ("no information available", "not mentioned")


@lru_cache(maxsize=1)
def _stemmer() -> Callable[[str], str]:
    # Imported here: nltk takes ~0.4 s to import and only the peer scorers need it.
    from nltk.stem.porter import PorterStemmer

    return lru_cache(maxsize=65536)(PorterStemmer().stem)


def normalize_answer(text: str) -> str:
    """LoCoMo's answer normalisation, step for step."""
    text = text.replace(",", "").lower()
    text = "".join(ch for ch in text if ch not in _PUNCT)
    return " ".join(_ARTICLES.sub(" ", text).split())


def token_f1(prediction: str, gold: str) -> float:
    """Stemmed multiset token F1 of LoCoMo (``f1_score``)."""
    stem = _stemmer()
    pred = [stem(w) for w in normalize_answer(prediction).split()]
    ref = [stem(w) for w in normalize_answer(gold).split()]
    same = sum((Counter(pred) & Counter(ref)).values())
    if same == 0:
        return 0.0
    p, r = same / len(pred), same / len(ref)
    return 2 * p * r / (p + r)


def multi_answer_f1(prediction: str, gold: str) -> float:
    """Category 1: mean over comma-separated gold parts of the best F1 over prediction parts."""
    preds = [p.strip() for p in prediction.split(",")]
    golds = [g.strip() for g in gold.split(",")]
    return sum(max(token_f1(p, g) for p in preds) for g in golds) / len(golds)


def adversarial_score(prediction: str) -> float:
    """Category 5: 1 iff the prediction says the information is not there."""
    low = prediction.lower()
    return 1.0 if any(k in low for k in ADVERSARIAL_KEYS) else 0.0


def locomo_f1(prediction: str, gold: str, category: int) -> tuple[float, str]:
    """The official per-item score and the rule that produced it."""
    if category == 5:
        return adversarial_score(prediction), "adversarial_keyword"
    if category == 1:
        return multi_answer_f1(prediction, gold), "multi_answer_f1"
    if category == 3:
        return token_f1(prediction, gold.split(";")[0].strip()), "token_f1_before_semicolon"
    return token_f1(prediction, gold), "token_f1"


class LoCoMoF1:
    """LoCoMo's official QA score; aggregates like its stats (micro over all categories)."""

    name = "locomo_f1"
    description = "LoCoMo's own token F1 per category."
    version = "2"
    """2: the article pattern uses the ``regex`` module as the authors' code does (1: ``re``)."""
    higher_is_better = True

    def score(self, question: Question, prediction_text: str) -> dict[str, Any]:
        cat = locomo_category(question)
        value, rule = locomo_f1(str(prediction_text), native_answer_text(question), cat)
        info = CATEGORIES[cat]
        return record(
            self,
            question,
            value,
            category=cat,
            category_name=info.name,
            mem0_paper_label=info.mem0_paper_label,
            family=question.family,
            rule=rule,
        )

    def score_many(
        self, questions: Sequence[Question], predictions: Sequence[str]
    ) -> list[dict[str, Any]]:
        return [self.score(q, p) for q, p in zip(questions, predictions, strict=True)]

    def aggregate(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Per-category means, the micro overall (all items) and the micro over categories 1-4."""
        by_cat = scores_by_category(records)
        every = [v for vs in by_cat.values() for v in vs]
        non_adv = [v for c, vs in by_cat.items() if c != 5 for v in vs]
        per_cat = {
            str(c): {"name": CATEGORIES[c].name, "n": len(vs), "mean": mean(vs)}
            for c, vs in sorted(by_cat.items())
        }
        cat_means = [m for vs in by_cat.values() if (m := mean(vs)) is not None]
        return {
            "scorer": self.name,
            "scorer_version": self.version,
            "per_category": per_cat,
            "n": len(every),
            "overall_micro": mean(every),
            "n_non_adversarial": len(non_adv),
            "overall_micro_non_adversarial": mean(non_adv),
            "category_mean": mean(cat_means),
        }


class LoCoMoRecall:
    """LoCoMo's RAG recall: the share of a question's evidence ids among the retrieved ids.

    ``native`` evidence (default) is the raw list as released, as the official code reads it
    (a malformed entry such as ``"D8:6; D9:17"`` never matches); ``repaired`` uses the
    importer's resolved turn ids. Ids starting with ``S`` are session summaries and match at
    session level. A question without evidence scores 1 per item, as ``eval_question_answering``
    records it, but adds 0 to the averages, as the authors' ``analyze_acc`` (rag mode) sums
    recall only over questions with evidence and divides by every question.
    """

    name = "locomo_recall"
    description = (
        "LoCoMo's RAG recall: the share of a question's evidence among the retrieved turns."
    )
    version = "2"
    """2: questions without evidence count 0 in the averages (1: they counted 1)."""

    def score_ranking(
        self,
        question: Question,
        ranked_ids: Sequence[str],
        *,
        ks: Sequence[int] = (5, 10, 25, 50),
        evidence: str = "native",
    ) -> dict[str, Any]:
        gold = self._evidence(question, evidence)
        ids = [self._native(question, i) for i in ranked_ids]
        metrics = {f"recall@{k}": _recall(gold, ids[:k]) for k in ks}
        metrics["recall"] = _recall(gold, ids)
        out = record(
            self,
            question,
            metrics["recall"],
            evidence_mode=evidence,
            category=locomo_category(question),
            has_evidence=bool(gold),
        )
        out.update(metrics)
        return out

    def aggregate(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Means over every record, per category and overall; no evidence adds 0 (see above)."""
        keys = [k for k in (records[0] if records else {}) if k.startswith("recall")]

        def summed(rows: Sequence[dict[str, Any]], key: str) -> float | None:
            values = [float(r[key]) if r.get("has_evidence", True) else 0.0 for r in rows]
            return mean(values)

        by_cat: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for r in records:
            by_cat[int(r.get("category") or 0)].append(r)
        return {
            "scorer": self.name,
            "scorer_version": self.version,
            "n": len(records),
            "n_without_evidence": sum(1 for r in records if not r.get("has_evidence", True)),
            **{k: summed(records, k) for k in keys},
            "per_category": {
                str(c): {"n": len(rows), **{k: summed(rows, k) for k in keys}}
                for c, rows in sorted(by_cat.items())
            },
        }

    @staticmethod
    def _native(question: Question, rid: str) -> str:
        prefix = f"{question.dialogue_id}:"
        return rid[len(prefix) :] if rid.startswith(prefix) else rid

    def _evidence(self, question: Question, mode: str) -> list[str]:
        raw = question.meta.get("native_evidence")
        if mode == "native" and isinstance(raw, list):
            return [str(e) for e in raw]
        return [self._native(question, t) for t in question.evidence.turn_ids]


def _recall(evidence: list[str], retrieved: list[str]) -> float:
    if not evidence:
        return 1.0
    if retrieved and retrieved[0].startswith("S"):
        sessions = {r[1:] for r in retrieved}
        return sum(e.split(":")[0][1:] in sessions for e in evidence) / len(evidence)
    got = set(retrieved)
    return sum(e in got for e in evidence) / len(evidence)
