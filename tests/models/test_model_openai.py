"""The openai/<model> backend against a real OpenAI-compatible server process on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from pathlib import Path

import pytest

from umb.models import ModelOptions, ResponseCache, UsageMeter, load_model

FAST = {"backoff_base_s": 0.01, "backoff_max_s": 0.05}


def test_concurrency_limit_holds(server, ask, generate):
    server.control(latency=0.1)
    model = load_model("openai/m", options=ModelOptions(base_url=server.base_url, concurrency=4))
    started = time.perf_counter()
    results = generate(model, [ask(f"q{i}") for i in range(20)])
    elapsed = time.perf_counter() - started
    stats = server.stats()
    assert [r.error for r in results] == [None] * 20
    assert stats["requests"] == 20
    # The limit is reached (requests really overlap) and never exceeded.
    assert stats["max_in_flight"] == 4
    assert elapsed < 20 * 0.1 * 0.75  # one at a time would take 2 s


def test_results_keep_request_order_and_echo(server, ask, generate):
    model = load_model("openai/m", options=ModelOptions(base_url=server.base_url))
    results = generate(model, [ask(f"question {i}") for i in range(6)])
    assert [json.loads(r.text)["echo"] for r in results] == [f"question {i}" for i in range(6)]
    assert all(r.input_tokens > 0 and r.output_tokens > 0 for r in results)


def test_429_and_500_are_retried_then_succeed(server, ask, generate):
    server.set_rules(
        {"match": "rate", "status": 429, "times": 2},
        {"match": "crash", "status": 500, "times": 3},
        {"match": "gateway", "status": 503, "times": 1},
    )
    options = ModelOptions(base_url=server.base_url, max_retries=3, **FAST)
    results = generate(
        load_model("openai/m", options=options), [ask("rate"), ask("crash"), ask("gateway")]
    )
    assert [r.error for r in results] == [None, None, None]
    assert json.loads(results[1].text) == {"echo": "crash"}
    stats = server.stats()
    assert stats["statuses"] == {"200": 3, "429": 2, "500": 3, "503": 1}
    assert stats["rules_left"] == [0, 0, 0]


def test_retries_give_up_with_an_error_result(server, ask, generate):
    server.set_rules({"status": 500, "error": "boom"})
    options = ModelOptions(base_url=server.base_url, max_retries=2, **FAST)
    [result] = generate(load_model("openai/m", options=options), [ask("x")])
    assert result.text == ""
    assert result.error is not None
    assert "HTTP 500" in result.error and "3 attempts" in result.error
    assert server.stats()["requests"] == 3


def test_client_errors_are_not_retried(server, ask, generate):
    server.set_rules({"status": 404, "error": "no such model"})
    options = ModelOptions(base_url=server.base_url, max_retries=4, **FAST)
    [result] = generate(load_model("openai/m", options=options), [ask("x")])
    assert result.error is not None and "404" in result.error
    assert server.stats()["requests"] == 1


def test_retry_after_is_honoured(server, ask, generate):
    server.set_rules({"status": 429, "retry_after": "1", "times": 1})
    # Retry-After is capped at backoff_max_s, so leave room for it.
    options = ModelOptions(
        base_url=server.base_url, max_retries=2, backoff_base_s=0.01, backoff_max_s=5.0
    )
    started = time.perf_counter()
    [result] = generate(load_model("openai/m", options=options), [ask("x")])
    elapsed = time.perf_counter() - started
    assert result.error is None
    # Without Retry-After the first backoff would be at most 0.01 s.
    assert 1.0 <= elapsed < 3.0


def test_retry_after_is_capped(server, ask, generate):
    server.set_rules({"status": 429, "retry_after": "3600", "times": 1})
    options = ModelOptions(
        base_url=server.base_url, max_retries=1, backoff_base_s=0.01, backoff_max_s=0.2
    )
    started = time.perf_counter()
    [result] = generate(load_model("openai/m", options=options), [ask("x")])
    assert result.error is None
    assert time.perf_counter() - started < 2.0


def test_timeout_surfaces_as_error_not_exception(server, ask, generate):
    server.set_rules({"match": "slow", "latency": 5})
    options = ModelOptions(base_url=server.base_url, timeout_s=0.3, max_retries=1, **FAST)
    started = time.perf_counter()
    slow, fast = generate(load_model("openai/m", options=options), [ask("slow"), ask("fast")])
    elapsed = time.perf_counter() - started
    assert slow.text == "" and slow.error is not None and "timed out" in slow.error
    assert fast.error is None
    assert elapsed < 2.0
    assert server.stats()["requests"] == 3  # two attempts for the slow one


def test_garbage_output_passes_through_as_text(server, ask, generate):
    server.set_rules({"reply": "Sure! The answer is {not json"})
    [result] = generate(
        load_model("openai/m", options=ModelOptions(base_url=server.base_url)), [ask("x")]
    )
    assert result.error is None
    assert result.text == "Sure! The answer is {not json"


def test_malformed_http_body_is_an_error(server, ask, generate):
    server.set_rules({"malformed": True})
    [result] = generate(
        load_model("openai/m", options=ModelOptions(base_url=server.base_url)), [ask("x")]
    )
    assert result.text == ""
    assert result.error is not None and "malformed" in result.error


def test_json_mode_sent_and_dropped_when_rejected(server, ask, generate):
    model = load_model("openai/m", options=ModelOptions(base_url=server.base_url))
    generate(model, [ask("a"), ask("b", json_mode=False)])
    assert server.stats()["response_format_requests"] == 1

    server.reset()
    server.control(reject_response_format=True)
    model = load_model("openai/m", options=ModelOptions(base_url=server.base_url, concurrency=1))
    results = generate(model, [ask("a"), ask("b"), ask("c")])
    assert [r.error for r in results] == [None, None, None]
    stats = server.stats()
    # One rejected attempt, then the model stops asking for JSON mode.
    assert stats["statuses"] == {"200": 3, "400": 1}


def test_usage_falls_back_to_estimates(server, ask, generate):
    server.control(usage=False, default_reply="x" * 40)
    [result] = generate(
        load_model("openai/m", options=ModelOptions(base_url=server.base_url)), [ask("y" * 400)]
    )
    assert result.output_tokens == 10
    assert result.input_tokens == 4 + 100  # "Answer in JSON." is 15 characters


def test_overrides_reach_the_endpoint(server, ask, generate):
    options = ModelOptions(base_url=server.base_url, max_tokens=7, temperature=0.5)
    generate(load_model("openai/m", options=options), [ask("x", max_tokens=999)])
    [seen] = server.requests()
    assert seen["model"] == "m"
    assert seen["messages"][-1] == {"role": "user", "content": "x"}


def test_rerun_is_served_from_cache_with_zero_requests(server, ask, generate, tmp_path: Path):
    cache = tmp_path / "cache.sqlite"
    requests = [ask(f"cached {i}") for i in range(5)]
    meter = UsageMeter()
    options = ModelOptions(base_url=server.base_url, cache_path=cache)
    first = generate(load_model("openai/m", options=options, meter=meter), requests)
    assert server.stats()["requests"] == 5
    assert not any(r.cached for r in first)

    server.reset()
    again = generate(load_model("openai/m", options=options, meter=meter), requests)
    assert server.stats()["requests"] == 0
    assert all(r.cached and r.latency_s == 0.0 for r in again)
    assert [r.text for r in again] == [r.text for r in first]
    assert [r.input_tokens for r in again] == [r.input_tokens for r in first]
    usage = meter.to_dict()["answerer"]
    assert usage["requests"] == 10 and usage["cached"] == 5


def test_identical_requests_in_flight_are_sent_once(server, ask, generate, tmp_path: Path):
    server.control(latency=0.1)
    options = ModelOptions(base_url=server.base_url, cache_path=tmp_path / "c.sqlite")
    results = generate(load_model("openai/m", options=options), [ask("same")] * 4)
    assert server.stats()["requests"] == 1
    assert len({r.text for r in results}) == 1
    assert [r.cached for r in results].count(False) == 1


def test_errors_are_not_cached(server, ask, generate, tmp_path: Path):
    options = ModelOptions(
        base_url=server.base_url, cache_path=tmp_path / "c.sqlite", max_retries=0
    )
    server.set_rules({"status": 500, "times": 1})
    [failed] = generate(load_model("openai/m", options=options), [ask("flaky")])
    assert failed.error is not None
    [ok] = generate(load_model("openai/m", options=options), [ask("flaky")])
    assert ok.error is None and not ok.cached
    assert server.stats()["requests"] == 2


def test_cache_key_separates_base_url_and_model(server, ask, generate, tmp_path: Path):
    cache = tmp_path / "c.sqlite"
    generate(
        load_model("openai/a", options=ModelOptions(base_url=server.base_url, cache_path=cache)),
        [ask("x")],
    )
    generate(
        load_model("openai/b", options=ModelOptions(base_url=server.base_url, cache_path=cache)),
        [ask("x")],
    )
    other_url = server.url + "/v1/"  # same server, but a different spelling is not normalised away
    generate(
        load_model("openai/a", options=ModelOptions(base_url=other_url, cache_path=cache)),
        [ask("x")],
    )
    assert server.stats()["requests"] == 2


def test_api_key_is_sent_but_never_written(server, ask, generate, api_key, tmp_path: Path):
    options = ModelOptions(base_url=server.base_url, cache_path=tmp_path / "cache" / "r.sqlite")
    generate(load_model("openai/m", options=options), [ask(f"k{i}") for i in range(3)])
    assert server.stats()["authorization"] == [f"Bearer {api_key}"]
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name == "r.sqlite" for p in files)
    for path in files:
        assert api_key.encode() not in path.read_bytes(), path


def test_custom_key_variable(server, ask, generate, monkeypatch):
    monkeypatch.setenv("MY_ENDPOINT_KEY", "sk-other")
    options = ModelOptions(base_url=server.base_url, api_key_env="MY_ENDPOINT_KEY")
    generate(load_model("openai/m", options=options), [ask("x")])
    assert server.stats()["authorization"] == ["Bearer sk-other"]


def test_base_url_from_environment(server, ask, generate, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    [result] = generate(load_model("openai/m"), [ask("from env")])
    assert result.error is None
    assert server.stats()["requests"] == 1


def test_usage_meter_counts_errors_and_roles(server, ask, generate):
    server.set_rules({"match": "bad", "status": 400})
    meter = UsageMeter()
    options = ModelOptions(base_url=server.base_url, max_retries=0)
    generate(
        load_model("openai/j", role="judge", options=options, meter=meter), [ask("ok"), ask("bad")]
    )
    generate(load_model("openai/e", role="extractor", options=options, meter=meter), [ask("ok")])
    usage = meter.to_dict()
    assert set(usage) == {"judge", "extractor"}
    assert usage["judge"]["requests"] == 2 and usage["judge"]["errors"] == 1
    assert usage["extractor"]["errors"] == 0 and usage["extractor"]["output_tokens"] > 0
    assert usage["judge"]["latency_p50_s"] > 0


def test_answers_are_cached_as_they_arrive(server, ask, tmp_path: Path):
    server.set_rules({"match": "slow", "latency": 5})
    cache = tmp_path / "c.sqlite"
    model = load_model("openai/m", options=ModelOptions(base_url=server.base_url, cache_path=cache))

    async def interrupted() -> None:
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(model.generate([ask("fast"), ask("slow")]), timeout=0.5)
        await model.aclose()

    asyncio.run(interrupted())
    # The batch never finished, but the answer that did arrive is kept for the rerun.
    assert len(ResponseCache(cache)) == 1


def test_one_model_serves_several_event_loops(server, ask):
    model = load_model("openai/m", options=ModelOptions(base_url=server.base_url))
    for text in ("first", "second"):
        [result] = asyncio.run(model.generate([ask(text)]))
        assert json.loads(result.text) == {"echo": text}


def test_connect_asks_no_completion_and_the_requests_follow(server, ask):
    model = load_model("openai/m", options=ModelOptions(base_url=server.base_url, concurrency=3))

    async def connected_then_asked() -> list[str]:
        await model.connect()
        assert server.stats()["requests"] == 0  # GET /models only: no completion was asked
        results = await model.generate([ask(f"q{i}") for i in range(3)])
        await model.aclose()
        return [json.loads(r.text)["echo"] for r in results]

    assert asyncio.run(connected_then_asked()) == ["q0", "q1", "q2"]
    assert server.stats()["requests"] == 3


def test_connect_to_an_endpoint_that_is_down_is_quiet(ask):
    with socket.socket() as s:  # a port nothing listens on once the socket is closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    options = ModelOptions(base_url=f"http://127.0.0.1:{port}/v1", max_retries=0, timeout_s=2)
    model = load_model("openai/m", options=options)

    async def connected_then_asked() -> str | None:
        await model.connect()  # nothing to connect to: no error here
        [result] = await model.generate([ask("x")])
        await model.aclose()
        return result.error

    error = asyncio.run(connected_then_asked())
    assert error is not None and "connection error" in error
