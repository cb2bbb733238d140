"""Dates and time expressions: the one place umb reads and writes them.

- the vocabulary (month and weekday names, count words) every reader and writer shares;
- :func:`resolve_date` / :func:`clock_minutes`: the day and time a sentence's expression names,
  said on a given day ("yesterday", "three weeks ago", "last Tuesday", "on March 3rd", ISO dates,
  "at 2:05 pm"; the offline reader's reading);
- :func:`mentioned_dates` / :func:`is_recollection`: whether a sentence retells an old event
  (the rule-based memory extractor must not let a retold change overwrite a newer one);
- the peers' timestamp spellings (LoCoMo, LongMemEval) to and from umb's ``YYYY-MM-DDTHH:MM``,
  parsed by hand rather than with ``strptime`` because ``%B`` and ``%p`` follow the process
  locale, and a benchmark must not import differently on a German machine.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta
from typing import Final

MONTHS: Final = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
"""English month names, spelled out here because :mod:`calendar`'s follow the process locale."""
WEEKDAYS: Final = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTH_NUMBERS: Final = {m.lower(): i for i, m in enumerate(MONTHS, start=1)} | {
    m[:3].lower(): i for i, m in enumerate(MONTHS, start=1)
}
"""Lower-case month name or three-letter abbreviation -> 1..12."""
COUNT_WORDS: Final = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "a couple of": 2, "a few": 3,
}  # fmt: skip
"""Words that count days, weeks, months or years in a time expression."""
ISO_MINUTE: Final = "%Y-%m-%dT%H:%M"
"""umb's timestamp format (sessions' ``started_at``, questions' ``asked_at``)."""

_WEEKDAY_WORDS: Final = tuple(w.lower() for w in WEEKDAYS)
_SINGLE_COUNTS: Final = sorted((k for k in COUNT_WORDS if " " not in k), key=len, reverse=True)
_COUNT_RE: Final = r"(\d{1,3}|a couple of|a few|" + "|".join(_SINGLE_COUNTS) + ")"
_MONTH_RE: Final = "(" + "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True)) + r")\b\.?"
_WEEKDAY_RE: Final = "(" + "|".join(_WEEKDAY_WORDS) + ")"

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
    return int(w) if w.isdigit() else COUNT_WORDS[w]


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
                found = _calendar_day(said_on, MONTH_NUMBERS[g[0].lower()], int(g[1]), _opt(g, 2))
            elif kind == "dm":
                found = _calendar_day(said_on, MONTH_NUMBERS[g[1].lower()], int(g[0]), _opt(g, 2))
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
                wd = _WEEKDAY_WORDS.index(g[0].lower())
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


RECENT_DAYS: Final = 90
"""A change older than this when it is mentioned is a recollection, not news."""

_UNIT_DAYS: Final = {"day": 1, "week": 7, "month": 30, "year": 365}
_FULL_MONTHS: Final = "|".join(m.lower() for m in MONTHS)
_CALENDAR: Final = re.compile(
    rf"\b({_FULL_MONTHS}) (\d{{1,2}})(?:st|nd|rd|th)?\b(?:,? (\d{{4}}))?", re.IGNORECASE
)
_AGO: Final = re.compile(
    rf"\b(\d+|{'|'.join(_SINGLE_COUNTS)}) (day|week|month|year)s? ago\b", re.IGNORECASE
)
_POINTS_BACK: Final = re.compile(r"^(?:that|it|this) (?:was|happened)\b", re.IGNORECASE)


def mentioned_dates(sentence: str, today: date) -> list[date]:
    """Calendar dates (``May 14th``, ``January 9th, 2023``) and ``N days/weeks… ago`` in a
    sentence said on ``today``; a date without a year is the latest one not after ``today``."""
    found = []
    for month, day, year in _CALENDAR.findall(sentence):
        m, d = MONTH_NUMBERS[month.lower()], int(day)
        try:
            when = date(int(year) if year else today.year, m, d)
            if not year and when > today:
                when = date(today.year - 1, m, d)
        except ValueError:
            continue
        found.append(when)
    for count, unit in _AGO.findall(sentence):
        n = int(count) if count.isdigit() else COUNT_WORDS[count.lower()]
        found.append(today - timedelta(days=n * _UNIT_DAYS[unit.lower()]))
    return found


def is_recollection(sentence: str, following: str, said_at: str) -> bool:
    """Whether a sentence said at ``said_at`` (``YYYY-MM-DDTHH:MM``) retells an old event.

    The date may sit in the sentence itself or in a following ``That was on …`` sentence.
    """
    try:
        today = date.fromisoformat(said_at[:10])
    except ValueError:
        return False
    dates = mentioned_dates(sentence, today)
    if not dates and _POINTS_BACK.match(following):
        dates = mentioned_dates(following, today)
    return any((today - d).days > RECENT_DAYS for d in dates)


_LOCOMO_RE = re.compile(
    r"^\s*(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$",
    re.IGNORECASE,
)
_LME_RE = re.compile(r"^\s*(\d{4})/(\d{1,2})/(\d{1,2})\s*(?:\([A-Za-z]+\))?\s*(\d{1,2}):(\d{2})")


def parse_locomo_datetime(text: str) -> str | None:
    """``1:56 pm on 8 May, 2023`` -> ``2023-05-08T13:56``; None when it does not parse."""
    m = _LOCOMO_RE.match(text)
    if not m:
        return None
    hour, minute, ampm, day, month, year = m.groups()
    month_num = MONTH_NUMBERS.get(month.lower())
    h = int(hour)
    if month_num is None or not 1 <= h <= 12:
        return None
    h = h % 12 + (12 if ampm.lower() == "p" else 0)
    try:
        return datetime(int(year), month_num, int(day), h, int(minute)).strftime(ISO_MINUTE)
    except ValueError:
        return None


def format_locomo_datetime(iso: str) -> str:
    """``2023-05-08T13:56`` -> ``1:56 pm on 8 May, 2023`` (the release's own spelling)."""
    dt = datetime.strptime(iso, ISO_MINUTE)
    h12 = dt.hour % 12 or 12
    ampm = "pm" if dt.hour >= 12 else "am"
    return f"{h12}:{dt.minute:02d} {ampm} on {dt.day} {MONTHS[dt.month - 1]}, {dt.year}"


def parse_longmemeval_datetime(text: str) -> str | None:
    """``2023/05/30 (Tue) 23:40`` -> ``2023-05-30T23:40``; None when it does not parse."""
    m = _LME_RE.match(text)
    if not m:
        return None
    year, month, day, hour, minute = (int(g) for g in m.groups())
    try:
        return datetime(year, month, day, hour, minute).strftime(ISO_MINUTE)
    except ValueError:
        return None


def format_longmemeval_datetime(iso: str) -> str:
    """``2023-05-30T23:40`` -> ``2023/05/30 (Tue) 23:40``."""
    dt = datetime.strptime(iso, ISO_MINUTE)
    return f"{dt:%Y/%m/%d} ({WEEKDAYS[dt.weekday()][:3]}) {dt:%H:%M}"


def shift(iso: str, *, days: int = 0, minutes: int = 0) -> str:
    """Move an ISO minute timestamp by whole days and minutes."""
    dt = datetime.strptime(iso, ISO_MINUTE) + timedelta(days=days, minutes=minutes)
    return dt.strftime(ISO_MINUTE)
