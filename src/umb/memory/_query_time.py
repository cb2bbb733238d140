"""The period a query names, and which sessions fall in it.

"What did Nadia buy in December 2022?" names a month; "When did Sam move, in 2021?" a year;
"what did I do last week" a day relative to when it is asked. Talk about an event comes in
the sessions on or after it, so a session matches from the period's start to a little after
its end.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Final

import numpy as np
import numpy.typing as npt

from umb._dates import MONTH_NUMBERS, has_time_expression, resolve_date

#: Days after a named period in which a session may still report it.
REPORT_DAYS: Final = 30
#: Days either side of a single named day (one's memory of "last Tuesday" is loose).
DAY_SLACK: Final = 3

_MONTH_YEAR: Final = re.compile(
    r"\b(" + "|".join(sorted((m for m in MONTH_NUMBERS if len(m) > 3 or m == "may"),
                             key=len, reverse=True))
    + r")\b,?\s+(?:of\s+)?((?:19|20)\d\d)\b",
    re.IGNORECASE,
)  # fmt: skip
_YEAR: Final = re.compile(r"\b((?:19|20)\d\d)\b")


def query_periods(query: str, today: date) -> list[tuple[date, date]]:
    """The ``(first, last)`` days of each period ``query`` names; ``today`` anchors
    relative expressions and dates without a year."""
    periods = []
    for month, year in _MONTH_YEAR.findall(query):
        m, y = MONTH_NUMBERS[month.lower()], int(year)
        periods.append((date(y, m, 1), date(y, m, calendar.monthrange(y, m)[1])))
    rest = _MONTH_YEAR.sub(" ", query)
    if has_time_expression(rest):
        day, _ = resolve_date(rest, today)
        periods.append((day - timedelta(days=DAY_SLACK), day + timedelta(days=DAY_SLACK)))
    elif not periods:
        periods += [(date(int(y), 1, 1), date(int(y), 12, 31)) for y in _YEAR.findall(rest)]
    return periods


def in_periods(
    session_days: npt.NDArray[np.int64], periods: Sequence[tuple[date, date]]
) -> npt.NDArray[np.float32]:
    """1 for each session day (a ``date.toordinal``) from a period's start to
    :data:`REPORT_DAYS` after its end, else 0."""
    inside = np.zeros(len(session_days), dtype=np.bool_)
    for first, last in periods:
        until = (last + timedelta(days=REPORT_DAYS)).toordinal()
        inside |= (session_days >= first.toordinal()) & (session_days <= until)
    return inside.astype(np.float32)
