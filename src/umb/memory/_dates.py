"""Dates a sentence mentions, so an old event retold is not taken for a change of state.

"Ha, yes, I took up pottery on May 14th" in a November session retells an old change; the
rule-based extractor must not let it overwrite the hobby taken up since.
"""

from __future__ import annotations

import datetime as dt
import re

#: A change older than this when it is mentioned is a recollection, not news.
RECENT_DAYS = 90

_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_NUMBERS = dict(
    zip(
        "a an one two three four five six seven eight nine ten eleven twelve".split(),
        (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
        strict=True,
    )
)
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
_CALENDAR = re.compile(
    rf"\b({'|'.join(_MONTHS)}) (\d{{1,2}})(?:st|nd|rd|th)?\b(?:,? (\d{{4}}))?", re.IGNORECASE
)
_AGO = re.compile(rf"\b(\d+|{'|'.join(_NUMBERS)}) (day|week|month|year)s? ago\b", re.IGNORECASE)
_POINTS_BACK = re.compile(r"^(?:that|it|this) (?:was|happened)\b", re.IGNORECASE)


def mentioned_dates(sentence: str, today: dt.date) -> list[dt.date]:
    """Calendar dates (``May 14th``, ``January 9th, 2023``) and ``N days/weeks… ago`` in a
    sentence said on ``today``; a date without a year is the latest one not after ``today``."""
    found = []
    for month, day, year in _CALENDAR.findall(sentence):
        m, d = _MONTHS.index(month.lower()) + 1, int(day)
        try:
            when = dt.date(int(year) if year else today.year, m, d)
            if not year and when > today:
                when = dt.date(today.year - 1, m, d)
        except ValueError:
            continue
        found.append(when)
    for count, unit in _AGO.findall(sentence):
        n = int(count) if count.isdigit() else _NUMBERS[count.lower()]
        found.append(today - dt.timedelta(days=n * _UNIT_DAYS[unit.lower()]))
    return found


def is_recollection(sentence: str, following: str, said_at: str) -> bool:
    """Whether a sentence said at ``said_at`` (``YYYY-MM-DDTHH:MM``) retells an old event.

    The date may sit in the sentence itself or in a following ``That was on …`` sentence.
    """
    try:
        today = dt.date.fromisoformat(said_at[:10])
    except ValueError:
        return False
    dates = mentioned_dates(sentence, today)
    if not dates and _POINTS_BACK.match(following):
        dates = mentioned_dates(following, today)
    return any((today - d).days > RECENT_DAYS for d in dates)
