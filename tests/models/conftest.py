"""Fixtures for the model layer: one real OpenAI-compatible server process per test session."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import pytest

from umb.models import GenerateRequest, GenerateResult, LoadedModel, Message
from umb.testing import OpenAIServer

SECRET_KEY = "sk-umb-test-5f1c2a9e-never-store-me"


@pytest.fixture
def server(openai_server: OpenAIServer, monkeypatch: pytest.MonkeyPatch) -> OpenAIServer:
    """The shared test server (reset), with a known API key in the environment."""
    monkeypatch.setenv("OPENAI_API_KEY", SECRET_KEY)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    return openai_server


def _ask(text: str, *, json_mode: bool = True, max_tokens: int = 64) -> GenerateRequest:
    return GenerateRequest(
        messages=(Message("system", "Answer in JSON."), Message("user", text)),
        max_tokens=max_tokens,
        json_mode=json_mode,
    )


def _generate(model: LoadedModel, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
    async def go() -> list[GenerateResult]:
        try:
            return await model.generate(requests)
        finally:
            await model.aclose()

    return asyncio.run(go())


@pytest.fixture
def ask() -> Callable[..., GenerateRequest]:
    """``ask(text, json_mode=True, max_tokens=64)``: a system + user request."""
    return _ask


@pytest.fixture
def generate() -> Callable[[LoadedModel, Sequence[GenerateRequest]], list[GenerateResult]]:
    """``generate(model, requests)``: one batch on a fresh event loop, then close the model."""
    return _generate


@pytest.fixture
def api_key() -> str:
    """The key the ``server`` fixture puts in ``$OPENAI_API_KEY``."""
    return SECRET_KEY
