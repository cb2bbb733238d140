"""Date strings of the peer formats, to and from umb's ``YYYY-MM-DDTHH:MM``.

Parsed by hand rather than with ``strptime`` because ``%B`` and ``%p`` follow the process
locale, and a benchmark must not import differently on a German machine.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_MONTH_NUM = {m.lower(): i for i, m in enumerate(MONTHS, start=1)}
_MONTH_NUM.update({m[:3].lower(): i for i, m in enumerate(MONTHS, start=1)})
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")

ISO_MINUTE = "%Y-%m-%dT%H:%M"

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
    month_num = _MONTH_NUM.get(month.lower())
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
    return f"{dt:%Y/%m/%d} ({_WEEKDAYS[dt.weekday()]}) {dt:%H:%M}"


def shift(iso: str, *, days: int = 0, minutes: int = 0) -> str:
    """Move an ISO minute timestamp by whole days and minutes."""
    dt = datetime.strptime(iso, ISO_MINUTE) + timedelta(days=days, minutes=minutes)
    return dt.strftime(ISO_MINUTE)
