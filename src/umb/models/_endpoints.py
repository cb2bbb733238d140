"""Replicas of one model behind several OpenAI-compatible endpoints: which one gets a request.

Each endpoint has its own limit of requests in flight. A request goes to the healthy endpoint
with the fewest requests in flight (ties: the first listed), so load spreads evenly and a slow
replica gets fewer requests. An endpoint that fails a retryable attempt is set aside for a
cool-down, and the retry goes to another replica at once; only when every replica is cooling
down does a request wait out the backoff.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

C = TypeVar("C")


@dataclass
class Endpoint(Generic[C]):
    """One replica: its URL, client, slots and health."""

    url: str
    client: C
    slots: asyncio.Semaphore
    in_flight: int = 0
    """Requests sent here and not yet answered, counting those waiting for a slot."""
    cooling_until: float = 0.0
    """``time.monotonic()`` before which the endpoint is passed over (after a failure)."""
    failures: int = field(default=0)
    """Retryable failures seen, for logs and tests."""


class EndpointPool(Generic[C]):
    """The endpoints of one model, bound to one event loop.

    Args:
        urls: Base URLs, the first being the model's identity (its cache key).
        concurrency: Requests in flight per endpoint.
        make_client: Builds the HTTP client of one base URL.
    """

    def __init__(
        self, urls: Sequence[str], concurrency: int, make_client: Callable[[str], C]
    ) -> None:
        self.endpoints = [Endpoint(u, make_client(u), asyncio.Semaphore(concurrency)) for u in urls]

    def pick(self, avoid: Endpoint[C] | None = None) -> Endpoint[C]:
        """The endpoint for the next attempt: healthy, not ``avoid`` if another will do."""
        now = time.monotonic()
        others = [e for e in self.endpoints if e is not avoid] or self.endpoints
        healthy = [e for e in others if e.cooling_until <= now] or others
        return min(healthy, key=lambda e: (e.in_flight, e.cooling_until))

    def all_cooling(self) -> bool:
        """Whether every endpoint failed recently (a retry should then wait)."""
        now = time.monotonic()
        return all(e.cooling_until > now for e in self.endpoints)

    def failed(self, endpoint: Endpoint[C], cool_down_s: float) -> None:
        """Set ``endpoint`` aside for ``cool_down_s`` after a retryable failure."""
        endpoint.failures += 1
        endpoint.cooling_until = time.monotonic() + cool_down_s

    def succeeded(self, endpoint: Endpoint[C]) -> None:
        """An answer came back: the endpoint is healthy again."""
        endpoint.cooling_until = 0.0
