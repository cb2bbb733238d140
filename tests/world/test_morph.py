"""The morphology layer: articles, plurals, base forms, gerunds."""

from __future__ import annotations

import pytest

from umb.world import article, base_phrase, definite, gerund, plural, second_person


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [("orange bike", "an orange bike"), ("UX design", "a UX design"), ("hour", "an hour"),
     ("user guide", "a user guide"), ("MBA", "an MBA"), ("red car", "a red car")],
)  # fmt: skip
def test_article(phrase: str, expected: str) -> None:
    assert article(phrase) == expected


@pytest.mark.parametrize(
    ("past", "base"),
    [("had a health check-up at Riverside Clinic", "have a health check-up at Riverside Clinic"),
     ("was promoted to team lead", "get promoted to team lead"),
     ("travelled to Kyoto", "travel to Kyoto"), ("bought a blue bike", "buy a blue bike"),
     ("enrolled in a Spanish course", "enrol in a Spanish course"),
     ("test-drove a Kia", "test-drive a Kia"), ("hiked up", "hike up"),
     ("moved from Oslo to Lyon", "move from Oslo to Lyon"), ("got engaged", "get engaged")],
)  # fmt: skip
def test_base_phrase(past: str, base: str) -> None:
    assert base_phrase(past) == base


def test_small_forms() -> None:
    assert plural("friend") == "friends" and plural("box") == "boxes"
    assert plural("party") == "parties"
    assert definite("a red Ford Focus") == "the red Ford Focus"
    assert gerund("chess") == "playing chess" and gerund("rock climbing") == "rock climbing"
    assert gerund("yoga") == "doing yoga"
    assert second_person("was promoted") == "were promoted"
