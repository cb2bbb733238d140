"""Options shared by the verbs that talk to a model endpoint."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

#: The largest count an option takes: what a C ``int64`` (SQLite, numpy) can hold.
MAX_COUNT = 2**63 - 1

#: A count of at least one (``--limit``, ``--concurrency``), refused at parse time when huge.
COUNT = click.IntRange(1, MAX_COUNT)
#: A count that may be zero (``--max-retries``).
COUNT0 = click.IntRange(0, MAX_COUNT)


class Seconds(click.ParamType):
    """A finite duration in seconds greater than zero (``nan``, ``inf`` and ``0`` refused)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, float):
            number = value
        else:
            try:
                number = float(value)
            except (TypeError, ValueError):
                self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(number) or number <= 0:
            self.fail(f"{value!r} is not a finite number of seconds above 0", param, ctx)
        return number


SECONDS = Seconds()


def endpoint_options(*, concurrency_help: str, timeout_s: float) -> Callable[[F], F]:
    """``--concurrency``, ``--base-url``, ``--api-key-env``, ``--timeout``, ``--max-retries``."""
    options = (
        click.option(
            "--concurrency", type=COUNT, default=8, show_default=True, help=concurrency_help
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
            type=SECONDS,
            default=timeout_s,
            show_default=True,
            help="Seconds per API request attempt.",
        ),
        click.option(
            "--max-retries",
            type=COUNT0,
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
