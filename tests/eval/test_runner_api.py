"""The runner against a real OpenAI-compatible server process on 127.0.0.1."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from umb.models import ModelOptions
from umb.run import RunConfig, read_records, run_eval
from umb.testing import OpenAIServer

SECRET = "sk-umb-runner-test-2b7f0c1d-never-store-me"
GOOD_REPLY = json.dumps({"answerable": False, "answer": "not mentioned"})


@pytest.fixture
def server(openai_server: OpenAIServer, monkeypatch: pytest.MonkeyPatch) -> OpenAIServer:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    return openai_server


def _config(bench: Path, out: Path, server: OpenAIServer, **kw: Any) -> RunConfig:
    values: dict[str, Any] = {
        "bench": bench,
        "out": out,
        "systems": ("no_context",),
        "model": "openai/umb-test",
        "limit": 12,
    }
    endpoint: dict[str, Any] = {
        "base_url": server.base_url,
        "concurrency": 4,
        "timeout_s": 5.0,
        "max_retries": 1,
        "cache_path": None,
    }
    for key in list(kw):
        if key in endpoint:
            endpoint[key] = kw.pop(key)
    values.update(kw)
    return RunConfig(**values, options=ModelOptions(**endpoint))


def test_garbage_output_is_counted_as_invalid_json(
    demo_bench: Path, tmp_path: Path, server: OpenAIServer
) -> None:
    server.control(default_reply="Sure! The answer is probably Biscuit.")
    results = run_eval(_config(demo_bench, tmp_path / "run", server), progress=False).results
    (group,) = results["groups"]
    assert group["invalid_json"] == 12 and group["invalid_json_rate"] == 1.0
    assert group["sample_weighted"]["mean"] == 0.0
    assert group["errors"] == 0
    for r in read_records(tmp_path / "run" / "records.jsonl"):
        assert r["parse_status"] == "invalid_json" and r["score"] == 0.0
        assert r["raw_output"] == "Sure! The answer is probably Biscuit."


def test_second_identical_run_is_served_from_the_cache(
    demo_bench: Path, tmp_path: Path, server: OpenAIServer
) -> None:
    server.control(default_reply=GOOD_REPLY)
    cache = tmp_path / "shared-cache.sqlite"
    first = run_eval(_config(demo_bench, tmp_path / "a", server, cache_path=cache), progress=False)
    assert server.stats()["requests"] == 12
    server.control(reset_stats=True)
    second = run_eval(_config(demo_bench, tmp_path / "b", server, cache_path=cache), progress=False)
    assert server.stats()["requests"] == 0
    a = {r["question_id"]: r for r in read_records(tmp_path / "a" / "records.jsonl")}
    b = {r["question_id"]: r for r in read_records(tmp_path / "b" / "records.jsonl")}
    assert a.keys() == b.keys()
    for qid in a:
        assert b[qid]["cached"] is True and a[qid]["cached"] is False
        assert (b[qid]["raw_output"], b[qid]["score"]) == (a[qid]["raw_output"], a[qid]["score"])
        assert b[qid]["prompt_sha256"] == a[qid]["prompt_sha256"]
    assert first.results["groups"][0]["families"] == second.results["groups"][0]["families"]
    assert second.results["usage"]["answerer"]["cached"] == 12


def test_no_api_key_reaches_any_file_of_the_run(
    demo_bench: Path, tmp_path: Path, server: OpenAIServer
) -> None:
    server.control(default_reply=GOOD_REPLY)
    out = tmp_path / "run"
    run_eval(_config(demo_bench, out, server, judge="openai/umb-test"), progress=False)
    assert server.stats()["authorization"] == [f"Bearer {SECRET}"]  # the key was used...
    files = [p for p in out.rglob("*") if p.is_file()]
    names = {p.name for p in files}
    assert {"header.json", "records.jsonl", "results.json", "cache.sqlite"} <= names
    for path in files:  # ...and written nowhere
        assert SECRET.encode() not in path.read_bytes(), path.name
    header = json.loads((out / "header.json").read_text())
    assert header["endpoint"] == {"base_url": server.base_url, "api_key_env": "OPENAI_API_KEY"}


def test_a_timeout_is_recorded_as_an_error_not_a_crash(
    demo_bench: Path, tmp_path: Path, server: OpenAIServer
) -> None:
    server.control(default_reply=GOOD_REPLY)
    # Only the question about Greta's concert hangs past the client's timeout.
    server.set_rules({"match": "concert Greta went to in September 2024", "latency": 3.0})
    config = _config(demo_bench, tmp_path / "run", server, timeout_s=0.4, max_retries=0, limit=3)
    results = run_eval(config, progress=False).results
    records = {r["question_id"]: r for r in read_records(tmp_path / "run" / "records.jsonl")}
    assert len(records) == 3
    failed = records["Q-D0001-IE-01"]
    assert failed["error"] and failed["parse_status"] == "error" and failed["score"] == 0.0
    assert failed["invalid_json"] is False
    assert all(records[q]["error"] is None for q in records if q != "Q-D0001-IE-01")
    assert results["groups"][0]["errors"] == 1
    assert results["usage"]["answerer"]["errors"] == 1


def test_retry_errors_asks_failed_questions_again(
    demo_bench: Path, tmp_path: Path, server: OpenAIServer
) -> None:
    server.set_rules({"status": 500, "times": 2})  # the first two attempts fail, for good
    config = _config(demo_bench, tmp_path / "run", server, limit=4, max_retries=0, concurrency=1)
    first = run_eval(config, progress=False)
    assert first.results["groups"][0]["errors"] == 2
    again = run_eval(dataclasses.replace(config, retry_errors=True), progress=False)
    assert (again.written, again.skipped) == (2, 2)
    records = read_records(tmp_path / "run" / "records.jsonl")
    assert len(records) == 4 and not any(r["error"] for r in records)


def test_requests_in_flight_stay_within_the_concurrency_limit(
    demo_bench: Path, tmp_path: Path, server: OpenAIServer
) -> None:
    server.control(default_reply=GOOD_REPLY, latency=0.1)
    # No cache: an abstention question gets the same empty prompt under both systems, and the
    # cache would send it once.
    config = _config(demo_bench, tmp_path / "run", server, limit=20, concurrency=3, cache=False,
                     systems=("no_context", "oracle_evidence"))  # fmt: skip
    run_eval(config, progress=False)
    stats = server.stats()
    assert stats["requests"] == 40
    assert stats["max_in_flight"] == 3
    assert not (tmp_path / "run" / "cache.sqlite").exists()


def test_the_judge_grades_free_text_and_a_failed_vote_leaves_the_item_unscored(
    demo_bench: Path, tmp_path: Path, server: OpenAIServer
) -> None:
    # The oracle answers with the gold, so every rule score is 1; the judge can only lower it.
    server.control(default_reply=json.dumps({"verdict": "partial", "reason": "half of it"}))
    config = _config(demo_bench, tmp_path / "partial", server, model="oracle",
                     judge="openai/umb-test", systems=("full_context",), limit=17)  # fmt: skip
    results = run_eval(config, progress=False).results
    families = results["groups"][0]["families"]
    assert families["IE"]["mean"] == 1.0  # not judged
    assert families["MSR"]["mean"] == families["ES"]["mean"] == families["MA"]["mean"] == 0.5
    judged = [r for r in read_records(tmp_path / "partial" / "records.jsonl")
              if r["family"] in ("MSR", "ES", "MA")]  # fmt: skip
    assert judged and all(r["scorer"].endswith("+j1") for r in judged)
    assert all(r["score_details"]["judge"]["votes"] == [0.5, 0.5, 0.5] for r in judged)
    assert results["usage"]["judge"]["requests"] == 3 * len(judged)

    server.control(default_reply="no idea")
    config = _config(demo_bench, tmp_path / "broken", server, model="oracle",
                     judge="openai/umb-test", systems=("full_context",), limit=17)  # fmt: skip
    group = run_eval(config, progress=False).results["groups"][0]
    assert group["unscored"] == len(judged)
    assert group["families"]["MSR"]["mean"] is None and group["families"]["IE"]["mean"] == 1.0
