from __future__ import annotations

import datetime as dt

import pytest

from umb._dates import is_recollection, mentioned_dates
from umb.memory import split_sentences
from umb.memory._rules import clean_sentence, is_informative, state_key, third_person
from umb.memory._text import light_stem


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("I just started a new job at Globex.", ("employer", False)),
        ("I got laid off last week.", ("employer", True)),
        ("I joined the chess club.", ("hobby", False)),
        ("My job is chef.", ("job_title", False)),
        ("I moved to Lyon in March.", ("residence", False)),
        ("Tom and I broke up.", ("partner", True)),
        ("I'm in a relationship now, not single anymore.", ("partner", False)),
        ("I adopted a beagle called Biscuit.", ("pet", False)),
        ("My dog Biscuit passed away.", ("pet", True)),
        ("My dog loves the park.", (None, False)),
        ("I sold my car to a neighbour.", ("car", True)),
        ("I no longer have a car.", ("car", True)),
        ("I took up pottery instead of knitting.", ("hobby", False)),
        ("I might move to Berlin.", (None, False)),
        ("I used to work at Initech.", (None, False)),
    ],
)
def test_state_keys(sentence: str, expected: tuple[str | None, bool]) -> None:
    assert state_key(sentence) == expected


def test_third_person_and_cleaning() -> None:
    assert third_person("I'm moving to Lyon with my sister.", "Maya") == (
        "Maya is moving to Lyon with Maya's sister."
    )
    assert third_person("I still work at Initech.", "Maya") == "Maya still works at Initech."
    assert third_person("We stayed 8 days.", "Maya") == "Maya: We stayed 8 days."
    assert clean_sentence("Honestly, oh, I adopted a dog.") == "I adopted a dog."


def test_informative_statements() -> None:
    assert is_informative("I adopted a beagle.")
    assert not is_informative("Do you have a dog?")
    assert not is_informative("That sounds lovely and relaxing.")  # not first person
    assert not is_informative("I'll keep you posted.")


def test_dates_and_recollections() -> None:
    today = dt.date(2025, 10, 30)
    assert mentioned_dates("I took up pottery on May 14th.", today) == [dt.date(2025, 5, 14)]
    assert mentioned_dates("On December 13th, 2022, I did.", today) == [dt.date(2022, 12, 13)]
    assert mentioned_dates("Four days ago I did.", today) == [dt.date(2025, 10, 26)]
    assert mentioned_dates("On December 1st I did.", today) == [dt.date(2024, 12, 1)]
    assert is_recollection("Ha, yes, I took up pottery on May 14th.", "", "2025-10-30T10:00")
    assert not is_recollection("Twenty days ago I took up pottery.", "", "2025-10-30T10:00")
    assert is_recollection(
        "I started dating Kenji.", "That was on January 9th, 2023.", "2025-10-30T10:00"
    )
    assert not is_recollection("I started dating Kenji.", "It was fun.", "2025-10-30T10:00")


def test_text_helpers() -> None:
    assert [light_stem(w) for w in ("works", "moved", "moving", "cities", "running")] == [
        "work", "mov", "mov", "city", "run",
    ]  # fmt: skip
    assert split_sentences("I saw Dr. Patel. Great!\nBye") == ["I saw Dr. Patel.", "Great!", "Bye"]
