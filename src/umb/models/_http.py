"""The HTTP clients of the OpenAI-compatible backend: one small interface, two implementations.

A plain-HTTP endpoint (vLLM, llama.cpp, Ollama on ``http://``, usually local) is spoken to by
:class:`PlainHTTPClient`: keep-alive HTTP/1.1 over asyncio streams, the protocol parsed by
``h11``. It costs about 0.4 ms of CPU per request where ``httpx`` costs about 2.5 ms
(``benchmarks/http_client.py``), and every request of a run is handled on the one event loop
that also builds the prompts, so at a few hundred requests per second that difference is the
loop's time. It also imports in milliseconds, not the ~0.1 s of httpx with httpcore and anyio.

An ``https://`` endpoint, and any plain one a proxy from the environment applies to, keeps
``httpx`` (:class:`HttpxClient`): TLS, redirects and proxies are its job, and a hosted
endpoint's latency dwarfs the difference.

Both raise the same errors: :class:`TransportError` when the connection fails or breaks before
a whole response arrived, :class:`RequestError` when the request cannot be made, and
``asyncio.TimeoutError`` when httpx's socket timeouts run out. The caller bounds each request's
whole time itself (a cancelled request closes its connection).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlsplit

import h11

if TYPE_CHECKING:
    import httpx

#: Bytes asked of the socket per read: a chat completion usually arrives in one.
_READ_BYTES = 65536


class TransportError(Exception):
    """The connection could not be opened, or broke before the whole response arrived."""


class RequestError(Exception):
    """The request could not be made as asked (a bad URL, a protocol violation)."""


@dataclass(frozen=True, slots=True)
class Response:
    """A whole HTTP response; header names are lower-case."""

    status_code: int
    headers: dict[str, str]
    content: bytes

    @property
    def is_success(self) -> bool:
        return 200 <= self.status_code < 300

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")


class HTTPClient(Protocol):
    """What the backend asks of a client of one base URL (paths are relative to it)."""

    async def post(self, path: str, content: bytes) -> Response: ...

    async def get(self, path: str) -> Response: ...

    async def aclose(self) -> None: ...


def open_client(
    base_url: str,
    headers: dict[str, str],
    *,
    timeout_s: float,
    keep_alive: int,
    tls: ssl.SSLContext | None = None,
) -> HTTPClient:
    """The client for ``base_url``: the plain one where it applies (module docstring), else httpx.

    Args:
        base_url: ``http://`` or ``https://`` URL the paths are appended to.
        headers: Sent with every request (the key, the content type).
        timeout_s: httpx's per-operation timeout (the plain client has none of its own).
        keep_alive: Idle connections kept open for the next requests.
        tls: The TLS context of an https endpoint.
    """
    if base_url.startswith("http://") and not proxied(base_url):
        return PlainHTTPClient(base_url, headers, keep_alive=keep_alive)
    return HttpxClient(base_url, headers, timeout_s=timeout_s, keep_alive=keep_alive, tls=tls)


def proxied(url: str) -> bool:
    """Whether a proxy set in the environment (``HTTP_PROXY``, ``ALL_PROXY``) applies to ``url``.

    httpx honours these, so an endpoint they apply to keeps going through httpx.
    """
    names = ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY")
    if not any(os.environ.get(n) for n in names):
        return False
    from urllib.request import proxy_bypass  # NO_PROXY; imported only when a proxy is set

    return not proxy_bypass(urlsplit(url).hostname or "")


class _Connection:
    """One TCP connection and its HTTP/1.1 state."""

    __slots__ = ("reader", "writer", "protocol", "reused")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.protocol = h11.Connection(h11.CLIENT)
        self.reused = False

    def open(self) -> bool:
        return not (self.writer.is_closing() or self.reader.at_eof())

    def close(self) -> None:
        self.writer.close()


class _Stale(Exception):
    """A kept-alive connection the server had closed before it answered anything."""


class PlainHTTPClient:
    """Keep-alive HTTP/1.1 over asyncio streams to one ``http://`` base URL.

    A request takes an idle connection or opens one; a connection that completed its exchange
    (and was not told to close) goes back, up to ``keep_alive`` of them. A server may close an
    idle connection at any time: a request that finds its reused connection closed before any
    byte of the answer arrived is sent again on another, as browsers and httpx do.
    """

    def __init__(self, base_url: str, headers: dict[str, str], *, keep_alive: int) -> None:
        parts = urlsplit(base_url)
        if parts.scheme != "http" or not parts.hostname:
            raise RequestError(f"not a plain-HTTP URL: {base_url!r}")
        self._host = parts.hostname
        self._port = parts.port or 80
        self._prefix = parts.path.rstrip("/")
        netloc = parts.netloc.rpartition("@")[2]
        self._headers = [
            ("Host", netloc),
            *headers.items(),
            ("Accept-Encoding", "identity"),
        ]
        self._keep = keep_alive
        self._idle: list[_Connection] = []
        self._closed = False

    async def post(self, path: str, content: bytes) -> Response:
        return await self._request("POST", path, content)

    async def get(self, path: str) -> Response:
        return await self._request("GET", path, None)

    async def aclose(self) -> None:
        self._closed = True
        idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()
        for conn in idle:
            with contextlib.suppress(OSError):
                await conn.writer.wait_closed()

    async def _request(self, method: str, path: str, body: bytes | None) -> Response:
        headers = self._headers
        if body is not None:
            headers = [*headers, ("Content-Length", str(len(body)))]
        request = h11.Request(method=method, target=self._prefix + path, headers=headers)
        while self._idle:
            conn = self._idle.pop()
            if not conn.open():
                conn.close()
                continue
            try:
                return await self._exchange(conn, request, body)
            except _Stale:
                continue
        # A new connection is never stale: whatever breaks it is a TransportError.
        return await self._exchange(await self._connect(), request, body)

    async def _connect(self) -> _Connection:
        try:
            reader, writer = await asyncio.open_connection(self._host, self._port)
        except OSError as e:
            raise TransportError(str(e) or type(e).__name__) from e
        return _Connection(reader, writer)

    async def _exchange(
        self, conn: _Connection, request: h11.Request, body: bytes | None
    ) -> Response:
        protocol = conn.protocol
        answered = False
        try:
            data = protocol.send(request) or b""
            if body:
                data += protocol.send(h11.Data(data=body)) or b""
            data += protocol.send(h11.EndOfMessage()) or b""
            conn.writer.write(data)
            await conn.writer.drain()
            head: h11.Response | None = None
            chunks: list[bytes] = []
            while True:
                event = protocol.next_event()
                if event is h11.NEED_DATA:
                    received = await conn.reader.read(_READ_BYTES)
                    answered = answered or bool(received)
                    protocol.receive_data(received)
                elif type(event) is h11.Data:
                    chunks.append(event.data)
                elif type(event) is h11.Response:
                    head = event
                elif type(event) is h11.EndOfMessage:
                    break
                # An InformationalResponse (100 Continue) needs nothing.
        except (OSError, h11.RemoteProtocolError) as e:
            conn.close()
            if conn.reused and not answered:
                raise _Stale() from e
            raise TransportError(str(e) or type(e).__name__) from e
        except h11.LocalProtocolError as e:
            conn.close()
            raise RequestError(str(e)) from e
        except BaseException:  # cancelled (the caller's deadline) mid-exchange: unusable now
            conn.close()
            raise
        assert head is not None
        self._release(conn)
        return Response(
            head.status_code,
            {k.decode("latin-1"): v.decode("latin-1") for k, v in head.headers},
            b"".join(chunks),
        )

    def _release(self, conn: _Connection) -> None:
        protocol = conn.protocol
        if (
            not self._closed
            and len(self._idle) < self._keep
            and protocol.our_state is h11.DONE
            and protocol.their_state is h11.DONE
        ):
            protocol.start_next_cycle()
            conn.reused = True
            self._idle.append(conn)
        else:
            conn.close()


class HttpxClient:
    """:class:`HTTPClient` over ``httpx.AsyncClient`` (https, proxies, redirects)."""

    def __init__(
        self,
        base_url: str,
        headers: dict[str, str],
        *,
        timeout_s: float,
        keep_alive: int,
        tls: ssl.SSLContext | None,
    ) -> None:
        import httpx  # ~0.1 s: only endpoints that need it pay for it

        self._httpx = httpx
        https = base_url.startswith("https://")
        self._client = httpx.AsyncClient(
            base_url=base_url,
            headers=headers,
            timeout=timeout_s,
            # An https endpoint follows redirects as the OpenAI SDK does (a proxy moving the
            # API); httpx drops the key on a redirect to another host. A plain one follows
            # none, which could lead to https.
            verify=tls if tls is not None else https,
            follow_redirects=https,
            # Every slot keeps its connection alive between requests (httpx keeps 20 by
            # default, so a higher concurrency would open and close connections all run long).
            limits=httpx.Limits(max_connections=None, max_keepalive_connections=keep_alive),
        )

    async def post(self, path: str, content: bytes) -> Response:
        with self._errors():
            return _response(await self._client.post(path, content=content))

    async def get(self, path: str) -> Response:
        with self._errors():
            return _response(await self._client.get(path))

    async def aclose(self) -> None:
        await self._client.aclose()

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        """httpx's errors as this module's."""
        httpx = self._httpx
        try:
            yield
        except httpx.TimeoutException as e:
            raise asyncio.TimeoutError(str(e)) from e
        except httpx.TransportError as e:
            raise TransportError(str(e) or type(e).__name__) from e
        except (httpx.HTTPError, httpx.InvalidURL) as e:
            raise RequestError(f"{type(e).__name__}: {e}") from e


def _response(response: httpx.Response) -> Response:
    return Response(
        response.status_code,
        {k.lower(): v for k, v in response.headers.items()},
        response.content,
    )
