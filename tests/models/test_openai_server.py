"""The scriptable OpenAI-compatible test server itself."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from umb import ConfigError
from umb.testing import Rule, Settings
from umb.testing._script import Script, load_settings

# The OpenAI SDK is the reference client that the server must satisfy; umb itself speaks
# plain HTTP, so the SDK comes only with the mem0 extra.
openai = pytest.importorskip("openai", reason="the OpenAI SDK comes with the mem0 extra")


def _client(server) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0, timeout=5)


def _say(client: openai.OpenAI, text: str, system: str = "sys") -> str:
    response = client.chat.completions.create(
        model="m",
        messages=[{"role": "system", "content": system}, {"role": "user", "content": text}],
    )
    return response.choices[0].message.content or ""


def test_rules_match_in_order_and_run_out(server):
    server.set_rules(
        {"match": "pet", "reply": '{"answer": "Biscuit"}', "times": 1},
        {"match": "EXTRACT", "in": "system", "reply": '{"facts": []}'},
        {"match": "pet", "reply": "second"},
    )
    client = _client(server)
    assert _say(client, "what is the pet's name?") == '{"answer": "Biscuit"}'
    assert _say(client, "what is the pet's name?") == "second"
    assert _say(client, "hello", system="EXTRACT facts") == '{"facts": []}'
    assert json.loads(_say(client, "hello")) == {"echo": "hello"}
    assert server.stats()["rules_left"] == [0, None, None]
    assert [r["messages"][-1]["content"] for r in server.requests()][-1] == "hello"


def test_default_reply_and_models(server):
    server.control(default_reply="fixed", model="served-name")
    assert _say(_client(server), "x") == "fixed"
    assert [m.id for m in _client(server).models.list()] == ["served-name"]


def test_control_rejects_unknown_keys(server):
    with pytest.raises(urllib.error.HTTPError) as info:
        server.control(latncy=1)
    assert info.value.code == 400


def test_reset_restores_startup_settings(server):
    server.control(default_reply="changed", rules=[{"status": 500}])
    server.reset()
    assert json.loads(_say(_client(server), "back")) == {"echo": "back"}
    assert server.stats()["requests"] == 1


def test_hanging_request_ends_when_client_leaves(server):
    server.set_rules({"latency": 30})
    client = openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0, timeout=0.2)
    with pytest.raises(openai.APITimeoutError):
        _say(client, "x")
    deadline = time.monotonic() + 3
    while server.stats()["in_flight"] and time.monotonic() < deadline:
        time.sleep(0.05)
    stats = server.stats()
    assert stats["in_flight"] == 0
    assert stats["statuses"] == {"499": 1}


def test_error_status_carries_retry_after(server):
    server.set_rules({"status": 429, "retry_after": 3, "error": "slow down"})
    with pytest.raises(openai.RateLimitError) as info:
        _say(_client(server), "x")
    assert info.value.response.headers["retry-after"] == "3"
    assert "slow down" in str(info.value)


def test_rule_validation():
    assert Rule.from_json({"match": "a", "times": 2}).times == 2
    for bad in ({"colour": 1}, {"times": 0}, {"status": 200}, {"in": "assistant"}):
        with pytest.raises(ConfigError):
            Rule.from_json(bad)


def test_script_spends_uses_and_resets():
    script = Script(Settings(rules=[Rule(match="a", times=1, reply="one")]))
    messages = [{"role": "user", "content": "a"}]
    rule = script.pick(messages)
    assert rule is not None and rule.reply == "one"
    assert script.pick(messages) is None
    script.reset()
    assert script.pick(messages) is not None


def test_responder_file_forms(tmp_path: Path):
    rules_only = tmp_path / "rules.json"
    rules_only.write_text(json.dumps([{"match": "x", "reply": "y"}]))
    assert load_settings(rules_only).rules[0].reply == "y"
    full = tmp_path / "full.json"
    full.write_text(json.dumps({"latency": 0.5, "rules": [], "default_reply": "z"}))
    settings = load_settings(full)
    assert (settings.latency, settings.default_reply) == (0.5, "z")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(ConfigError, match="broken.json"):
        load_settings(broken)


def test_command_line_serves_a_responder_file(tmp_path: Path):
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps([{"match": "ping", "reply": "pong"}]))
    command = [sys.executable, "-m", "umb.testing.openai_server", "--port", "0"]
    command += ["--responder", str(rules), "--latency", "0.01"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("UMB-OPENAI-SERVER READY http://127.0.0.1:")
        url = line.split()[-1]
        body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "ping?"}]})
        request = urllib.request.Request(
            url + "/v1/chat/completions",
            data=body.encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            reply = json.loads(response.read())
        assert reply["choices"][0]["message"]["content"] == "pong"
        assert reply["usage"]["completion_tokens"] == 1
    finally:
        proc.terminate()
        proc.communicate(timeout=10)
