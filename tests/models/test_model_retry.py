"""Retry-After parsing and backoff timing (pure functions)."""

from __future__ import annotations

import random
from datetime import datetime, timezone
from email.utils import format_datetime

import pytest

from umb.models._retry import backoff_delay, is_retryable_status, parse_retry_after


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503, 504, 529])
def test_retryable_statuses(status):
    assert is_retryable_status(status)


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_client_errors_are_final(status):
    assert not is_retryable_status(status)


def test_retry_after_seconds_and_fractions():
    assert parse_retry_after({"Retry-After": "7"}) == 7.0
    assert parse_retry_after({"retry-after": " 0.5 "}) == 0.5


def test_retry_after_ms_wins():
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25


def test_retry_after_http_date():
    now = datetime(2025, 3, 1, 12, 0, 0, tzinfo=timezone.utc).timestamp()
    later = format_datetime(datetime(2025, 3, 1, 12, 0, 42, tzinfo=timezone.utc), usegmt=True)
    assert parse_retry_after({"Retry-After": later}, now=now) == pytest.approx(42.0)
    earlier = format_datetime(datetime(2025, 3, 1, 11, 0, 0, tzinfo=timezone.utc), usegmt=True)
    assert parse_retry_after({"Retry-After": earlier}, now=now) == 0.0


@pytest.mark.parametrize("value", ["soon", "-3", ""])
def test_bad_retry_after_is_ignored(value):
    assert parse_retry_after({"Retry-After": value}) is None


def test_no_header():
    assert parse_retry_after({}) is None


def test_backoff_grows_with_jitter_and_caps():
    rng = random.Random(0)
    delays = [backoff_delay(a, base_s=1.0, max_s=8.0, rng=rng) for a in range(6)]
    steps = [1, 2, 4, 8, 8, 8]
    for delay, step in zip(delays, steps, strict=True):
        assert step / 2 <= delay <= step
    assert len(set(delays)) == len(delays)  # jittered, not a fixed schedule


def test_retry_after_wins_but_is_capped():
    assert backoff_delay(0, base_s=1.0, max_s=30.0, retry_after_s=12.0) == 12.0
    assert backoff_delay(0, base_s=1.0, max_s=30.0, retry_after_s=600.0) == 30.0
