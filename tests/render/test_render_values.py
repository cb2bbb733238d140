"""Exact value and date matching: the written forms the audit accepts, and what it refuses."""

from __future__ import annotations

from datetime import date

import pytest

from umb.render._dates import DayMatcher, mentions_clock
from umb.render._values import ValueMatcher, normalise


@pytest.mark.parametrize(
    ("value", "attribute", "text", "expected"),
    [
        ("$1,470", "price", "It came to $1,470 in the end.", "exact"),
        ("$1,470", "price", "about 1470 dollars", "exact"),
        ("$1,470", "price", "it was $21,470", None),
        ("$1,470", "price", "it was $1,4700", None),
        ("1660 km", "distance", "1,660 kilometres all told", "exact"),
        ("93 percent", "grade", "I got 93%!", "exact"),
        ("93 percent", "grade", "I got 93 per cent", "exact"),
        ("8 days", "duration", "an 8-day trip", "exact"),
        ("8 days", "duration", "eight days away", "exact"),
        ("8 days", "duration", "18 days away", None),
        ("4:04 hours", "finish_time", "four hours and four minutes", "exact"),
        ("4:04 hours", "finish_time", "I did it in 4:04", "exact"),
        ("0:27 hours", "finish_time", "27 minutes flat", "exact"),
        ("2350", "attendees", "about 2,350 people", "exact"),
        ("75", "guests", "seventy-five guests", "exact"),
        ("Dr. Haddad", "doctor", "I saw Dr Haddad", "exact"),
        ("St. Mary's Hospital", "clinic", "at St Mary\u2019s hospital", "exact"),
        ("a yellow Ford Puma", "car", "my yellow Ford Puma", "exact"),
        ("a Maine Coon cat named Pixel", "pet", "Pixel, my Maine Coon cat", "exact"),
        ("a Maine Coon cat named Pixel", "pet", "Pixel, my Maine Coon", "partial"),
        ("Liam Petrov", "partner", "Liam and I went out", "partial"),
        ("Liam Petrov", "partner", "Liam Petrov and I went out", "exact"),
        ("neighbour", "relation", "we are neighbors", "exact"),
        ("lop-eared", "breed", "a lop eared rabbit", "exact"),
        ("none", "pet", "I don't have any pets", "exact"),
        ("none", "pet", "Pets: none for now.", "exact"),
        ("none", "car", "I love my car", None),
        ("Velvet Harbor", "band", "a band I like", None),
    ],
)
def test_value_forms(value: str, attribute: str, text: str, expected: str | None) -> None:
    assert ValueMatcher(value, attribute).match(normalise(text)) == expected


def test_speaker_names_count_as_present() -> None:
    matcher = ValueMatcher("Greta Becker and Anton Garcia", "with", ("Greta Becker", "Greta"))
    assert matcher.match(normalise("I went with Anton Garcia")) == "exact"


def test_leaks_need_distinctive_values_and_capitals() -> None:
    assert ValueMatcher("Kyoto", "destination").leaks("i loved kyoto", "I loved Kyoto")
    assert not ValueMatcher("Apple", "brand").leaks("an apple pie", "an apple pie")
    assert not ValueMatcher("yoga", "hobby").leaks("yoga", "yoga")  # too common to tell
    assert not ValueMatcher("8", "sessions").leaks("8 things", "8 things")
    assert ValueMatcher("$2,665", "cost").leaks("2665 dollars", "2665 dollars")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("eight days ago", True),
        ("8 days ago", True),
        ("on March 12th", True),
        ("12 March 2021", True),
        ("the 12th of March", True),
        ("Mar. 12", True),
        ("2021-03-12", True),
        ("3/12", True),
        ("12/03/2021", True),
        ("last Friday", False),  # eight days back: "last Friday" would be March 19th
        ("March 12, 2020", False),
        ("March 1", False),
        ("nine days ago", False),
    ],
)
def test_day_forms(text: str, expected: bool) -> None:
    matcher = DayMatcher(date(2021, 3, 12), date(2021, 3, 20))
    assert matcher.mentions(normalise(text)) is expected


def test_day_without_year_needs_the_latest_occurrence() -> None:
    # Said on 5 January 2021, "December 28th" is 28 December 2020, not 2019.
    assert DayMatcher(date(2020, 12, 28), date(2021, 1, 5)).mentions("on december 28th")
    assert not DayMatcher(date(2019, 12, 28), date(2021, 1, 5)).mentions("on december 28th")
    assert DayMatcher(date(2019, 12, 28), date(2021, 1, 5)).mentions("december 28th, 2019")


def test_relative_days() -> None:
    session = date(2021, 3, 20)  # a Saturday
    assert DayMatcher(session, session).mentions("earlier today")
    assert DayMatcher(date(2021, 3, 19), session).mentions("yesterday")
    assert DayMatcher(date(2021, 3, 16), session).mentions("last tuesday")
    assert DayMatcher(date(2021, 3, 13), session).mentions("a week ago today")
    assert DayMatcher(date(2021, 3, 6), session).mentions("exactly two weeks ago")
    assert not DayMatcher(date(2021, 3, 6), session).mentions("last saturday")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("at 2:05 pm", True), ("14:05", True), ("2:05", True), ("2:05 am", False), ("2 pm", False)],
)
def test_clock_forms(text: str, expected: bool) -> None:
    assert mentions_clock(normalise(text), "14:05") is expected
