"""Options shared by the verbs that talk to a model endpoint."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from umb._errors import ConfigError, DataError

if TYPE_CHECKING:
    from umb.run import ExecutorOptions

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


def endpoint_options(
    *, concurrency_help: str, timeout_s: float, replicas: bool = False
) -> Callable[[F], F]:
    """``--concurrency``, ``--base-url``, ``--api-key-env``, ``--timeout``, ``--max-retries``.

    With ``replicas``, ``--base-url`` may be repeated (or name ``@FILE``, one URL a line) and
    the command receives a tuple of URLs (see :func:`endpoint_urls`).
    """
    if replicas:
        base_url = click.option(
            "--base-url",
            multiple=True,
            help="OpenAI-compatible endpoint (default $OPENAI_BASE_URL); repeat it, or give "
            "@FILE (one URL a line), to spread requests over replicas of the model.",
        )
    else:
        base_url = click.option(
            "--base-url", help="OpenAI-compatible endpoint (default $OPENAI_BASE_URL)."
        )
    options = (
        click.option(
            "--concurrency", type=COUNT, default=8, show_default=True, help=concurrency_help
        ),
        base_url,
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


def llamacpp_options(fn: F) -> F:
    """``--threads`` and ``--n-ctx``: how ``llamacpp/…`` models run in process."""
    fn = click.option(
        "--n-ctx",
        type=COUNT,
        help="llamacpp/… only: context size in tokens (default: the model's own).",
    )(fn)
    return click.option(
        "--threads",
        type=COUNT,
        help="llamacpp/… only: CPU threads of llama.cpp (default: its own choice).",
    )(fn)


def executor_options(*, unit: str) -> Callable[[F], F]:
    """``--executor``, ``--workers``, ``--ray-address``, ``--ray-dashboard``."""
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
            help="Ray: cluster to join (default $RAY_ADDRESS; none: start a local one, "
            "on 127.0.0.1 only).",
        ),
        click.option(
            "--ray-dashboard",
            is_flag=True,
            help="Ray: start the local cluster's dashboard too (on 127.0.0.1; ray[default]).",
        ),
    )

    def decorate(fn: F) -> F:
        for option in reversed(options):
            fn = option(fn)
        return fn

    return decorate


def executor_config(
    kind: str, workers: int, address: str | None, dashboard: bool = False
) -> ExecutorOptions:
    """The :class:`~umb.run.ExecutorOptions` of the executor flags."""
    from umb.run import ExecutorOptions

    defaults = ExecutorOptions()
    return ExecutorOptions(
        kind="ray" if kind == "ray" else "local",
        workers=workers,
        address=address or defaults.address,
        dashboard=dashboard,
    )


def endpoint_urls(values: tuple[str, ...]) -> tuple[str | None, tuple[str, ...]]:
    """``--base-url`` values -> (the first URL or None, the other replicas).

    ``@FILE`` reads one URL a line; blank lines and ``#`` comments are skipped.

    Raises:
        ConfigError: A file is unreadable or holds something that is not an http(s) URL.
    """
    urls: list[str] = []
    for value in values:
        if not value.startswith("@"):
            urls.append(value)
            continue
        path = Path(value[1:])
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as e:
            raise ConfigError(f"{path}: cannot read the URL file ({e.strerror})") from None
        for lineno, line in enumerate(lines, start=1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            if not text.startswith(("http://", "https://")):
                raise DataError(str(path), lineno, f"not an http(s) URL: {text!r}")
            urls.append(text)
    if not urls:
        return None, ()
    return urls[0], _rest(urls)


def _rest(urls: list[str]) -> tuple[str, ...]:
    # Each endpoint once, in the order given.
    return tuple(u for u in dict.fromkeys(urls) if u != urls[0])


class ListedHelp(click.Option):
    """An option whose help ends with the names a registry holds when the help is shown.

    The names are read only then (``--help``, an error's usage), so a plug-in's name is listed
    as soon as it is registered, and the CLI's start loads no registry.

    Args:
        listing: Returns the names' text, e.g. ``"locomo_f1, mem0_f1"``.
        help: The help before the names, ending where they go (``"... a peer scorer: "``).
    """

    def __init__(self, *args: Any, listing: Callable[[], str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._lead = self.help or ""
        self._listing = listing

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        self.help = f"{self._lead}{self._listing()}."
        return super().get_help_record(ctx)


def memory_system_list() -> str:
    """Every registered memory system, comma-separated."""
    from umb.memory import memory_system_names

    return ", ".join(memory_system_names())


def model_form_list() -> str:
    """The spec form of every registered model provider (``openai/<model>``)."""
    from umb.models import PROVIDERS

    forms = [PROVIDERS[name].form for name in PROVIDERS]
    return ", ".join(forms[:-1]) + f" or {forms[-1]}" if len(forms) > 1 else "".join(forms)


def peer_answer_scorer_list() -> str:
    """Every registered peer answer scorer, comma-separated."""
    from umb.scoring import answer_scorer_names

    return ", ".join(answer_scorer_names()[1:])


def judge_scorer_list() -> str:
    """The peer scorers that grade with ``--judge``, comma-separated."""
    from umb.scoring import JUDGE_SCORERS

    return ", ".join(JUDGE_SCORERS)


def scorer_list() -> str:
    """``umb``, every peer answer scorer, then every retrieval scorer."""
    from umb.scoring import answer_scorer_names, retrieval_scorer_names

    return ", ".join((*answer_scorer_names(), *retrieval_scorer_names()))
