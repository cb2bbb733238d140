"""Text normalisation for exact value matching.

Both the gold value and the prediction go through :func:`normalise_tokens`, so a rule only has to
say which surface differences must not matter: case, accents, punctuation, articles, thousands
separators and currency signs, number words, ordinal suffixes and the common date spellings.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any, Final

from umb._dates import MONTH_NUMBERS

_MONTH_RE: Final = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?"
)
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})(?:[t ]\d{1,2}:\d{2})?\b")
_MONTH_DAY = re.compile(_MONTH_RE + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4})\b)?")
_DAY_MONTH = re.compile(
    r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH_RE + r"(?:,?\s+(\d{4})\b)?"
)

_UNITS: Final = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS: Final = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
                "seventy": 70, "eighty": 80, "ninety": 90}  # fmt: skip
_NUMBER_WORDS: Final = {w: i for i, w in enumerate(_UNITS)} | _TENS
_TENS_UNITS = re.compile(
    r"\b(" + "|".join(_TENS) + r")[\s-](one|two|three|four|five|six|seven|eight|nine)\b"
)
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_DECIMAL_ZEROS = re.compile(r"\b(\d+)\.0+\b")
_DECIMAL_TRAIL = re.compile(r"\b(\d+\.\d*?)0+\b")
_ORDINAL = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b")
_APOSTROPHE = re.compile(r"['\u2019\u2018`]")
#: A token: a run of letters and digits, a dot kept only between two digits ("1.5", not "end.").
_TOKEN = re.compile(r"[a-z0-9]+(?:(?<=[0-9])\.(?=[0-9])[a-z0-9]+)*")
#: Every month spelling of :data:`_MONTH_RE` starts with one of these.
_MONTH_STEMS: Final = tuple(sorted({m[:3] for m in MONTH_NUMBERS}))
_ARTICLES: Final = frozenset({"a", "an", "the"})
_DIGIT = re.compile(r"\d")
_DIGIT_DOT = re.compile(r"\d\.")


def _fmt_date(year: str | None, month: int, day: str) -> str:
    d = int(day)
    if not 1 <= month <= 12 or not 1 <= d <= 31:
        return f" {month} {d} "
    return f" {year} {month:02d} {d:02d} " if year else f" {month:02d} {d:02d} "


def _dates_to_tokens(s: str) -> str:
    # Each rule is skipped when the text lacks a character or month stem every match needs.
    if "-" in s:
        s = _ISO_DATE.sub(lambda m: _fmt_date(m.group(1), int(m.group(2)), m.group(3)), s)
    if not any(map(s.__contains__, _MONTH_STEMS)):
        return s
    s = _MONTH_DAY.sub(lambda m: _fmt_date(m.group(3), _month(m.group(1)), m.group(2)), s)
    return _DAY_MONTH.sub(lambda m: _fmt_date(m.group(3), _month(m.group(2)), m.group(1)), s)


def _month(name: str) -> int:
    return MONTH_NUMBERS[name[:3]]


def _numbers_to_digits(s: str) -> str:
    # Substring tests are much cheaper than the alternations: most texts name no number.
    if any(map(s.__contains__, _NUMBER_WORDS)):
        if any(map(s.__contains__, _TENS)):
            s = _TENS_UNITS.sub(lambda m: str(_TENS[m.group(1)] + _NUMBER_WORDS[m.group(2)]), s)
        s = _NUMBER_WORD.sub(lambda m: str(_NUMBER_WORDS[m.group(1)]), s)
    if _DIGIT.search(s) is None:  # the rest rewrites digits only
        return s
    if "," in s:
        s = _THOUSANDS.sub("", s)
    s = _ORDINAL.sub(r"\1", s)
    if _DIGIT_DOT.search(s) is None:  # both decimal rules need a digit before a dot
        return s
    s = _DECIMAL_ZEROS.sub(r"\1", s)
    return _DECIMAL_TRAIL.sub(r"\1", s)


def normalise_tokens(text: str) -> tuple[str, ...]:
    """Normalise ``text`` into comparable tokens.

    Examples:
        >>> normalise_tokens("The price was $1,249.00!")
        ('price', 'was', '1249')
        >>> normalise_tokens("March 3rd, 2021") == normalise_tokens("2021-03-03")
        True
    """
    # The fast paths skip work that cannot change the text (attribution and the memory metrics
    # normalise every memory a system writes): ASCII has no accents to strip, and the date and
    # digit rules all need a digit.
    if text.isascii():
        s = text.lower()
    else:
        s = unicodedata.normalize("NFKD", text)
        s = "".join(ch for ch in s if not unicodedata.combining(ch)).lower()
    s = _APOSTROPHE.sub("", s).replace("&", " and ").replace("%", " percent ")
    if _DIGIT.search(s) is not None:
        s = _dates_to_tokens(s)
    s = _numbers_to_digits(s)
    return tuple(t for t in _TOKEN.findall(s) if t not in _ARTICLES)


def as_text(value: Any) -> str:
    """Render an answer field as text for matching (lists are joined with ``; ``)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, dict):
        return "; ".join(as_text(v) for v in value.values())
    if isinstance(value, list | tuple):
        return "; ".join(as_text(v) for v in value)
    return str(value)


def as_text_list(value: Any) -> list[str]:
    """Render a list field as a list of texts; a lone string counts as a one-item list."""
    if value is None:
        return []
    if isinstance(value, list | tuple):
        return [as_text(v) for v in value]
    return [as_text(value)]


def contains_tokens(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    """Whether ``needle`` occurs as a contiguous run of whole tokens in ``haystack``."""
    if not needle:
        return False
    return f" {' '.join(needle)} " in f" {' '.join(haystack)} "


def contains_value(text: str, value: str) -> bool:
    """Whether the normalised ``value`` occurs (as whole tokens) in the normalised ``text``."""
    return contains_tokens(normalise_tokens(text), normalise_tokens(value))


def match_value(
    prediction: str, candidates: Iterable[str], *, extra_tokens: int = 12
) -> tuple[str | None, str | None]:
    """Match a short answer against gold values.

    A candidate matches when the normalised prediction equals it, or contains it and is short:
    at most ``extra_tokens`` tokens longer than the candidate. The length cap stops a long list
    of guesses from matching by containing the right one somewhere.

    Returns:
        ``(candidate, how)`` with ``how`` ``"exact"`` or ``"contained"``; ``(None, None)`` if
        nothing matched.
    """
    pred = normalise_tokens(prediction)
    best: tuple[str | None, str | None] = (None, None)
    for cand in candidates:
        gold = normalise_tokens(cand)
        if not gold:
            continue
        if pred == gold:
            return cand, "exact"
        if (
            best[0] is None
            and len(pred) <= len(gold) + extra_tokens
            and contains_tokens(pred, gold)
        ):
            best = (cand, "contained")
    return best


def as_int(value: Any) -> int | None:
    """An int from an int, an integral float or a string of digits; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d+\s*", value):
        return int(value)
    return None
