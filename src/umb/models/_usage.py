"""Token, request and latency accounting per model role."""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from umb.models._api import GenerateResult, Role


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) of ``values`` with linear interpolation; 0.0 when empty.

    Args:
        values: Samples in any order.
        q: Percentile between 0 and 100.

    Returns:
        The interpolated percentile, matching ``numpy.percentile``'s default method.
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100.0
    low = math.floor(rank)
    high = math.ceil(rank)
    if low == high:
        return ordered[low]
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


@dataclass
class RoleUsage:
    """What one role (answerer, judge, extractor, renderer) has cost so far."""

    requests: int = 0
    """Every request asked of the model, cached or not, failed or not."""
    cached: int = 0
    """Requests answered from the response cache (no call made)."""
    errors: int = 0
    """Requests that came back with ``error`` set."""
    input_tokens: int = 0
    """Prompt tokens of successful requests that were actually sent."""
    output_tokens: int = 0
    """Completion tokens of successful requests that were actually sent."""
    cached_input_tokens: int = 0
    """Prompt tokens of requests served from the cache (not paid for again)."""
    cached_output_tokens: int = 0
    """Completion tokens of requests served from the cache."""
    latencies_s: list[float] = field(default_factory=list)
    """Wall time of each successful request that was sent (cache hits excluded)."""
    first_error: str | None = None
    """The error of the first failed request, so a summary can say why calls failed."""

    def add(self, result: GenerateResult) -> None:
        """Count one result."""
        self.requests += 1
        if result.error is not None:
            self.errors += 1
            self.first_error = self.first_error or result.error
            return
        if result.cached:
            self.cached += 1
            self.cached_input_tokens += result.input_tokens
            self.cached_output_tokens += result.output_tokens
            return
        self.input_tokens += result.input_tokens
        self.output_tokens += result.output_tokens
        self.latencies_s.append(result.latency_s)

    def to_dict(self, *, include_latencies: bool = False) -> dict[str, Any]:
        """A JSON-ready summary with p50/p95 latency (and every latency if asked)."""
        out: dict[str, Any] = {
            "requests": self.requests,
            "cached": self.cached,
            "errors": self.errors,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cached_input_tokens": self.cached_input_tokens,
            "cached_output_tokens": self.cached_output_tokens,
            "latency_p50_s": round(percentile(self.latencies_s, 50), 6),
            "latency_p95_s": round(percentile(self.latencies_s, 95), 6),
        }
        if self.first_error is not None:
            out["first_error"] = self.first_error
        if include_latencies:
            out["latencies_s"] = list(self.latencies_s)
        return out


#: Usage counters that add up across meters and invocations (latency percentiles do not).
SUMMED_COUNTS = (
    "requests",
    "cached",
    "errors",
    "input_tokens",
    "output_tokens",
    "cached_input_tokens",
    "cached_output_tokens",
)


class UsageMeter:
    """Usage per role, shared by every model a run loads.

    Pass one meter to each :func:`~umb.models.load_model` call of a run so the answerer, judge
    and extractor are counted side by side. Safe to update from several threads.

    Example:
        >>> meter = UsageMeter()
        >>> meter.record("judge", GenerateResult(text="{}", input_tokens=12, output_tokens=3))
        >>> meter.to_dict()["judge"]["requests"]
        1
    """

    def __init__(self) -> None:
        self._roles: dict[str, RoleUsage] = {}
        self._lock = threading.Lock()

    def record(self, role: Role, result: GenerateResult) -> None:
        """Count one result under ``role``."""
        with self._lock:
            self._roles.setdefault(role, RoleUsage()).add(result)

    def absorb(self, summary: dict[str, dict[str, Any]]) -> None:
        """Add another meter's ``to_dict(include_latencies=True)`` (one sent by a worker)."""
        with self._lock:
            for name, counts in summary.items():
                usage = self._roles.setdefault(name, RoleUsage())
                for key in SUMMED_COUNTS:
                    setattr(usage, key, getattr(usage, key) + int(counts.get(key, 0)))
                usage.latencies_s.extend(float(x) for x in counts.get("latencies_s", ()))
                usage.first_error = usage.first_error or counts.get("first_error")

    def role(self, role: Role) -> RoleUsage:
        """A copy of the usage of ``role`` (zeros if it made no request)."""
        with self._lock:
            usage = self._roles.get(role, RoleUsage())
            return RoleUsage(
                requests=usage.requests,
                cached=usage.cached,
                errors=usage.errors,
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
                cached_input_tokens=usage.cached_input_tokens,
                cached_output_tokens=usage.cached_output_tokens,
                latencies_s=list(usage.latencies_s),
                first_error=usage.first_error,
            )

    def roles(self) -> list[str]:
        """Roles that made at least one request, sorted."""
        with self._lock:
            return sorted(self._roles)

    def to_dict(self, *, include_latencies: bool = False) -> dict[str, dict[str, Any]]:
        """``{role: summary}`` for every role that made a request; see :meth:`RoleUsage.to_dict`."""
        with self._lock:
            return {
                name: usage.to_dict(include_latencies=include_latencies)
                for name, usage in sorted(self._roles.items())
            }
