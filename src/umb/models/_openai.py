"""``openai/<model>``: any OpenAI-compatible chat endpoint, spoken to over plain HTTP.

One request is ``POST {base_url}/chat/completions`` with a JSON body and a bearer key, sent by
the clients of :mod:`umb.models._http` (a lean keep-alive client for ``http://`` endpoints,
``httpx`` for ``https://`` ones); the OpenAI SDK is not used (importing it costs about a second
of every command's start). This module retries HTTP 408, 409, 429, 5xx, connection errors and
timeouts with jittered exponential backoff, honouring Retry-After. A request that still fails
comes back as a result with ``error`` set; :meth:`OpenAIModel.generate` never raises for an
endpoint failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import ssl
import sys
import time
from collections.abc import Awaitable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

import orjson

from umb._errors import ConfigError
from umb._tokens import estimate_tokens
from umb.models._api import GenerateRequest, GenerateResult
from umb.models._endpoints import EndpointPool
from umb.models._http import HTTPClient, RequestError, Response, TransportError, open_client
from umb.models._options import ModelOptions
from umb.models._retry import backoff_delay, is_retryable_status, parse_retry_after

T = TypeVar("T")

log = logging.getLogger("umb.models")

OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1"

# Sent when a custom endpoint needs no key: local servers ignore it, and a proxy that wants
# some Authorization header gets one.
_NO_KEY = "no-key"


class _Retryable(Exception):
    """One failed attempt that may succeed if repeated."""

    def __init__(self, reason: str, retry_after_s: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after_s = retry_after_s


class _Fatal(Exception):
    """A failure that repeating the request will not fix."""


class _BadRequest(_Fatal):
    """HTTP 400: the endpoint refused the request as sent."""


class OpenAIModel:
    """A chat model behind an OpenAI-compatible HTTP endpoint.

    Args:
        model: Model name as the endpoint knows it, e.g. ``gpt-4o-mini``.
        options: Endpoint, key variable, limits and retry policy.

    Raises:
        ConfigError: The model name is empty, or the official endpoint is used without a key.
    """

    provider = "openai"
    supports_json_schema = True

    def __init__(self, model: str, options: ModelOptions) -> None:
        if not model:
            raise ConfigError("openai/<model> needs a model name, e.g. openai/gpt-4o-mini")
        self.model = model
        self.spec = f"openai/{model}"
        self.options = options
        self.base_url = (options.base_url or OPENAI_DEFAULT_BASE_URL).rstrip("/")
        if not os.environ.get(options.api_key_env) and options.base_url is None:
            raise ConfigError(
                f"{self.spec} uses the OpenAI endpoint but ${options.api_key_env} is not set; "
                "set it, or point --base-url / $OPENAI_BASE_URL at a local server"
            )
        self.urls = (self.base_url, *(u.rstrip("/") for u in options.replicas))
        for url in self.urls:
            _check_url(url)
        # response_format forms this endpoint refused (HTTP 400, 422, or 500 naming the field);
        # not tried again.
        self._refused: set[str] = set()
        # The HTTP clients and semaphores belong to one event loop; a caller that runs several
        # loops in turn (asyncio.run per batch) gets fresh ones for each.
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pool: EndpointPool[HTTPClient] | None = None

    def _bind(self) -> EndpointPool[HTTPClient]:
        loop = asyncio.get_running_loop()
        if self._pool is None or self._loop is not loop:
            self._loop = loop
            self._pool = EndpointPool(self.urls, self.options.concurrency, self._client)
        return self._pool

    def _client(self, base_url: str) -> HTTPClient:
        # Read at call time and never kept anywhere but the client's memory.
        key = os.environ.get(self.options.api_key_env) or _NO_KEY
        return open_client(
            base_url,
            {"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
            timeout_s=self.options.timeout_s,
            # The endpoint's slots bound the requests in flight; every one of them keeps its
            # connection alive between requests.
            keep_alive=self.options.concurrency,
            # A plain-HTTP endpoint gets no TLS set-up (loading the CA bundle costs 0.07-0.2 s).
            tls=_tls_context() if base_url.startswith("https://") else None,
        )

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        """Answer every request concurrently (at most ``options.concurrency`` in flight)."""
        if len(requests) == 1:  # the runner's case: no task to schedule before the request
            return [await self._generate_one(requests[0])]
        return list(await asyncio.gather(*(self._generate_one(r) for r in requests)))

    async def connect(self) -> None:
        """Open each endpoint's connections, one per slot (``GET /models``, answers unused).

        The HTTP stack loads and the connections open before the run's work competes with
        them, so the first round of requests goes out at once instead of behind a job building
        its memory. Best effort: an endpoint that is down or has no ``/models`` fails its
        requests as it would have anyway.
        """
        timeout = min(self.options.timeout_s, 10.0)

        async def models(client: HTTPClient) -> None:
            with contextlib.suppress(TransportError, RequestError, asyncio.TimeoutError):
                await _within(client.get("/models"), timeout)

        clients = [e.client for e in self._bind().endpoints]
        await asyncio.gather(*(models(c) for c in clients for _ in range(self.options.concurrency)))

    async def aclose(self) -> None:
        """Close the HTTP clients of the current event loop."""
        if self._pool is not None and self._loop is asyncio.get_running_loop():
            for endpoint in self._pool.endpoints:
                await endpoint.client.aclose()
        self._pool = None
        self._loop = None

    async def _generate_one(self, request: GenerateRequest) -> GenerateResult:
        pool = self._bind()
        # The clock starts when the first attempt gets a slot: time queued behind the
        # concurrency limit is the caller's batching, not the endpoint's latency.
        started = 0.0
        attempts = self.options.max_retries + 1
        last_reason = ""
        endpoint = None
        for attempt in range(attempts):
            endpoint = pool.pick(avoid=endpoint)
            endpoint.in_flight += 1
            try:
                async with endpoint.slots:
                    if attempt == 0:
                        started = time.perf_counter()
                    result = await self._attempt(endpoint.client, request, started)
                pool.succeeded(endpoint)
                # Let the request that waited for this slot go out before the caller spends
                # its time on this answer (parse, score, record): the slot is busy sooner.
                await asyncio.sleep(0)
                return result
            except _Retryable as failure:
                last_reason = failure.reason
                delay = backoff_delay(
                    attempt,
                    base_s=self.options.backoff_base_s,
                    max_s=self.options.backoff_max_s,
                    retry_after_s=failure.retry_after_s,
                )
                pool.failed(endpoint, delay)
                if attempt + 1 == attempts:
                    break
                log.debug("%s: %s; retry %d in %.2f s", self.spec, failure.reason, attempt, delay)
                # Another healthy replica takes the retry at once; with none, wait (the slot
                # is released meanwhile, so other requests keep the endpoints busy).
                if pool.all_cooling():
                    await asyncio.sleep(delay)
            except _Fatal as failure:
                return self._failed(str(failure), started)
            finally:
                endpoint.in_flight -= 1
        return self._failed(f"{last_reason} (gave up after {attempts} attempts)", started)

    def _failed(self, reason: str, started: float) -> GenerateResult:
        log.info("%s: request failed: %s", self.spec, reason)
        return GenerateResult(text="", latency_s=time.perf_counter() - started, error=reason)

    def _formats(self, request: GenerateRequest) -> list[tuple[str, dict[str, Any] | None]]:
        """The ``response_format`` values to try for ``request``, best first, by name."""
        schema = request.json_schema
        ladder: list[tuple[str, dict[str, Any] | None]] = []
        if schema is not None:
            # OpenAI, vLLM and llama.cpp's C++ server take the json_schema form; llama-cpp-python's
            # server takes the schema inside json_object.
            ladder.append(
                ("json_schema", {"type": "json_schema",
                                 "json_schema": {"name": "answer", "schema": schema}})
            )  # fmt: skip
            ladder.append(("json_object+schema", {"type": "json_object", "schema": schema}))
            if self.options.structured_output == "on":
                # Insisted on: only the schema forms, and a refusal of both fails the call.
                return [f for f in ladder if f[0] not in self._refused] or ladder[-1:]
        if request.json_mode:
            ladder.append(("json_object", {"type": "json_object"}))
        ladder.append(("plain", None))
        return [f for f in ladder if f[0] not in self._refused]

    async def _attempt(
        self, client: HTTPClient, request: GenerateRequest, started: float
    ) -> GenerateResult:
        formats = self._formats(request)
        for k, (name, response_format) in enumerate(formats):
            try:
                response = await self._call(client, request, response_format)
                break
            except _BadRequest as e:
                if k + 1 == len(formats):
                    if response_format is not None and self.options.structured_output == "on":
                        raise _Fatal(f"{e} (the endpoint refused the JSON schema)") from e
                    raise
                # Some servers (older llama.cpp, a few proxies) reject response_format or one of
                # its forms; the prompt still asks for JSON, so step down and remember that.
                if name not in self._refused:
                    self._refused.add(name)
                    log.info("%s: endpoint rejects response_format %s", self.spec, name)
        return _to_result(response, request, time.perf_counter() - started)

    async def _call(
        self,
        client: HTTPClient,
        request: GenerateRequest,
        response_format: dict[str, Any] | None,
    ) -> bytes:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
        }
        if response_format is not None:
            body["response_format"] = response_format
        timeout = self.options.timeout_s
        try:
            # _within is the hard deadline: a socket timeout bounds each read, not the whole
            # response, so a server trickling bytes could otherwise hold a slot forever.
            response: Response = await _within(
                client.post("/chat/completions", orjson.dumps(body)), timeout
            )
        except asyncio.TimeoutError as e:
            raise _Retryable(f"timed out after {timeout:g} s") from e
        except TransportError as e:
            raise _Retryable(f"connection error: {_short(str(e))}") from e
        except RequestError as e:
            raise _Fatal(_short(str(e))) from e
        if response.is_success:
            return response.content
        status = response.status_code
        text = response.text
        reason = f"HTTP {status}: {_short(_error_message(text))}"
        if status in (400, 422):
            raise _BadRequest(reason)
        if response_format is not None and "response_format" in text:
            # llama-cpp-python's server answers a response_format it cannot parse with
            # HTTP 500 naming the field: a refusal of the shape, not a server fault.
            raise _BadRequest(reason)
        if is_retryable_status(status):
            raise _Retryable(reason, parse_retry_after(response.headers))
        raise _Fatal(reason)


async def _within(call: Awaitable[T], timeout_s: float) -> T:
    """``call``, cancelled after ``timeout_s`` (``asyncio.TimeoutError``)."""
    if sys.version_info >= (3, 11):
        # Runs in the caller's task: wait_for would schedule a task of its own, and the request
        # would wait for every other ready task (a job ingesting) before it is sent.
        async with asyncio.timeout(timeout_s):
            return await call
    return await asyncio.wait_for(call, timeout_s)


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """One CA bundle per process, shared by every https client."""
    import httpx

    return httpx.create_ssl_context()


def _check_url(url: str) -> None:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as e:
        raise ConfigError(f"endpoint URL {url!r} is not a valid URL: {e}") from e
    if parts.scheme not in ("http", "https"):
        raise ConfigError(f"endpoint URL {url!r} must start with http:// or https://")
    if not parts.hostname:
        raise ConfigError(f"endpoint URL {url!r} is not a valid URL: it names no host")


def _error_message(text: str) -> str:
    """The ``error.message`` of an OpenAI-style error body, else the body itself."""
    try:
        parsed = orjson.loads(text)
    except ValueError:
        return text
    error = parsed.get("error") if isinstance(parsed, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    return message if isinstance(message, str) and message else text


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _to_result(body: bytes, request: GenerateRequest, latency_s: float) -> GenerateResult:
    try:
        # Bytes straight to json, without decoding them to text first.
        parsed = orjson.loads(body)
        content = parsed["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as e:
        shown = _short(body.decode("utf-8", "replace"), 200)
        raise _Fatal(f"malformed response from endpoint: {shown!r}") from e
    text = content if isinstance(content, str) else ""
    usage = parsed.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    prompt_tokens = usage.get("prompt_tokens")
    completion_tokens = usage.get("completion_tokens")
    if not isinstance(prompt_tokens, int):
        prompt_tokens = sum(estimate_tokens(m.content) for m in request.messages)
    if not isinstance(completion_tokens, int):
        completion_tokens = estimate_tokens(text)
    return GenerateResult(
        text=text,
        input_tokens=prompt_tokens,
        output_tokens=completion_tokens,
        latency_s=latency_s,
    )
