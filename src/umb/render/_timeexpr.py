"""Exact relative time expressions, resolved against the session date.

Every phrase names one calendar day without doubt ("last Tuesday" is always within the past
seven days), so temporal questions need date arithmetic but never guesswork.
"""

from __future__ import annotations

import random
from datetime import date

from umb._dates import WEEKDAYS

NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def ordinal(n: int) -> str:
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def clock(hhmm: str) -> str:
    """``14:05`` -> ``2:05 pm``."""
    h, m = int(hhmm[:2]), int(hhmm[3:5])
    return f"{(h - 1) % 12 + 1}:{m:02d} {'am' if h < 12 else 'pm'}"


def phrases_for(event_day: date, session_day: date) -> list[str]:
    """Every phrase that names ``event_day`` exactly when said on ``session_day``."""
    delta = (session_day - event_day).days
    absolute = f"on {event_day.strftime('%B')} {ordinal(event_day.day)}"
    if event_day.year != session_day.year:
        absolute += f", {event_day.year}"
    options = [absolute]
    if delta == 0:
        options = ["earlier today", "today"]
    elif delta == 1:
        options += ["yesterday", "yesterday"]
    elif delta <= 6:
        options += [f"{NUMBERS[delta]} days ago", f"last {WEEKDAYS[event_day.weekday()]}"]
    elif delta == 7:
        options += ["a week ago today", "exactly one week ago"]
    elif delta % 7 == 0 and delta <= 70:
        options += [f"exactly {NUMBERS[delta // 7]} weeks ago"]
    elif delta <= 10:
        options += [f"{NUMBERS[delta]} days ago"]
    elif delta < 45:
        options += [f"{delta} days ago"]
    return options


def when(event_day: date, session_day: date, rng: random.Random) -> str:
    """One phrase for ``event_day`` as said on ``session_day`` (the event is not later)."""
    return rng.choice(phrases_for(event_day, session_day))
