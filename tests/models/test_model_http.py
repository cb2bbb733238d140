"""The openai/<model> backend's HTTP layer: headers, error texts, connections, bad URLs."""

from __future__ import annotations

import asyncio
import socket
import time

import psutil
import pytest

from umb import ConfigError
from umb.models import ModelOnUse, ModelOptions, UsageMeter, load_model
from umb.models._openai import _error_message
from umb.testing.openai_server import _wait

FAST = {"backoff_base_s": 0.01, "backoff_max_s": 0.05}


def test_an_error_reads_as_status_and_the_servers_message(server, ask, generate):
    server.set_rules({"status": 404, "error": "no such model: m"})
    options = ModelOptions(base_url=server.base_url, max_retries=0, **FAST)
    [result] = generate(load_model("openai/m", options=options), [ask("x")])
    assert result.error == "HTTP 404: no such model: m"


def test_error_message_is_the_body_unless_openai_shaped():
    assert _error_message('{"error": {"message": "boom", "code": 500}}') == "boom"
    assert _error_message('{"detail": "Not Found"}') == '{"detail": "Not Found"}'
    assert _error_message('{"error": "flat"}') == '{"error": "flat"}'
    assert _error_message("<html>Bad Gateway</html>") == "<html>Bad Gateway</html>"


def test_without_a_key_the_placeholder_is_sent(server, ask, generate, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")
    [result] = generate(load_model("openai/m", options=ModelOptions(base_url=server.base_url)),
                        [ask("x")])  # fmt: skip
    assert result.error is None
    assert server.stats()["authorization"] == ["Bearer no-key"]


def test_a_refused_connection_is_retried_then_reported(ask, generate):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    options = ModelOptions(base_url=f"http://127.0.0.1:{port}/v1", max_retries=1, **FAST)
    [result] = generate(load_model("openai/m", options=options), [ask("x")])
    assert result.error is not None
    assert result.error.startswith("connection error: ")
    assert result.error.endswith("(gave up after 2 attempts)")


@pytest.mark.parametrize("url", ["localhost:8000/v1", "ftp://127.0.0.1/v1", "http://[::1/v1"])
def test_a_url_that_is_not_http_is_refused_at_load(url):
    with pytest.raises(ConfigError, match="endpoint URL"):
        load_model("openai/m", options=ModelOptions(base_url=url))


def _connections_to(port: int) -> int:
    established = psutil.CONN_ESTABLISHED
    return sum(1 for c in psutil.Process().net_connections("tcp")
               if c.raddr and c.raddr.port == port and c.status == established)  # fmt: skip


def test_every_slot_keeps_its_connection_alive(server, ask):
    """Above httpx's default of 20 kept-alive connections, none is dropped between batches."""
    server.control(latency=0.05)
    port = int(server.base_url.rsplit(":", 1)[1].split("/")[0])
    model = load_model("openai/m", options=ModelOptions(base_url=server.base_url, concurrency=32))

    async def go() -> list[int]:
        try:
            kept = []
            for batch in range(2):
                results = await model.generate([ask(f"{batch}-{i}") for i in range(32)])
                assert [r.error for r in results] == [None] * 32
                kept.append(_connections_to(port))
            return kept
        finally:
            await model.aclose()

    assert asyncio.run(go()) == [32, 32]
    assert server.stats()["max_in_flight"] == 32


def test_a_model_on_use_is_built_at_its_first_use_only() -> None:
    meter = UsageMeter()
    model = ModelOnUse(" offline ", role="extractor", meter=meter)
    assert model.spec == "offline" and model._model is None
    asyncio.run(model.aclose())  # never built: nothing to close
    assert model._model is None
    assert model.loaded.spec == "offline" and model.backend is model.loaded.backend
    asyncio.run(model.aclose())


def test_server_latency_counts_from_the_requests_arrival():
    class Connected:  # a client that never hangs up
        async def receive(self) -> dict[str, str]:
            await asyncio.Event().wait()
            return {"type": "http.disconnect"}

    async def waited(seconds: float, spent: float) -> float:
        started = time.monotonic()
        await _wait(Connected(), seconds, started - spent)
        return time.monotonic() - started

    # 0.3 s of latency of which 0.25 s went on reading the request: 0.05 s are left to wait.
    assert asyncio.run(waited(0.3, 0.25)) < 0.2
    assert asyncio.run(waited(0.3, 0.0)) >= 0.29
    assert asyncio.run(waited(0.3, 0.5)) < 0.05  # already late: answer at once
