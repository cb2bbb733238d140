"""Fixtures of the memory-system tests."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def offline_embedder() -> Iterator[Any]:
    """wordllama loaded once for the whole session, with every network connection refused."""
    from umb.memory._index import load_embedder

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise OSError("network access in a memory test")

    original = socket.socket.connect
    socket.socket.connect = refuse  # type: ignore[method-assign]
    try:
        load_embedder.cache_clear()
        embedder = load_embedder()
    finally:
        socket.socket.connect = original  # type: ignore[method-assign]
    yield embedder
