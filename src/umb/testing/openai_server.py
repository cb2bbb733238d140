"""A real OpenAI-compatible HTTP server for tests and benchmarks (the ``testing`` extra).

Run it on its own::

    python -m umb.testing.openai_server --port 8011 --latency 0.05 --responder rules.json

or from Python with :func:`running_server`, which starts it as a subprocess on 127.0.0.1 with a
free port and hands back an :class:`OpenAIServer` handle (``base_url``, ``control``, ``stats``).

Endpoints:

- ``POST /v1/chat/completions``: answers per the script (see :class:`~umb.testing.Rule`);
  by default ``{"echo": "<last user message>"}`` as the completion text, ``latency`` seconds
  after the request arrived (reading and parsing it are part of that time, not added to it).
- ``POST /v1/embeddings``: one unit vector per input text, a deterministic hash of its words
  (:func:`~umb.testing._script.hash_embedding`), ``dimensions`` long (default 256); honours
  ``encoding_format`` ``float`` and ``base64``. Waits ``latency`` like completions; rules do
  not apply.
- ``GET /v1/models``: one model, named by the ``model`` setting.
- ``POST /_control``: JSON object of settings to change (``latency``, ``rules``,
  ``default_reply``, ``reject_response_format``, ``usage``, ``model``), plus
  ``"reset_stats": true`` to zero the counters. Returns the stats.
- ``POST /_reset``: back to the start-up settings, counters zeroed.
- ``GET /_stats``: requests, statuses, in-flight and max in-flight requests, when the first
  request arrived and the last one finished (``time.time()``), distinct
  Authorization headers and models seen, requests that carried ``response_format``, and the
  remaining uses of each rule.
- ``GET /_requests``: the last 200 requests (model, messages, status).
- ``GET /health``: ``ok``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import socket
import struct
import sys
import time
from pathlib import Path
from typing import Any

from umb._errors import ConfigError, MissingDependencyError
from umb._tokens import estimate_tokens
from umb.testing._process import READY_PREFIX, OpenAIServer, running_server
from umb.testing._script import (
    DEFAULT_EMBEDDING_DIMS,
    Script,
    Settings,
    hash_embedding,
    last_user_text,
    load_settings,
)

__all__ = ["READY_PREFIX", "OpenAIServer", "build_app", "main", "running_server"]


def build_app(script: Script) -> Any:
    """The Starlette app serving ``script``.

    Raises:
        MissingDependencyError: starlette is not installed.
    """
    try:
        from starlette.applications import Starlette
        from starlette.requests import Request
        from starlette.responses import JSONResponse, PlainTextResponse, Response
        from starlette.routing import Route
    except ImportError as e:
        raise MissingDependencyError("starlette", "testing") from e

    def error(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
        body = {"error": {"message": message, "type": "umb_test_server", "code": status}}
        return JSONResponse(body, status_code=status, headers=headers)

    async def completions(request: Request) -> Response:
        arrived = time.monotonic()
        stats = script.stats
        epoch = stats.begin()
        status = 500
        try:
            response = await _answer(request, arrived)
            status = response.status_code
            return response
        except _Disconnected:
            status = 499  # the client gave up (nginx's code for it)
            return PlainTextResponse("", status_code=499)
        finally:
            stats.end(status, epoch)

    async def _answer(request: Request, arrived: float) -> Response:
        stats, settings = script.stats, script.settings
        stats.authorization.add(request.headers.get("authorization", ""))
        try:
            body = await request.json()
            messages = body["messages"]
            if not isinstance(messages, list):
                raise TypeError("messages must be a list")
        except (ValueError, KeyError, TypeError) as e:
            return error(400, f"bad request body: {e}")
        model = str(body.get("model", ""))
        stats.models.add(model)
        has_format = "response_format" in body
        stats.response_format_requests += has_format
        shape = body.get("response_format")
        kind = shape.get("type") if isinstance(shape, dict) else None
        stats.recent.append(
            {"model": model, "messages": messages, "json_mode": has_format, "format": kind}
        )
        if settings.reject_response_format and has_format:
            return error(400, "response_format is not supported by this server")
        rule = script.pick(messages)
        latency = rule.latency if rule is not None and rule.latency is not None else None
        await _wait(request, settings.latency if latency is None else latency, arrived)
        if rule is not None and rule.status is not None:
            headers = {"retry-after": rule.retry_after} if rule.retry_after is not None else None
            return error(rule.status, rule.error, headers)
        if rule is not None and rule.malformed:
            return PlainTextResponse("<html><body>502 upstream hiccup", media_type="text/html")
        text = _reply_text(rule.reply if rule is not None else None, settings, messages)
        return JSONResponse(_completion(model, messages, text, settings.usage))

    async def embeddings(request: Request) -> Response:
        arrived = time.monotonic()
        stats = script.stats
        epoch = stats.begin()
        status = 500
        try:
            response = await _embed(request, arrived)
            status = response.status_code
            return response
        except _Disconnected:
            status = 499
            return PlainTextResponse("", status_code=499)
        finally:
            stats.end(status, epoch)

    async def _embed(request: Request, arrived: float) -> Response:
        stats = script.stats
        stats.authorization.add(request.headers.get("authorization", ""))
        try:
            body = await request.json()
            texts = _embedding_inputs(body["input"])
            dims = int(body.get("dimensions") or DEFAULT_EMBEDDING_DIMS)
            encoding = body.get("encoding_format") or "float"
            if dims < 1 or encoding not in ("float", "base64"):
                raise ValueError("dimensions must be >= 1; encoding_format float or base64")
        except (ValueError, KeyError, TypeError) as e:
            return error(400, f"bad request body: {e}")
        model = str(body.get("model", ""))
        stats.models.add(model)
        stats.embedding_requests += 1
        stats.embedding_inputs += len(texts)
        await _wait(request, script.settings.latency, arrived)
        data = []
        for i, text in enumerate(texts):
            vector = hash_embedding(text, dims)
            # base64 is what the openai client asks for by default: little-endian float32s.
            packed = base64.b64encode(struct.pack(f"<{dims}f", *vector)).decode("ascii")
            data.append(
                {
                    "object": "embedding",
                    "index": i,
                    "embedding": vector if encoding == "float" else packed,
                }
            )
        tokens = sum(estimate_tokens(t) for t in texts)
        return JSONResponse(
            {
                "object": "list",
                "data": data,
                "model": model,
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            }
        )

    async def control(request: Request) -> Response:
        try:
            raw = await request.json()
            if not isinstance(raw, dict):
                raise ConfigError("expected a JSON object of settings")
            script.control(raw)
        except (ValueError, TypeError, ConfigError) as e:
            return error(400, str(e))
        return JSONResponse(_stats(script))

    async def reset(request: Request) -> Response:
        script.reset()
        return JSONResponse(_stats(script))

    async def stats(request: Request) -> Response:
        return JSONResponse(_stats(script))

    async def recent(request: Request) -> Response:
        return JSONResponse(list(script.stats.recent))

    async def models(request: Request) -> Response:
        name = script.settings.model
        return JSONResponse(
            {"object": "list", "data": [{"id": name, "object": "model", "owned_by": "umb"}]}
        )

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok")

    return Starlette(
        routes=[
            Route("/v1/chat/completions", completions, methods=["POST"]),
            Route("/v1/embeddings", embeddings, methods=["POST"]),
            Route("/v1/models", models, methods=["GET"]),
            Route("/_control", control, methods=["POST"]),
            Route("/_reset", reset, methods=["POST"]),
            Route("/_stats", stats, methods=["GET"]),
            Route("/_requests", recent, methods=["GET"]),
            Route("/health", health, methods=["GET"]),
        ]
    )


class _Disconnected(Exception):
    """The client closed the connection while the server was still waiting."""


async def _wait(request: Any, seconds: float, arrived: float) -> None:
    # The latency counts from the request's arrival: the time spent reading and parsing its
    # body (and, under load, waiting for the other requests' turn) is part of it, not added.
    # Watch for the client hanging up while waiting, so a request scripted to hang past the
    # client's timeout ends (and leaves "in flight") as soon as the client has gone.
    seconds -= time.monotonic() - arrived
    if seconds <= 0:
        return
    sleeper = asyncio.ensure_future(asyncio.sleep(seconds))
    watcher = asyncio.ensure_future(_until_disconnect(request))
    done, pending = await asyncio.wait({sleeper, watcher}, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    if watcher in done:
        raise _Disconnected


async def _until_disconnect(request: Any) -> None:
    # The body has been read, so the next ASGI message is the disconnect (or, rarely, an empty
    # body chunk, which is skipped).
    while (await request.receive())["type"] != "http.disconnect":
        pass


def _embedding_inputs(raw: Any) -> list[str]:
    # Token-id inputs (lists of ints) are valid for OpenAI but mean nothing to a hash of words.
    if isinstance(raw, str):
        return [raw]
    if isinstance(raw, list) and raw and all(isinstance(t, str) for t in raw):
        return list(raw)
    raise TypeError("input must be a string or a non-empty list of strings")


def _reply_text(reply: str | None, settings: Settings, messages: list[dict[str, Any]]) -> str:
    if reply is not None:
        return reply
    if settings.default_reply is not None:
        return settings.default_reply
    return json.dumps({"echo": last_user_text(messages)[:200]})


def _completion(model: str, messages: list[dict[str, Any]], text: str, usage: bool) -> dict:
    body: dict[str, Any] = {
        "id": f"chatcmpl-umb-{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
    }
    if usage:
        prompt = sum(estimate_tokens(str(m.get("content", ""))) for m in messages)
        completion = estimate_tokens(text)
        body["usage"] = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }
    return body


def _stats(script: Script) -> dict[str, Any]:
    return {**script.stats.to_json(), "rules_left": script.rules_left()}


def main(argv: list[str] | None = None) -> None:
    """Command line: parse options, bind the socket, serve until SIGINT or SIGTERM."""
    parser = argparse.ArgumentParser(
        prog="python -m umb.testing.openai_server", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="port; 0 picks a free one")
    parser.add_argument("--latency", type=float, help="seconds before each answer")
    parser.add_argument("--responder", type=Path, help="JSON file: rules, or settings object")
    parser.add_argument("--default-reply", help="completion text when no rule replies")
    parser.add_argument(
        "--reject-response-format", action="store_true", help="answer 400 to JSON-mode requests"
    )
    args = parser.parse_args(argv)
    try:
        import uvicorn
    except ImportError as e:
        raise MissingDependencyError("uvicorn", "testing") from e
    settings = load_settings(args.responder) if args.responder else Settings()
    if args.latency is not None:
        settings.latency = args.latency
    if args.default_reply is not None:
        settings.default_reply = args.default_reply
    if args.reject_response_format:
        settings.reject_response_format = True
    # proto must say TCP: asyncio turns on TCP_NODELAY only for such sockets, and without it a
    # keep-alive connection stalls ~40 ms per response on delayed ACKs.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    host, port = sock.getsockname()[:2]
    config = uvicorn.Config(
        build_app(Script(settings)),
        log_level="warning",
        access_log=False,
        lifespan="off",
        backlog=4096,
        timeout_graceful_shutdown=2,
    )
    asyncio.run(_serve(uvicorn.Server(config), sock, f"http://{host}:{port}"))


async def _serve(server: Any, sock: socket.socket, url: str) -> None:
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            await task  # start-up failed: raise its error
            return
        await asyncio.sleep(0.01)
    print(READY_PREFIX + url, flush=True)
    await task


if __name__ == "__main__":
    try:
        main()
    except ConfigError as e:
        print(f"umb.testing.openai_server: error: {e}", file=sys.stderr)
        sys.exit(2)
