"""When to retry an endpoint call and how long to wait first."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from email.utils import parsedate_to_datetime

RETRYABLE_STATUS = frozenset({408, 409, 429})
"""4xx statuses worth retrying; every 5xx is retried too."""


def is_retryable_status(status: int) -> bool:
    """True for HTTP 408, 409, 429 and every 5xx."""
    return status in RETRYABLE_STATUS or status >= 500


def parse_retry_after(headers: Mapping[str, str], *, now: float | None = None) -> float | None:
    """Seconds a server asked us to wait, or None if it did not say.

    Reads ``retry-after-ms`` (sent by OpenAI) first, then ``Retry-After`` as seconds or as an
    HTTP date. Negative or unparsable values count as not said; a date in the past is 0.

    Args:
        headers: Response headers; lookups are case-insensitive for ``httpx`` headers and for
            plain dicts with lower-case keys.
        now: Current Unix time, for tests; defaults to ``time.time()``.

    Returns:
        Seconds to wait, or None.
    """
    lowered = {k.lower(): v for k, v in headers.items()}
    raw_ms = lowered.get("retry-after-ms")
    if raw_ms is not None:
        try:
            ms = float(raw_ms)
        except ValueError:
            ms = -1.0
        if ms >= 0:
            return ms / 1000.0
    raw = lowered.get("retry-after")
    if raw is None:
        return None
    raw = raw.strip()
    try:
        seconds = float(raw)
    except ValueError:
        try:
            when = parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError):
            return None
        current = time.time() if now is None else now
        return max(0.0, when.timestamp() - current)
    return seconds if seconds >= 0 else None


def backoff_delay(
    attempt: int,
    *,
    base_s: float,
    max_s: float,
    retry_after_s: float | None = None,
    rng: random.Random | None = None,
) -> float:
    """Seconds to wait before retry number ``attempt + 1``.

    A server's Retry-After wins (capped at ``max_s``). Otherwise exponential backoff with "equal
    jitter": half the exponential step is fixed, half random, so clients that failed together
    spread out but never retry at once.

    Args:
        attempt: Attempts made so far, minus one (0 after the first failure).
        base_s: First step.
        max_s: Longest wait.
        retry_after_s: What the server asked for, if anything.
        rng: Random source, for tests.

    Returns:
        Seconds to sleep.
    """
    if retry_after_s is not None:
        return min(retry_after_s, max_s)
    step = min(max_s, base_s * (2.0**attempt))
    draw = (rng or random).random()
    return step / 2.0 + draw * step / 2.0
