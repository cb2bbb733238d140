"""Options shared by the verbs that talk to a model endpoint."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from umb.run import ExecutorOptions

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


def executor_options(*, unit: str) -> Callable[[F], F]:
    """``--executor``, ``--workers``, ``--ray-address``."""
    options = (
        click.option(
            "--executor",
            type=click.Choice(["local", "ray"]),
            default="local",
            show_default=True,
            help=f"local: this process; ray: each {unit} unit as a Ray task (extra 'ray').",
        ),
        click.option(
            "--workers", type=int, default=1, show_default=True, help="Ray: units at once."
        ),
        click.option(
            "--ray-address",
            help="Ray: cluster to join (default $RAY_ADDRESS; none: start a local one).",
        ),
    )

    def decorate(fn: F) -> F:
        for option in reversed(options):
            fn = option(fn)
        return fn

    return decorate


def executor_config(kind: str, workers: int, address: str | None) -> ExecutorOptions:
    """The :class:`~umb.run.ExecutorOptions` of the executor flags."""
    from umb.run import ExecutorOptions

    defaults = ExecutorOptions()
    return ExecutorOptions(
        kind="ray" if kind == "ray" else "local",
        workers=workers,
        address=address or defaults.address,
    )
