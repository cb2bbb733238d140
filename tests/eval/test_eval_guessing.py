"""Guesses that know nothing of the history earn nothing on TR order and MA controls."""

from __future__ import annotations

from _eval_cases import MA_FALSE, MA_TRUE, TR_ORDER, with_answer

from umb.scoring import get_scorer


def _score(q, answer):  # type: ignore[no-untyped-def]
    return get_scorer(q.family)(q, answer).value


def test_same_day_order_needs_the_day_as_well_as_the_word() -> None:
    assert _score(TR_ORDER, with_answer(TR_ORDER)) == 1.0
    guess = with_answer(TR_ORDER, start_date="", end_date="")
    assert _score(TR_ORDER, guess) == 0.0
    assert _score(TR_ORDER, with_answer(TR_ORDER, start_date="2021-04-03")) == 0.0
    assert _score(TR_ORDER, with_answer(TR_ORDER, final_answer="after")) == 0.0


def test_true_premise_control_needs_the_final_answer() -> None:
    assert _score(MA_TRUE, with_answer(MA_TRUE)) == 1.0
    assert _score(MA_TRUE, with_answer(MA_TRUE, final_answer="not mentioned")) == 0.5
    assert _score(MA_TRUE, with_answer(MA_TRUE, premise_verdict="incorrect")) == 0.0


def test_false_premise_needs_true_value_and_final_answer() -> None:
    assert _score(MA_FALSE, with_answer(MA_FALSE)) == 1.0
    assert _score(MA_FALSE, with_answer(MA_FALSE, final_answer="unknown")) == 0.5
    no_value = with_answer(MA_FALSE, corrected_facts=[], final_answer="$1,100")
    assert _score(MA_FALSE, no_value) == 0.5
