"""A question family is declared once: every per-family table reads the one registry."""

from __future__ import annotations

import pytest

from umb import ConfigError
from umb.families import (
    BINARY_FAMILIES,
    FAMILIES,
    FAMILY_REGISTRY,
    INTEGER,
    REQUIRED_FIELDS,
    Family,
    Field,
    register_family,
)
from umb.run import FAMILY_INSTRUCTIONS, family_instruction_text
from umb.scoring import SCORERS, rule_scorer

COUNT = Family(
    "CNT", "Counting",
    (Field("count", INTEGER, "integer: how many times"),),
    primary_field="count", scorer="cnt_exact", needs="ie_answer", binary=True,
    goal="Count how often something happened.", rules=("Give a whole number.",),
    example={"count": 3},
)  # fmt: skip
PROMPT = {"goal": COUNT.goal, "rules": COUNT.rules, "example": COUNT.example}


def test_the_builtins_are_registered_in_order() -> None:
    assert tuple(FAMILIES) == ("IE", "MSR", "ES", "TR", "KU", "MA", "ABS")
    assert set(BINARY_FAMILIES) == {"IE", "TR", "KU", "ABS"}
    assert set(FAMILY_INSTRUCTIONS) == set(FAMILIES)
    assert {code: SCORERS[code].name for code in FAMILIES} == {
        code: FAMILY_REGISTRY[code].scorer for code in FAMILIES
    }


def test_a_registered_family_shows_in_every_table() -> None:
    register_family(COUNT)
    try:
        assert "CNT" in FAMILIES and "CNT" in BINARY_FAMILIES
        assert REQUIRED_FIELDS["CNT"] == ("count",)
        assert FAMILY_INSTRUCTIONS["CNT"].fields == (("count", "integer: how many times"),)
        text = family_instruction_text("CNT")
        assert text.startswith("Task: Count how often") and '{"count": 3}' in text
        with pytest.raises(ConfigError, match="declares scorer 'cnt_exact'"):
            rule_scorer("CNT", name="other", version="1")
    finally:
        FAMILY_REGISTRY.remove("CNT")
    assert "CNT" not in FAMILIES and "CNT" not in REQUIRED_FIELDS


def test_a_family_names_fields_it_has() -> None:
    with pytest.raises(ConfigError, match="primary field 'answer'"):
        Family("X", "X", COUNT.fields, primary_field="answer", scorer="s", needs="n", **PROMPT)


def test_a_familys_prompt_example_has_its_fields() -> None:
    with pytest.raises(ConfigError, match=r"an example answer with its fields in order \(count\)"):
        Family("X", "X", COUNT.fields, primary_field="count", scorer="s", needs="n",
               goal="Count.", rules=(), example={"answer": "3"})  # fmt: skip
