"""Many endpoints for one model: two real test servers on 127.0.0.1, one of them failing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from umb import ConfigError, DataError
from umb._cli._options import endpoint_urls
from umb._cli.main import cli
from umb.models import ModelOptions, load_model
from umb.testing import OpenAIServer, running_server

FAST = {"backoff_base_s": 0.01, "backoff_max_s": 0.05}


@pytest.fixture(scope="module")
def replica() -> Iterator[OpenAIServer]:
    """A second server beside the session's ``openai_server``."""
    with running_server() as server:
        yield server


@pytest.fixture
def second(replica: OpenAIServer) -> OpenAIServer:
    replica.reset()
    return replica


def test_requests_spread_over_replicas_within_each_limit(server, second, ask, generate):
    server.control(latency=0.05)
    second.control(latency=0.05)
    options = ModelOptions(base_url=server.base_url, replicas=(second.base_url,), concurrency=3)
    model = load_model("openai/m", options=options)
    results = generate(model, [ask(f"q{i}") for i in range(24)])
    assert [r.error for r in results] == [None] * 24
    a, b = server.stats(), second.stats()
    assert a["requests"] + b["requests"] == 24
    assert a["requests"] >= 6 and b["requests"] >= 6  # both take a real share
    assert a["max_in_flight"] <= 3 and b["max_in_flight"] <= 3
    assert max(a["max_in_flight"], b["max_in_flight"]) == 3  # the limit is per endpoint


def test_retries_move_to_the_healthy_replica(server, second, ask, generate):
    second.set_rules({"status": 503, "error": "replica down"})
    options = ModelOptions(
        base_url=second.base_url, replicas=(server.base_url,), concurrency=2, max_retries=1,
        **FAST,
    )  # fmt: skip
    model = load_model("openai/m", options=options)
    results = generate(model, [ask(f"q{i}") for i in range(12)])
    assert [r.error for r in results] == [None] * 12  # one retry each is enough
    assert [json.loads(r.text)["echo"] for r in results] == [f"q{i}" for i in range(12)]
    failed = second.stats()
    assert failed["requests"] >= 1 and failed["statuses"] == {"503": failed["requests"]}
    assert server.stats()["requests"] == 12
    # The cache and the run header know the model by its first endpoint, whichever answered.
    assert model.spec == "openai/m"


def test_every_replica_failing_is_an_error_per_request(server, second, ask, generate):
    server.set_rules({"status": 500})
    second.set_rules({"status": 502})
    options = ModelOptions(base_url=server.base_url, replicas=(second.base_url,),
                           max_retries=2, **FAST)  # fmt: skip
    results = generate(load_model("openai/m", options=options), [ask("x"), ask("y")])
    assert all("gave up after 3 attempts" in (r.error or "") for r in results)
    assert server.stats()["requests"] + second.stats()["requests"] == 6


def test_urls_come_from_flags_and_files(tmp_path: Path) -> None:
    listed = tmp_path / "urls.txt"
    listed.write_text("# replicas\nhttp://b:8000/v1\n\nhttp://c:8000/v1  # rack 2\nhttp://a/v1\n")
    assert endpoint_urls(("http://a/v1", f"@{listed}")) == (
        "http://a/v1", ("http://b:8000/v1", "http://c:8000/v1")
    )  # fmt: skip
    assert endpoint_urls(()) == (None, ())
    listed.write_text("http://b/v1\nb:8000\n")
    with pytest.raises(DataError, match=r"urls\.txt:2: not an http\(s\) URL"):
        endpoint_urls((f"@{listed}",))
    with pytest.raises(ConfigError, match="cannot read"):
        endpoint_urls((f"@{tmp_path / 'missing.txt'}",))
    with pytest.raises(ConfigError, match="replicas need a base_url"):
        ModelOptions(base_url=None, replicas=("http://b/v1",))


def test_eval_with_two_base_urls_answers_every_question(
    server, second, demo_bench: Path, tmp_path: Path
) -> None:
    second.set_rules({"status": 503})
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, [
        "eval", "--bench", str(demo_bench), "--system", "no_context", "--model", "openai/m",
        "--base-url", second.base_url, "--base-url", server.base_url, "--out", str(out),
        "--limit", "10", "--max-retries", "2", "--no-progress", "--no-trace",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    assert len(records) == 10 and all(r["error"] is None for r in records)
    header = json.loads((out / "header.json").read_text())
    assert header["endpoint"]["base_url"] == second.base_url
    assert header["endpoint"]["replicas"] == [server.base_url]
