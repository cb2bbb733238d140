"""Resolving the time expressions of one sentence against the date it was said on.

Used by the offline reader only. It understands the common English forms ("yesterday", "three
weeks ago", "last Tuesday", "on March 3rd", ISO dates, "at 2:05 pm"); anything else leaves the
event on the day the sentence was said.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta
from typing import Final

_WEEKDAYS: Final = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS: Final = {m.lower(): i for i, m in enumerate(calendar.month_name) if m} | {
    m.lower(): i for i, m in enumerate(calendar.month_abbr) if m
}
_COUNTS: Final = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "a couple of": 2, "a few": 3,
}  # fmt: skip
_COUNT_RE: Final = (
    r"(\d{1,3}|a couple of|a few|"
    + "|".join(sorted((k for k in _COUNTS if " " not in k), key=len, reverse=True))
    + ")"
)
_MONTH_RE: Final = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\b\.?"
_WEEKDAY_RE: Final = "(" + "|".join(_WEEKDAYS) + ")"

# Alternatives tried at every position; the leftmost expression in the sentence wins.
_EXPRESSIONS: Final = re.compile(
    "|".join(
        [
            r"(?P<iso>\b(\d{4})-(\d{2})-(\d{2})\b)",
            rf"(?P<md>\b{_MONTH_RE}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(\d{{4}})\b)?)",
            rf"(?P<dm>\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_RE}(?:,?\s+(\d{{4}})\b)?)",
            r"(?P<dbl>\bthe day before yesterday\b)",
            r"(?P<yest>\byesterday\b)",
            r"(?P<tomorrow>\btomorrow\b)",
            r"(?P<today>\b(?:earlier today|today|this morning|this afternoon|this evening"
            r"|tonight)\b)",
            rf"(?P<ago>\b{_COUNT_RE}\s+(day|week|month|year)s?\s+ago\b)",
            rf"(?P<in>\bin\s+{_COUNT_RE}\s+(day|week|month|year)s?\b)",
            rf"(?P<lastwd>\blast\s+{_WEEKDAY_RE}\b)",
            rf"(?P<nextwd>\bnext\s+{_WEEKDAY_RE}\b)",
            rf"(?P<onwd>\b(?:on|this)\s+{_WEEKDAY_RE}\b)",
            r"(?P<lastunit>\blast\s+(week|month|year)\b)",
        ]
    ),
    re.IGNORECASE,
)
_CLOCK: Final = re.compile(
    r"\b(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?(?![a-z])|\b([01]?\d|2[0-3]):([0-5]\d)\b",
    re.IGNORECASE,
)


def _shift_months(day: date, months: int) -> date:
    total = day.year * 12 + (day.month - 1) + months
    year, month = divmod(total, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return date(year, month + 1, min(day.day, last))


def _count(word: str) -> int:
    w = word.lower()
    return int(w) if w.isdigit() else _COUNTS[w]


def _shift(day: date, n: int, unit: str) -> date:
    unit = unit.lower()
    if unit == "day":
        return day + timedelta(days=n)
    if unit == "week":
        return day + timedelta(weeks=n)
    return _shift_months(day, n * (12 if unit == "year" else 1))


def _calendar_day(said_on: date, month: int, day: int, year: str | None) -> date | None:
    try:
        if year:
            return date(int(year), month, day)
        found = date(said_on.year, month, day)
    except ValueError:
        return None
    # A date without a year that lies ahead was most likely last year's.
    return found if found <= said_on else date(said_on.year - 1, month, day)


def resolve_date(sentence: str, said_on: date) -> tuple[date, str | None]:
    """The day a sentence's event happened, and the expression that said so.

    Args:
        sentence: The sentence.
        said_on: The date of the session (or memory unit) the sentence belongs to.

    Returns:
        ``(day, expression)``; ``(said_on, None)`` when the sentence has no time expression.
    """
    for m in _EXPRESSIONS.finditer(sentence):
        kind = m.lastgroup
        g = [x for x in m.groups() if x is not None][1:]  # this alternative's inner groups
        found: date | None = None
        try:
            if kind == "iso":
                found = date(int(g[0]), int(g[1]), int(g[2]))
            elif kind == "md":
                found = _calendar_day(said_on, _MONTHS[g[0].lower()], int(g[1]), _opt(g, 2))
            elif kind == "dm":
                found = _calendar_day(said_on, _MONTHS[g[1].lower()], int(g[0]), _opt(g, 2))
            elif kind == "dbl":
                found = said_on - timedelta(days=2)
            elif kind == "yest":
                found = said_on - timedelta(days=1)
            elif kind == "tomorrow":
                found = said_on + timedelta(days=1)
            elif kind == "today":
                found = said_on
            elif kind == "ago":
                found = _shift(said_on, -_count(g[0]), g[1])
            elif kind == "in":
                found = _shift(said_on, _count(g[0]), g[1])
            elif kind in ("lastwd", "onwd", "nextwd"):
                wd = _WEEKDAYS.index(g[0].lower())
                back = (said_on.weekday() - wd) % 7
                if kind == "lastwd":
                    found = said_on - timedelta(days=back or 7)
                elif kind == "onwd":
                    found = said_on - timedelta(days=back)
                else:
                    found = said_on + timedelta(days=(wd - said_on.weekday()) % 7 or 7)
            elif kind == "lastunit":
                found = _shift(said_on, -1, g[0])
        except (ValueError, OverflowError):
            found = None
        if found is not None:
            return found, m.group(0)
    return said_on, None


def has_time_expression(sentence: str) -> bool:
    """Whether ``sentence`` names a day in a way :func:`resolve_date` understands."""
    return _EXPRESSIONS.search(sentence) is not None


def _opt(groups: list[str], i: int) -> str | None:
    return groups[i] if i < len(groups) else None


def clock_minutes(sentence: str) -> int | None:
    """Minutes after midnight of the first clock time in ``sentence`` ("2:05 pm", "14:05")."""
    m = _CLOCK.search(sentence)
    if not m:
        return None
    if m.group(4) is not None:
        return int(m.group(4)) * 60 + int(m.group(5))
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    if not 1 <= hour <= 12:
        return None
    hour = hour % 12 + (12 if m.group(3).lower() == "p" else 0)
    return hour * 60 + minute
