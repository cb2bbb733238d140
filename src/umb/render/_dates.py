"""Does a line name a given calendar day (or clock time), said on a given session day?

Accepts the forms people write: relative ones that name the day without doubt ("yesterday",
"three days ago", "last Tuesday", "exactly two weeks ago") and absolute ones ("March 3rd",
"3 March 2021", "the 3rd of March", "2021-03-03", "3/3/2021"). An absolute form without a year
counts only when its most recent occurrence on or before the session day is the event's day.
"""

from __future__ import annotations

import re
from datetime import date

from umb._dates import MONTHS, WEEKDAYS
from umb.render._values import number_pattern

_MONTHS = [m.lower() for m in MONTHS]


def _month_pattern(month: int) -> str:
    name = _MONTHS[month - 1]
    abbrev = {9: "sept?"}.get(month, name[:3])
    return rf"(?:{name}|{abbrev}\.?)" if name != abbrev else name


def _last_occurrence(month: int, day: int, on_or_before: date) -> date | None:
    for year in (on_or_before.year, on_or_before.year - 1):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if candidate <= on_or_before:
            return candidate
    return None


class DayMatcher:
    """Finds mentions of ``event_day`` in lines said on ``session_day`` (normalised text)."""

    def __init__(self, event_day: date, session_day: date) -> None:
        self.event_day = event_day
        delta = (session_day - event_day).days
        self.year_ok_implicit = _last_occurrence(event_day.month, event_day.day, session_day) == (
            event_day
        )
        relative: list[str] = []
        if delta == 0:
            relative += [r"\btoday\b", r"\bthis (?:morning|afternoon|evening)\b", r"\btonight\b"]
        if delta == 1:
            relative += [r"\byesterday\b", r"\blast night\b"]
        if delta == 2:
            relative.append(r"\bthe day before yesterday\b")
        if delta >= 1:
            relative.append(rf"{number_pattern(delta)}\s+days?\s+ago\b")
        if 1 <= delta <= 6:
            weekday = WEEKDAYS[event_day.weekday()].lower()
            relative.append(rf"\b(?:last|this past|on|this)\s+{weekday}\b")
        if delta > 0 and delta % 7 == 0:
            weeks = delta // 7
            relative.append(rf"{number_pattern(weeks)}\s+weeks?\s+ago\b")
            if weeks == 1:
                relative.append(r"\ba week ago\b")
        self.relative = [re.compile(p) for p in relative]
        month, day, year = event_day.month, event_day.day, event_day.year
        m, d = _month_pattern(month), rf"{day}(?:st|nd|rd|th)?"
        tail = r"(?:,?\s+(\d{4}))?"
        self.absolute = [
            re.compile(rf"\b{m}\s+(?:the\s+)?{d}(?![\d]){tail}"),
            re.compile(rf"(?<![\d/.-]){d}\s+(?:of\s+)?{m}\b{tail}"),
        ]
        self.numeric = [
            re.compile(rf"\b{year}-{month:02d}-{day:02d}\b"),
            re.compile(rf"(?<![\d/]){_n(month)}/{_n(day)}(?:/({year}|{year % 100:02d}))?(?![\d/])"),
            re.compile(
                rf"(?<![\d/.]){_n(day)}[/.]{_n(month)}[/.]({year}|{year % 100:02d})(?![\d])"
            ),
        ]

    def mentions(self, norm_text: str) -> bool:
        """Whether the normalised line names the event's day."""
        if any(p.search(norm_text) for p in self.relative):
            return True
        for p in self.absolute:
            for found in p.finditer(norm_text):
                said_year = found.group(1)
                if said_year is None and self.year_ok_implicit:
                    return True
                if said_year is not None and int(said_year) == self.event_day.year:
                    return True
        for p in self.numeric:
            for found in p.finditer(norm_text):
                said = found.group(1) if p.groups else str(self.event_day.year)
                if said is None and self.year_ok_implicit:
                    return True
                if said is not None and said in (
                    str(self.event_day.year),
                    f"{self.event_day.year % 100:02d}",
                ):
                    return True
        return False


def _n(value: int) -> str:
    return f"0?{value}"


_CLOCK = re.compile(r"(?<![\d:])(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?m\.?|p\.?m\.?|o'clock)?(?![\d])")


def mentions_clock(norm_text: str, hhmm: str) -> bool:
    """Whether the normalised line names the clock time ``hhmm`` (24-hour ``HH:MM``)."""
    hour, minute = int(hhmm[:2]), int(hhmm[3:5])
    if minute == 0 and hour in (0, 12) and ("noon", "midnight")[hour == 0] in norm_text:
        return True
    for found in _CLOCK.finditer(norm_text):
        h, m, suffix = int(found.group(1)), found.group(2), found.group(3)
        if m is None and suffix is None:
            continue  # a bare number is not a time
        if int(m or 0) != minute or h > 23:
            continue
        if suffix and suffix.startswith("p"):
            hours = {h % 12 + 12}
        elif suffix and suffix.startswith("a"):
            hours = {h % 12}
        else:
            hours = {h, (h + 12) % 24} if h <= 12 else {h}
        if hour in hours:
            return True
    return False
