"""The model every caller gets: a backend plus cache, overrides and usage accounting."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence

from umb.models._api import GenerateRequest, GenerateResult, ModelAPI, Role
from umb.models._cache import ResponseCache, cache_key
from umb.models._usage import UsageMeter


class LoadedModel:
    """A backend wrapped with the response cache, generation overrides and a usage meter.

    Built by :func:`~umb.models.load_model`; implements :class:`~umb.models.ModelAPI`.
    Requests go to the backend one by one (the backend bounds concurrency), so each answer is
    cached the moment it arrives and an interrupted run loses nothing it already paid for.
    With a cache, identical requests in flight at the same time are sent once.

    Attributes:
        spec: The spec that built it.
        role: What the model is used as (answerer, judge, extractor, renderer).
        meter: Where its usage is counted.
        backend: The wrapped backend.
    """

    def __init__(
        self,
        backend: ModelAPI,
        *,
        role: Role,
        meter: UsageMeter,
        cache: ResponseCache | None = None,
        cache_identity: tuple[str, str, str] = ("", "", ""),
        max_tokens: int | None = None,
        temperature: float | None = None,
        send_schema: bool = True,
    ) -> None:
        self.spec = backend.spec
        self.role: Role = role
        self.meter = meter
        self.backend = backend
        self.cache = cache
        self._identity = cache_identity
        self._max_tokens = max_tokens
        self._temperature = temperature
        self._send_schema = send_schema
        self._pending: dict[str, asyncio.Future[GenerateResult]] = {}

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        """Answer every request in order; failures come back with ``error`` set."""
        results = await asyncio.gather(*(self._one(self._effective(r)) for r in requests))
        for result in results:
            self.meter.record(self.role, result)
        return list(results)

    async def connect(self) -> None:
        """Open the backend's connections ahead of the first request, if it keeps any."""
        connect = getattr(self.backend, "connect", None)
        if connect is not None:
            await connect()

    async def aclose(self) -> None:
        """Release the backend's connections, if it holds any."""
        close = getattr(self.backend, "aclose", None)
        if close is not None:
            await close()

    def _effective(self, request: GenerateRequest) -> GenerateRequest:
        changes: dict[str, object] = {}
        if self._max_tokens is not None and request.max_tokens != self._max_tokens:
            changes["max_tokens"] = self._max_tokens
        if self._temperature is not None and request.temperature != self._temperature:
            changes["temperature"] = self._temperature
        if not self._send_schema and request.json_schema is not None:
            changes["json_schema"] = None  # so the cache key is that of what was sent
        return dataclasses.replace(request, **changes) if changes else request  # type: ignore[arg-type]

    async def _send(self, request: GenerateRequest) -> GenerateResult:
        results = await self.backend.generate([request])
        return results[0]

    async def _one(self, request: GenerateRequest) -> GenerateResult:
        if self.cache is None:
            return await self._send(request)
        provider, model, base_url = self._identity
        key = cache_key(provider, model, base_url, request)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        pending = self._pending.get(key)
        if pending is not None and pending.get_loop() is asyncio.get_running_loop():
            try:
                shared = await asyncio.shield(pending)
            except asyncio.CancelledError:
                if not pending.cancelled():
                    raise  # this caller was cancelled
                return await self._one(request)  # the sender was cancelled; send it ourselves
            if shared.error is not None:
                return shared
            return dataclasses.replace(shared, latency_s=0.0, cached=True)
        future: asyncio.Future[GenerateResult] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            result = await self._send(request)
            self.cache.put(key, provider, model, result)
            future.set_result(result)
            return result
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as e:
            future.set_exception(e)
            # Waiters get the exception; mark it retrieved so an unshared future stays quiet.
            future.exception()
            raise
        finally:
            if self._pending.get(key) is future:
                del self._pending[key]
