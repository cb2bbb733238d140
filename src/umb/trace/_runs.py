"""Runs of numbered identities in an op record's ``reads`` (trace format 3).

An ``ingest``, ``extract`` or ``index`` operation reads every turn of its session, and the
turns' identities are numbered in order (``turn:D0001:S001:T0001`` … ``T0037``): written out,
these lists were a tenth of a trace. Format 3 writes such a run of three or more identities, all
at the same version, as one entry ``[first identity, version, count]``: the identities whose
trailing number counts up from the first one's, its zero-padding kept. A plain string (version
1) and ``[identity, version]`` keep their meaning, so the reader tells the three apart by type
and length.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

_NUMBERED = re.compile(r"(.*?)(\d+)\Z", re.DOTALL)

MIN_RUN = 3
"""Shorter runs are written out: a run entry is no shorter than two identities."""


def _numbered(identity: str) -> tuple[str, int, int] | None:
    m = _NUMBERED.match(identity)
    if m is None:
        return None
    digits = m.group(2)
    return m.group(1), int(digits), len(digits)


_NEXT_DIGIT = {str(d): str((d + 1) % 10) for d in range(10)}


def _nth(prefix: str, number: int, width: int) -> str:
    return f"{prefix}{number:0{width}d}"


#: Encoded read lists of at least this many reads are kept: a session's turns are read by its
#: ``ingest``, ``extract`` and ``index`` operations, in every system's trace alike.
CACHED_READS = 8
_CACHE_MAX = 256
_encoded: dict[tuple[tuple[str, int], ...], list[Any]] = {}


def encode_reads(reads: Sequence[tuple[str, int]]) -> list[Any]:
    """An op's reads ``(identity, version)`` as format-3 entries (see the module docstring)."""
    if len(reads) < CACHED_READS:
        return _encode(reads)
    key = tuple(reads)
    found = _encoded.get(key)
    if found is None:
        if len(_encoded) >= _CACHE_MAX:
            _encoded.clear()  # sessions come in order: the old ones are not read again
        found = _encoded[key] = _encode(reads)
    return list(found)  # the caller's record owns its list; the entries are not changed


def _encode(reads: Sequence[tuple[str, int]]) -> list[Any]:
    out: list[Any] = []
    i = 0
    n = len(reads)
    while i < n:
        identity, version = reads[i]
        count = 1
        parts = None
        if n - i >= MIN_RUN:
            # A run's next two entries share its version, the next one (padded numbers) its
            # length, and each one's last digit follows the one before: cheap tests before the
            # regular expression, which most of a decide's reads would fail.
            a, b = reads[i + 1][0], reads[i + 2][0]
            if (
                reads[i + 1][1] == version
                and reads[i + 2][1] == version
                and len(a) == len(identity)
                and _NEXT_DIGIT.get(identity[-1:]) == a[-1:]
                and _NEXT_DIGIT.get(a[-1:]) == b[-1:]
            ):
                parts = _numbered(identity)
        if parts is not None:
            prefix, first, width = parts
            nth = f"{prefix.replace('%', '%%')}%0{width}d"  # %-formatting: half an f-string's cost
            while (i + count < n and reads[i + count][1] == version
                   and reads[i + count][0] == nth % (first + count)):  # fmt: skip
                count += 1
        if count >= MIN_RUN:
            out.append([identity, version, count])
            i += count
            continue
        for k in range(i, i + count):
            r = reads[k]
            out.append(r[0] if r[1] == 1 else r)
        i += count
    return out


def decode_reads(
    entries: Sequence[Any], keys: dict[tuple[str, int], tuple[str, int]] | None = None
) -> tuple[tuple[str, int], ...]:
    """The ``(identity, version)`` pairs of an op record's ``reads`` (formats 1 to 3).

    Args:
        entries: The record's ``reads``.
        keys: Pairs already made, shared by every op of a trace: the thousands of reads of
            one turn then hold one pair, not a copy each.

    Raises:
        ValueError: A run entry whose first identity carries no number.
    """
    out: list[tuple[str, int]] = []
    for r in entries:
        if type(r) is str:
            out.append((r, 1))
        elif len(r) == 2:
            out.append((r[0], r[1]))
        else:
            parts = _numbered(r[0])
            if parts is None:
                raise ValueError(f"a run of reads starts at {r[0]!r}, which has no number")
            prefix, first, width = parts
            version = r[1]
            out.extend((_nth(prefix, first + k, width), version) for k in range(int(r[2])))
    if keys is None:
        return tuple(out)
    return tuple([keys.setdefault(k, k) for k in out])
