"""A family's attribution needs come from the rule it names; a missing rule is an error."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest
from attribution_helpers import ie_question

from umb import ConfigError
from umb.attribute import NEEDS_RULES, Need, build_needs, needs_rule
from umb.bench import Fact, Question
from umb.families import FAMILY_REGISTRY, Family, Field, register_family

TEXT = {"type": "string"}


def test_every_registered_family_has_its_rule() -> None:
    for code, family in FAMILY_REGISTRY.items():
        assert needs_rule(code) is NEEDS_RULES[family.needs]


@pytest.fixture
def colour_family() -> Iterator[str]:
    """A family "CO" (favourite colour) naming the rule ``co_colour``, registered for a test."""
    register_family(
        Family("CO", "Colour", (Field("answer", TEXT, "string: the colour"),),
               primary_field="answer", scorer="ie_value_match", needs="co_colour",
               goal="Name a favourite colour.", rules=(), example={"answer": "teal"})
    )  # fmt: skip
    yield "CO"
    FAMILY_REGISTRY.remove("CO")


def test_a_family_whose_rule_is_missing_is_refused_by_name(colour_family: str) -> None:
    question = ie_question(family=colour_family, gold={"answer": "teal"})
    with pytest.raises(ConfigError, match=r"family 'CO' names the attribution needs rule "
                       r"'co_colour', which is not registered"):  # fmt: skip
        build_needs(question)


def test_a_registered_rule_gives_the_familys_needs(colour_family: str) -> None:
    def colour(question: Question, facts: Mapping[str, Fact]) -> list[Need]:
        return [Need("colour", (str(question.gold["answer"]),), (), question.evidence.turn_ids)]

    NEEDS_RULES.add("co_colour", colour)
    try:
        (need,) = build_needs(ie_question(family=colour_family, gold={"answer": "teal"}))
    finally:
        NEEDS_RULES.remove("co_colour")
    assert need.label == "colour" and need.values == ("teal",)
    assert need.turn_ids == ("D0001:S001:T0002",)


def test_an_unknown_family_is_refused() -> None:
    with pytest.raises(ConfigError, match="unknown question family 'ZZ'"):
        build_needs(ie_question(family="ZZ"))
