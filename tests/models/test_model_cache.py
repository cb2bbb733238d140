"""The sqlite response cache."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from umb.models import GenerateRequest, GenerateResult, Message, ResponseCache, cache_key

REQUEST = GenerateRequest(messages=(Message("user", "When did Maya adopt Biscuit?"),))


def test_key_covers_generation_parameters_but_not_task():
    base = cache_key("openai", "m", "http://x/v1", REQUEST)
    assert len(base) == 64
    assert (
        cache_key(
            "openai",
            "m",
            "http://x/v1",
            GenerateRequest(messages=REQUEST.messages, task={"gold": 1}),
        )
        == base
    )
    variants = [
        cache_key("hf", "m", "http://x/v1", REQUEST),
        cache_key("openai", "m2", "http://x/v1", REQUEST),
        cache_key("openai", "m", "http://y/v1", REQUEST),
        cache_key(
            "openai",
            "m",
            "http://x/v1",
            GenerateRequest(messages=(Message("system", "When did Maya adopt Biscuit?"),)),
        ),
        cache_key(
            "openai", "m", "http://x/v1", GenerateRequest(messages=REQUEST.messages, max_tokens=5)
        ),
        cache_key(
            "openai",
            "m",
            "http://x/v1",
            GenerateRequest(messages=REQUEST.messages, temperature=0.7),
        ),
        cache_key(
            "openai",
            "m",
            "http://x/v1",
            GenerateRequest(messages=REQUEST.messages, json_mode=False),
        ),
    ]
    assert len({base, *variants}) == len(variants) + 1


def test_round_trip_marks_hits_cached(tmp_path: Path):
    cache = ResponseCache(tmp_path / "sub" / "c.sqlite")
    key = cache_key("openai", "m", "", REQUEST)
    assert cache.get(key) is None
    cache.put(
        key,
        "openai",
        "m",
        GenerateResult(text='{"a": 1}', input_tokens=9, output_tokens=3, latency_s=1.5),
    )
    hit = cache.get(key)
    assert hit == GenerateResult(
        text='{"a": 1}', input_tokens=9, output_tokens=3, latency_s=0.0, cached=True
    )
    cache.close()
    # Persisted: a new connection sees it.
    assert ResponseCache(tmp_path / "sub" / "c.sqlite").get(key) is not None


def test_errors_are_never_stored(tmp_path: Path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    cache.put("k", "openai", "m", GenerateResult(text="", error="HTTP 500"))
    assert cache.get("k") is None
    assert len(cache) == 0


def test_wal_mode(tmp_path: Path):
    ResponseCache(tmp_path / "c.sqlite")
    with sqlite3.connect(tmp_path / "c.sqlite") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_threads_share_one_cache(tmp_path: Path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    other = ResponseCache(tmp_path / "c.sqlite")  # a second connection, as another process has

    def write(offset: int) -> None:
        for i in range(50):
            target = cache if i % 2 else other
            target.put(f"{offset}-{i}", "openai", "m", GenerateResult(text=str(i)))

    threads = [threading.Thread(target=write, args=(t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(cache) == 200
    assert other.get("3-49") is not None
