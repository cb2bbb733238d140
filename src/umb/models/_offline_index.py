"""The offline reader's view of a context: dated sentences and lexical scoring over them.

A context is split into sentences with substring searches and numpy arithmetic over its code
points, never a Python loop per sentence, so a 1M-character history costs about 0.1 s
once. Scoring a query then costs one substring search per query term: BM25 over sentences,
computed from where each term occurs rather than from a tokenised copy of every sentence.
"""

from __future__ import annotations

import math
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from typing import Final

import numpy as np

# Literal words that start most time expressions; finding them one by one is far faster
# than one search for every expression (see ContextIndex.dated).
_TIME_ANCHORS: Final = (
    "ago", "yesterday", "today", "tonight", "tomorrow", "last ", "next ", "this morning",
    "this afternoon", "this evening", "january", "february", "march", "april", "may ", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
# Matched at line starts only (pattern.match(text, pos)), never scanned over the whole text.
_HEADER: Final = re.compile(
    r"\[Session[^\]|\n]*\|\s*(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}))?\][ \t]*(?=\n|$)"
)
_UNIT: Final = re.compile(r"\[(\d{4}-\d{2}-\d{2})(?:[ T]\d{2}:\d{2})?\][ \t]*")
_SPEAKER_MAX: Final = 40
_TITLES: Final = ("dr", "mr", "ms", "mrs", "st", "prof", "jr", "sr")
_CLOSERS: Final = np.array([ord(c) for c in "\"')]\u201d\u2019"], dtype=np.uint32)
_WORD: Final = re.compile(r"[a-z0-9]+")

STOPWORDS: Final = frozenset(
    """a about after again all also am an and any are as at be been before being between both but
    by can could did do does doing done during each else ever for from had has have having he her
    here hers herself him himself his how i if in into is it its itself just me more most my
    myself no nor not now of off on once only or other our ours out over own same she should so
    some such than that the their theirs them then there these they this those through to too
    under until up very was we were what when where which while who whom whose why will with
    would you your yours yourself did does tell said say says many much long days day ago since
    today exactly time name called happen happened event oh ha yes yeah right hmm well okay wow
    still think remember remembering whatever feels ages mostly good times""".split()
)

_BLANKS: Final = np.array([ord(c) for c in " \t\n\r"], dtype=np.uint32)
_K1: Final = 1.2
_B: Final = 0.75
_TERM_CACHE_SIZE: Final = 512


def stem(word: str) -> str:
    """A crude suffix stripper: enough to let ``adopting`` find ``adopted``."""
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "sz":
        word = word[:-1]
    if len(word) > 4 and word.endswith("e"):
        word = word[:-1]
    return word


def term_pattern(term: str) -> tuple[str, re.Pattern[str]]:
    """The literal a term's matches start with, and a pattern for the whole inflected word.

    Matches are found with ``str.find`` on the literal (far faster than a regex scan of a long
    text) and confirmed with the pattern; the left word boundary is checked by the caller.
    """
    if term.isdigit() or len(term) <= 2:
        return term, re.compile(rf"{re.escape(term)}(?![a-z0-9])")
    s = stem(term)
    tail = r"[a-z]{0,4}" if len(s) >= 4 else r"(?:e|s|es|ed|d|ing|er|ers)?"
    return s, re.compile(rf"{re.escape(s)}{tail}(?![a-z0-9])")


def find_all(text: str, literal: str) -> np.ndarray:
    """Start of every occurrence of ``literal`` in ``text``."""
    out = []
    i = text.find(literal)
    while i != -1:
        out.append(i)
        i = text.find(literal, i + 1)
    return np.asarray(out, dtype=np.int64)


def query_terms(text: str) -> list[str]:
    """Content words of a query, lower-cased, in order, without repeats."""
    words = _WORD.findall(text.lower().replace("'s", " "))
    seen: dict[str, None] = {}
    for w in words:
        if w not in STOPWORDS and (len(w) > 1 or w.isdigit()):
            seen.setdefault(w, None)
    return list(seen)


@dataclass
class ContextIndex:
    """Sentences of one context with their dates, session and line, as parallel arrays."""

    text: str
    lower: str
    starts: np.ndarray
    ends: np.ndarray
    valid: np.ndarray
    session: np.ndarray
    line: np.ndarray
    day: np.ndarray
    """Date ordinal each sentence was said on; 0 when the context gives none."""
    speakers: frozenset[str]
    cp: np.ndarray
    """The lower-cased text as one code point per character (regex offsets index it)."""
    lengths: np.ndarray = field(init=False)
    n_valid: int = field(init=False)
    _norm: np.ndarray = field(init=False)
    _word_char: np.ndarray = field(init=False)
    _dated: np.ndarray | None = field(init=False, default=None)
    _questions: np.ndarray | None = field(init=False, default=None)
    _hits: OrderedDict[str, np.ndarray] = field(init=False, default_factory=OrderedDict)

    def __post_init__(self) -> None:
        self.lengths = np.maximum((self.ends - self.starts) / 5.0, 1.0)
        self.n_valid = int(self.valid.sum())
        avg = float(self.lengths[self.valid].mean()) if self.n_valid else 1.0
        self._norm = _K1 * (1 - _B + _B * self.lengths / avg)
        self._word_char = _word_chars(self.cp)

    def __len__(self) -> int:
        return len(self.starts)

    def sentence(self, i: int) -> str:
        """The text of sentence ``i``."""
        return self.text[int(self.starts[i]) : int(self.ends[i])].strip()

    def said_on(self, i: int) -> date | None:
        """The date sentence ``i`` was said on, if the context gives one."""
        d = int(self.day[i])
        return date.fromordinal(d) if d > 0 else None

    def dated(self) -> np.ndarray:
        """Mask of sentences that may hold a time expression (computed once per context)."""
        if self._dated is None:
            mask = np.zeros(len(self), dtype=bool)
            for anchor in _TIME_ANCHORS:
                pos = find_all(self.lower, anchor)
                idx = np.searchsorted(self.starts, pos, side="right") - 1
                mask[idx[idx >= 0]] = True
            self._dated = mask & self.valid
        return self._dated

    def questions(self) -> np.ndarray:
        """Mask of sentences that end with a question mark (computed once per context)."""
        if self._questions is None and not len(self.cp):
            self._questions = np.zeros(len(self), dtype=bool)
        if self._questions is None:
            last = np.full(len(self), -1, dtype=np.int64)
            # The last non-blank character sits at most a few places before the end.
            for back in range(4, 0, -1):
                at = np.maximum(self.ends - back, 0)
                blank = np.isin(self.cp[np.minimum(at, len(self.cp) - 1)], _BLANKS)
                last = np.where(~blank & (at >= self.starts), at, last)
            ok = last >= 0
            self._questions = np.zeros(len(self), dtype=bool)
            self._questions[ok] = self.cp[last[ok]] == ord("?")
        return self._questions

    def hits(self, term: str) -> np.ndarray:
        """Sentence index of every occurrence of ``term`` in sentence text (not in labels)."""
        cached = self._hits.get(term)
        if cached is not None:
            self._hits.move_to_end(term)
            return cached
        literal, pattern = term_pattern(term)
        low = self.lower
        pos = find_all(low, literal)
        pos = pos[[pattern.match(low, int(p)) is not None for p in pos]] if len(pos) else pos
        pos = pos[(pos == 0) | ~self._word_char[np.maximum(pos - 1, 0)]]
        idx = np.searchsorted(self.starts, pos, side="right") - 1
        keep = (idx >= 0) & (pos < self.ends[np.maximum(idx, 0)])
        idx = idx[keep]
        idx = idx[self.valid[idx]]
        self._hits[term] = idx
        if len(self._hits) > _TERM_CACHE_SIZE:
            self._hits.popitem(last=False)
        return idx

    def score(self, terms: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """BM25 score and idf-weighted term coverage (0..1) of every sentence.

        A term absent from the whole context keeps its full idf in the coverage denominator,
        which is what lets the reader notice that a question asks about something never said.
        """
        n = len(self)
        scores = np.zeros(n)
        covered = np.zeros(n)
        total_idf = 0.0
        for t in terms:
            idx = self.hits(t)
            tf = np.bincount(idx, minlength=n).astype(float)
            df = int(np.count_nonzero(tf))
            idf = math.log(1 + (self.n_valid - df + 0.5) / (df + 0.5))
            total_idf += idf
            if df:
                scores += idf * tf * (_K1 + 1) / (tf + self._norm)
                covered += idf * (tf > 0)
        coverage = covered / total_idf if total_idf > 0 else covered
        return scores, coverage


def _day_ordinal(iso: str) -> int:
    try:
        return date.fromisoformat(iso).toordinal()
    except ValueError:
        return 0


def _word_chars(cp: np.ndarray) -> np.ndarray:
    return ((cp >= 97) & (cp <= 122)) | ((cp >= 48) & (cp <= 57))


def _bracket_lines(
    pattern: re.Pattern[str], text: str, cp: np.ndarray, line_starts: np.ndarray
) -> list[re.Match[str]]:
    """Matches of ``pattern`` at the starts of lines that open with ``[``."""
    n = len(cp)
    candidates = line_starts[line_starts < n]
    candidates = candidates[cp[candidates] == ord("[")]
    return [m for p in candidates if (m := pattern.match(text, int(p))) is not None]


def _speaker_labels(
    text: str, cp: np.ndarray, line_starts: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Line starts that carry a ``Name: `` label, and where each label ends.

    A label is up to four capitalised words before ``": "`` near the start of the line; found
    with array arithmetic because a long history has one on every line.
    """
    n = len(cp)
    colon = np.flatnonzero(cp[:-1] == ord(":")) if n > 1 else np.zeros(0, dtype=np.int64)
    colon = colon[np.isin(cp[colon + 1], (32, 9))]
    starts = line_starts[line_starts < n]
    if not len(colon) or not len(starts):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    k = np.searchsorted(colon, starts)
    has = k < len(colon)
    starts, c = starts[has], colon[k[has]]
    # Nothing but name characters between the line start and the colon.
    stop = np.cumsum(np.isin(cp, (10, 33, 44, 59, 63, 34, 40, 41, 91)))
    spaces = np.cumsum(cp == 32)
    upper = np.frombuffer(
        text[0:0].join(text[int(p)] for p in starts).encode("utf-32-le"), np.uint32
    )
    ok = (
        (c - starts <= _SPEAKER_MAX)
        & (c > starts)
        & (stop[c] - stop[starts] == 0)
        & (cp[starts] != 10)
        & (spaces[c] - spaces[starts] <= 3)
        & (upper >= ord("A"))
        & (upper <= ord("Z"))
    )
    return starts[ok], c[ok] + 2


def _sentence_starts(cp: np.ndarray) -> np.ndarray:
    """Where sentences start: after a newline, or after . ! ? (and closing quotes) and a blank.

    Done with array arithmetic on the code points: a regex scan for sentence ends costs about
    as much as all the rest of the indexing together.
    """
    n = len(cp)
    punct = np.flatnonzero((cp == 46) | (cp == 33) | (cp == 63))
    after = punct + 1
    for _ in range(2):
        closer = np.zeros(len(after), dtype=bool)
        inside = after < n
        closer[inside] = np.isin(cp[after[inside]], _CLOSERS)
        after = np.where(closer, after + 1, after)
    ends_here = np.zeros(len(after), dtype=bool)
    inside = after < n
    ends_here[inside] = (cp[after[inside]] == 32) | (cp[after[inside]] == 9)
    word = _word_chars(cp)
    dots = punct[cp[punct] == 46]
    for title in _TITLES:  # "Dr. Lee" is one sentence
        size = len(title)
        at = dots[dots >= size]
        code = np.frombuffer(title.encode("utf-32-le"), dtype=np.uint32)
        same = np.all(cp[at[:, None] - size + np.arange(size)] == code, axis=1)
        alone = (at - size - 1 < 0) | ~word[np.maximum(at - size - 1, 0)]
        ends_here &= ~np.isin(punct, at[same & alone])
    newlines = np.flatnonzero(cp == 10) + 1
    starts = np.unique(np.concatenate([[0], newlines, after[ends_here] + 1]))
    return starts[starts < max(n, 1)]


def _build(text: str) -> ContextIndex:
    # Offsets into the lower-cased text must be offsets into the text: keep its length.
    lower = text.replace("\u0130", "I").lower()
    if len(lower) != len(text):
        lower = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    cp = np.frombuffer(lower.encode("utf-32-le"), dtype=np.uint32)
    starts = _sentence_starts(cp)
    ends = np.append(starts[1:], len(text))
    line_starts = np.concatenate([[0], np.flatnonzero(cp == 10) + 1]).astype(np.int64)
    line = np.searchsorted(line_starts, starts, side="right") - 1

    headers = _bracket_lines(_HEADER, text, cp, line_starts)
    header_pos = np.asarray([m.start() for m in headers], dtype=np.int64)
    session = np.searchsorted(header_pos, starts, side="right") - 1
    header_days = np.asarray([_day_ordinal(m.group(1)) for m in headers] + [0], dtype=np.int64)
    day = np.where(session >= 0, header_days[session], 0)
    valid = (ends - starts) > 1
    if len(header_pos):
        valid &= ~np.isin(starts, header_pos)

    # A memory-unit date or a speaker label belongs to the line's first sentence: move that
    # sentence's start past it (the previous sentence's end stays put, so the label is in no
    # sentence and its words are never scored).
    units = _bracket_lines(_UNIT, text, cp, line_starts)
    if units:
        first = np.searchsorted(starts, [m.start() for m in units])
        starts[first] = [m.end() for m in units]
        unit_lines = line[first]
        unit_days = np.asarray([_day_ordinal(m.group(1)) for m in units], dtype=np.int64)
        by_line = np.minimum(np.searchsorted(unit_lines, line), len(unit_lines) - 1)
        day = np.where(unit_lines[by_line] == line, unit_days[by_line], day)
    label_at, label_end = _speaker_labels(text, cp, line_starts)
    names = {
        text[int(a) : int(e) - 2] for a, e in zip(label_at[:2000], label_end[:2000], strict=True)
    }
    if len(label_at):
        starts[np.searchsorted(starts, label_at)] = label_end
    valid &= (ends - starts) > 1
    return ContextIndex(
        text=text,
        lower=lower,
        starts=starts,
        ends=ends,
        valid=valid,
        session=session,
        line=line,
        day=day,
        speakers=frozenset(names),
        cp=cp,
    )


@lru_cache(maxsize=8)
def build_index(text: str) -> ContextIndex:
    """Index a context (cached: the questions of one dialogue often share a context)."""
    return _build(text)
