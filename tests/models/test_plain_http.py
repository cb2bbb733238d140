"""The plain-HTTP client of the openai/<model> backend, against raw servers on 127.0.0.1.

The shared test server (uvicorn) covers the common case in test_model_http.py; these servers
are written byte by byte, to show what a real server may do that uvicorn does not: close a
kept-alive connection without a word, answer in chunks, go silent, hang up mid-answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import pytest

from umb.models._http import (
    HttpxClient,
    PlainHTTPClient,
    RequestError,
    TransportError,
    open_client,
    proxied,
)

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
OK_BODY = b'{"ok": true}'


async def _read_request(reader: asyncio.StreamReader) -> bytes:
    """One request's head and body (Content-Length framing), or b"" at the end of the stream."""
    head = await reader.readuntil(b"\r\n\r\n") if not reader.at_eof() else b""
    length = 0
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    return head + (await reader.readexactly(length) if length else b"")


def _answer(body: bytes = OK_BODY, status: str = "200 OK") -> bytes:
    return (f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body  # fmt: skip


@asynccontextmanager
async def _serving(handler: Handler) -> AsyncIterator[tuple[str, list[int]]]:
    """A server on a free port; yields its base URL and a list counting its connections."""
    connections: list[int] = []

    async def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        try:
            await handler(reader, writer)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(on_connect, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/v1", connections
    finally:
        server.close()


def test_a_kept_alive_connection_the_server_closed_is_replaced_without_an_error():
    async def one_answer_then_hang_up(reader, writer):  # no "Connection: close" said
        await _read_request(reader)
        writer.write(_answer())
        await writer.drain()

    async def go() -> tuple[list[int], int]:
        async with _serving(one_answer_then_hang_up) as (url, connections):
            client = PlainHTTPClient(url, {}, keep_alive=2)
            statuses = []
            for _ in range(3):
                statuses.append((await client.post("/chat/completions", b"{}")).status_code)
                await asyncio.sleep(0.05)  # the hang-up arrives while the connection is idle
            await client.aclose()
            return statuses, len(connections)

    assert asyncio.run(go()) == ([200, 200, 200], 3)


def test_a_connection_closed_between_check_and_use_is_sent_again():
    """The close arrives only after the request went out: still no error, one new connection."""
    served = []

    async def answers_then_hangs_up_on_the_next(reader, writer):
        if not served:
            await _read_request(reader)
            writer.write(_answer())
            await writer.drain()
            served.append(1)
            await _read_request(reader)  # reads the second request, then closes unanswered
            return
        while request := await _read_request(reader):
            assert b"POST /v1/chat/completions" in request
            writer.write(_answer())
            await writer.drain()

    async def go() -> tuple[int, int, int]:
        async with _serving(answers_then_hangs_up_on_the_next) as (url, connections):
            client = PlainHTTPClient(url, {}, keep_alive=2)
            first = await client.post("/chat/completions", b"{}")
            second = await client.post("/chat/completions", b"{}")
            await client.aclose()
            return first.status_code, second.status_code, len(connections)

    assert asyncio.run(go()) == (200, 200, 2)


def test_a_chunked_answer_and_its_headers_are_read_whole():
    async def chunked(reader, writer):
        await _read_request(reader)
        writer.write(b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n"
                     b"5\r\n{\"a\":\r\n3\r\n 1}\r\n0\r\n\r\n")  # fmt: skip
        await writer.drain()

    async def go():
        async with _serving(chunked) as (url, _):
            client = PlainHTTPClient(url, {}, keep_alive=1)
            response = await client.post("/chat/completions", b"{}")
            await client.aclose()
            return response

    response = asyncio.run(go())
    assert (response.status_code, response.is_success) == (429, False)
    assert response.content == b'{"a": 1}'
    assert response.headers["retry-after"] == "3"


def test_the_request_carries_the_path_the_headers_and_the_body():
    seen: list[bytes] = []

    async def record(reader, writer):
        seen.append(await _read_request(reader))
        writer.write(_answer())
        await writer.drain()

    async def go() -> None:
        async with _serving(record) as (url, _):
            client = PlainHTTPClient(url, {"Authorization": "Bearer k"}, keep_alive=1)
            await client.post("/chat/completions", b'{"x": 1}')
            await client.aclose()

    asyncio.run(go())
    head, _, body = seen[0].partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    assert lines[0] == b"POST /v1/chat/completions HTTP/1.1"
    assert b"Authorization: Bearer k" in lines and b"Content-Length: 8" in lines
    assert any(line.startswith(b"Host: 127.0.0.1:") for line in lines)
    assert body == b'{"x": 1}'


def test_a_hang_up_mid_answer_is_a_transport_error_and_a_deadline_frees_the_connection():
    async def half(reader, writer):
        await _read_request(reader)
        writer.write(_answer()[:-4])  # the body's last bytes never come
        await writer.drain()

    async def silent(reader, writer):
        await _read_request(reader)
        await asyncio.sleep(5)

    async def go() -> None:
        async with _serving(half) as (url, _):
            client = PlainHTTPClient(url, {}, keep_alive=1)
            with pytest.raises(TransportError):
                await client.post("/chat/completions", b"{}")
            await client.aclose()
        async with _serving(silent) as (url, _):
            client = PlainHTTPClient(url, {}, keep_alive=1)
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(client.post("/chat/completions", b"{}"), 0.2)
            assert client._idle == []  # the cancelled exchange's connection was not kept
            await client.aclose()

    asyncio.run(go())


def test_a_refused_connection_is_a_transport_error():
    async def go() -> None:
        async with _serving(lambda r, w: asyncio.sleep(0)) as (url, _):
            pass  # closed: nothing listens on its port now
        client = PlainHTTPClient(url, {}, keep_alive=1)
        with pytest.raises(TransportError):
            await client.get("/models")

    asyncio.run(go())


def test_only_plain_http_without_a_proxy_gets_the_plain_client(monkeypatch):
    for name in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)

    def kind(url: str) -> type:
        return type(open_client(url, {}, timeout_s=5, keep_alive=1))

    assert kind("http://127.0.0.1:8000/v1") is PlainHTTPClient
    assert kind("https://api.example.org/v1") is HttpxClient
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.invalid:3128")
    assert proxied("http://10.0.0.7:8000/v1")
    assert kind("http://10.0.0.7:8000/v1") is HttpxClient
    monkeypatch.setenv("NO_PROXY", "10.0.0.7")
    assert kind("http://10.0.0.7:8000/v1") is PlainHTTPClient
    with pytest.raises(RequestError):
        PlainHTTPClient("https://api.example.org/v1", {}, keep_alive=1)
