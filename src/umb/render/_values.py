"""Exact value matching: does a line of dialogue state a fact's value, in any common written form?

The world's values come in a few shapes (``$1,470``, ``1660 km``, ``93 percent``, ``4:04 hours``,
``2350``, ``Dr. Haddad``, ``a yellow Ford Puma``, ``none``); each gets the forms people write them
in (``1470 dollars``, ``93%``, ``four hours and four minutes``, ``Dr Haddad``, ``yellow Ford
Puma``). A match is ``exact`` (the value is there), ``partial`` (some of its words are: a model
verifier may decide) or ``None``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cached_property, lru_cache
from typing import Literal

Match = Literal["exact", "partial"]

_SMALL = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()

# British and American spellings fold to one form on both sides of a comparison (one pass).
_SPELLING = {
    "neighbour": "neighbor",
    "colour": "color",
    "favourite": "favorite",
    "travell": "travel",
    "metre": "meter",
    "centre": "center",
    "theatre": "theater",
    "programme": "program",
    "organis": "organiz",
    "realis": "realiz",
    "apologis": "apologiz",
    "anaemia": "anemia",
}
_SPELLING_RE = re.compile("|".join(_SPELLING))
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "})
_DASHES = re.compile(r"[\u2010-\u2015]")

STOPWORDS = frozenset(
    "a an the to at in on of for with and or got get was were is are be been had has have took "
    "did do went my his her their our your its from up out into by as it this that new named "
    "called i me we you he she they".split()
)


def number_words(n: int) -> str | None:
    """``42`` -> ``forty-two`` for 0–99, else None."""
    if 0 <= n < 20:
        return _SMALL[n]
    if 20 <= n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens - 2] + ("" if ones == 0 else f"-{_SMALL[ones]}")
    return None


def normalise(text: str) -> str:
    """Lower case, plain quotes and hyphens, single spaces, one spelling of British words."""
    out = _DASHES.sub("-", text.translate(_QUOTES)).lower()
    out = _SPELLING_RE.sub(lambda m: _SPELLING[m.group(0)], out)
    return " ".join(out.split())


def stem(word: str) -> str:
    """A crude stem, enough to match ``fixed``/``fix`` and ``neighbours``/``neighbour``."""
    word = word.removesuffix("'s")
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


_WORD = re.compile(r"[a-z0-9][a-z0-9']*")


def word_stems(norm_text: str) -> set[str]:
    """The stems of the words of a normalised text."""
    return {stem(w) for w in _WORD.findall(norm_text)}


def content_tokens(norm_text: str, drop: Iterable[str] = ()) -> tuple[str, ...]:
    """Stems of the words that carry meaning (no stopwords, nothing in ``drop``), in order."""
    dropped = {stem(w) for w in drop}
    out: list[str] = []
    for w in _WORD.findall(norm_text):
        s = stem(w)
        if w not in STOPWORDS and s not in dropped and s not in out:
            out.append(s)
    return tuple(out)


def token_in(token: str, stems: set[str]) -> bool:
    """``token`` is among ``stems``, or one is a prefix (4+ letters) of the other."""
    if token in stems:
        return True
    if len(token) < 4:
        return False
    return any(len(s) >= 4 and (s.startswith(token) or token.startswith(s)) for s in stems)


def coverage(tokens: tuple[str, ...], norm_text: str) -> float:
    """The share of ``tokens`` found in ``norm_text`` (1.0 for no tokens)."""
    if not tokens:
        return 1.0
    stems = word_stems(norm_text)
    return sum(token_in(t, stems) for t in tokens) / len(tokens)


def _digits(n: int) -> str:
    """``1470`` -> a pattern for ``1470`` or ``1,470``, not part of a longer number."""
    plain = str(n)
    grouped = f"{n:,}"
    body = re.escape(plain) if plain == grouped else f"(?:{re.escape(grouped)}|{plain})"
    return rf"(?<![\d.,]){body}(?![\d]|[.,]\d)"


def number_pattern(n: int) -> str:
    """Digits (with or without separators) or, up to 99, words."""
    words = number_words(n)
    if words is None:
        return _digits(n)
    spelled = re.escape(words).replace(r"\-", "[- ]")
    return rf"(?:{_digits(n)}|\b{spelled}\b)"


_UNITS = {
    "km": r"(?:km|kilometers?|kms)\b",
    "percent": r"(?:percent\b|per cent\b|%)",
    "days": r"days?\b",
    "day": r"days?\b",
    "hours": r"(?:hours?|hrs?)\b",
    "hour": r"(?:hours?|hrs?)\b",
}
_MONEY = re.compile(r"^\$(\d[\d,]*)$")
_NUM_UNIT = re.compile(r"^(\d[\d,]*)\s*(km|percent|days?|hours?)$")
_DURATION = re.compile(r"^(\d+):(\d\d) hours$")
_BARE = re.compile(r"^\d[\d,]*$")
_ARTICLE = re.compile(r"^(?:a|an|the)\s+")

#: How people say that someone has no partner, pet or car (a value of ``none``).
NONE_CUES: dict[str, str] = {
    "partner": r"\b(?:single|not seeing anyone|no partner|not dating|no (?:boyfriend|girlfriend)|"
    r"not in a relationship|on my own|nobody special|no one special|"
    r"partner\b[^.!?]{0,20}\bnone)\b",
    "pet": r"\b(?:no pets?|don't have (?:a |any )?pets?|without (?:a |any )?pets?|pet-free|"
    r"no animals|pets?\b[^.!?]{0,20}\bnone)\b",
    "car": r"\b(?:no car|don't (?:have|own) a car|without a car|car-free|no longer (?:have|own) a "
    r"car|sold (?:my|the) car|car\b[^.!?]{0,20}\bnone)\b",
    "previous_car": r"\b(?:first car|first ever car|never (?:had|owned) a car|"
    r"didn't (?:have|own) a car|no car before|replaced none)\b",
}
#: Words that say something ended (a change to ``none``).
ENDING_CUES = (
    r"\b(?:broke up|break-up|breakup|split|separated|not together|ended|gave up|sold|anymore|"
    r"no longer|rehomed|passed away|died|lost|moved out|divorce)"
)


def _money_patterns(n: int) -> list[str]:
    return [
        rf"\$\s?{_digits(n)}",
        rf"{_digits(n)}\s*(?:dollars|bucks|usd)\b",
        rf"usd\s?{_digits(n)}",
    ]


def _duration_patterns(h: int, m: int) -> list[str]:
    hh, mm = number_pattern(h), number_pattern(m)
    out = [rf"(?<![\d:]){h}[:h.]\s?{m:02d}(?![\d])"]
    hours = rf"{hh}\s*(?:hours?|hrs?|h)\b"
    if h == 0:
        out.append(rf"{mm}\s*(?:minutes?|mins?)\b")
    elif m == 0:
        out.append(hours)
    else:
        out.append(rf"{hours},?\s*(?:and\s+)?{mm}\s*(?:minutes?|mins?|m)\b")
    return out


def _phrase_pattern(norm_value: str) -> str:
    parts = []
    for word in norm_value.split():
        token = re.escape(word).replace(r"\.", r"\.?").replace("'", "'?")
        parts.append(token.replace(r"\-", r"[\s-]?"))
    body = r"[\s-]+".join(parts)
    head = r"\b" if re.match(r"\w", norm_value) else ""
    tail = r"\b" if re.search(r"\w$", norm_value) else ""
    return head + body + tail


class ValueMatcher:
    """Finds one value in text; build once per fact and call :meth:`match` per turn.

    Args:
        value: The fact's value as the world holds it.
        attribute: The fact's attribute (slot name or tracked attribute).
        self_names: Words that name the speaker, present in every line they say (a joint
            event's ``with`` slot lists the speaker too).
    """

    def __init__(self, value: str, attribute: str, self_names: Iterable[str] = ()) -> None:
        self.value = value
        self.attribute = attribute
        self._sources: list[str] = []
        self.tokens: tuple[str, ...] = ()
        self.none = value.strip().lower() == "none"
        self.kind = "text"
        self.capitalised = False
        raw = value.strip()
        if self.none:
            self.kind = "none"
            cue = NONE_CUES.get(attribute)
            self._sources = [cue] if cue else []
            return
        money, unit = _MONEY.match(raw), _NUM_UNIT.match(raw)
        duration, bare = _DURATION.match(raw), _BARE.match(raw)
        if money:
            self.kind, n = "money", int(money.group(1).replace(",", ""))
            sources = _money_patterns(n)
        elif unit:
            self.kind, n = "number", int(unit.group(1).replace(",", ""))
            sources = [rf"{number_pattern(n)}[\s-]*{_UNITS[unit.group(2)]}"]
        elif duration:
            self.kind = "number"
            sources = _duration_patterns(int(duration.group(1)), int(duration.group(2)))
        elif bare:
            self.kind = "number"
            sources = [number_pattern(int(raw.replace(",", "")))]
        else:
            norm = _ARTICLE.sub("", normalise(raw))
            sources = [_phrase_pattern(norm)]
            self.tokens = content_tokens(norm, drop=_self_words(self_names))
        self._sources = sources
        self.capitalised = any(w[:1].isupper() for w in _ARTICLE.sub("", raw).split())

    @cached_property
    def patterns(self) -> list[re.Pattern[str]]:
        """The value's written forms, compiled on first use."""
        return [re.compile(p) for p in self._sources]

    @cached_property
    def _cased(self) -> re.Pattern[str]:
        return re.compile(_phrase_pattern(_ARTICLE.sub("", self.value.strip())))

    def match(self, norm_text: str) -> Match | None:
        """How well ``norm_text`` (see :func:`normalise`) states the value."""
        if any(p.search(norm_text) for p in self.patterns):
            return "exact"
        if not self.tokens:
            return None
        stems = word_stems(norm_text)
        found = [t for t in self.tokens if token_in(t, stems)]
        if len(found) == len(self.tokens):
            return "exact"
        if len(found) * 2 >= len(self.tokens) and any(len(t) >= 4 for t in found):
            return "partial"
        return None

    @property
    def distinctive(self) -> bool:
        """Whether seeing the value in a line means the fact was told (for the leak check)."""
        if self.kind == "money":
            return True
        if self.kind == "number":
            return bool(re.search(r"\d{3,}|:", self.value.replace(",", "")))
        return self.kind == "text" and self.capitalised and len(self.value) >= 4

    def leaks(self, norm_text: str, raw_text: str) -> bool:
        """Whether a line gives the value away; names must keep their capitals."""
        if not self.distinctive:
            return False
        if self.kind != "text":
            return any(p.search(norm_text) for p in self.patterns)
        return self._cased.search(raw_text.translate(_QUOTES)) is not None


@lru_cache(maxsize=4096)
def matcher(value: str, attribute: str) -> ValueMatcher:
    """A shared :class:`ValueMatcher` for ``value`` (no speaker names), built once."""
    return ValueMatcher(value, attribute)


def _self_words(names: Iterable[str]) -> list[str]:
    return [w for name in names for w in normalise(name).split()]


@lru_cache(maxsize=64)
def none_cue(attribute: str) -> re.Pattern[str] | None:
    """The cue pattern saying ``attribute`` has no value, if one is known."""
    cue = NONE_CUES.get(attribute)
    return re.compile(cue) if cue else None
