"""Options shared by the verbs that talk to a model endpoint."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def endpoint_options(*, concurrency_help: str, timeout_s: float) -> Callable[[F], F]:
    """``--concurrency``, ``--base-url``, ``--api-key-env``, ``--timeout``, ``--max-retries``."""
    options = (
        click.option(
            "--concurrency", type=int, default=8, show_default=True, help=concurrency_help
        ),
        click.option("--base-url", help="OpenAI-compatible endpoint (default $OPENAI_BASE_URL)."),
        click.option(
            "--api-key-env",
            default="OPENAI_API_KEY",
            show_default=True,
            help="Environment variable that holds the API key (never stored).",
        ),
        click.option(
            "--timeout",
            "timeout_s",
            type=float,
            default=timeout_s,
            show_default=True,
            help="Seconds per API request attempt.",
        ),
        click.option(
            "--max-retries",
            type=int,
            default=5,
            show_default=True,
            help="Retries per API request on 429, 5xx and timeouts.",
        ),
    )

    def decorate(fn: F) -> F:
        for option in reversed(options):
            fn = option(fn)
        return fn

    return decorate
