"""Options of the LLM renderer, shared by ``umb render`` and ``umb generate --renderer llm``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from umb._cli._options import endpoint_options

F = TypeVar("F", bound=Callable[..., Any])

_OPTIONS = (
    click.option(
        "--renderer-model",
        help="Renderer model for --renderer llm: openai/<model> (any OpenAI-compatible "
        "endpoint, e.g. vLLM) or hf/<path>.",
    ),
    click.option("--verifier-model", help="Model that votes on facts matching cannot decide."),
    click.option(
        "--verifier-votes",
        type=int,
        default=3,
        show_default=True,
        help="Verifier votes per undecided fact; the majority decides.",
    ),
    click.option(
        "--repair-rounds",
        type=int,
        default=2,
        show_default=True,
        help="Rounds of repair for facts the audit finds missing.",
    ),
    click.option(
        "--write-attempts",
        type=int,
        default=3,
        show_default=True,
        help="Tries per session when a reply is broken or leaks a later fact.",
    ),
    click.option(
        "--cache",
        "cache_path",
        type=click.Path(path_type=Path),
        help="Response cache file (default OUT/render/cache.sqlite).",
    ),
    click.option("--no-cache", is_flag=True, help="Do not read or write the response cache."),
    click.option(
        "--dry-run", is_flag=True, help="Print an estimate of calls and tokens, then stop."
    ),
)


_ENDPOINT = endpoint_options(
    concurrency_help="Requests in flight; dialogues run concurrency/4 at a time.", timeout_s=300.0
)


def llm_render_options(f: F) -> F:
    """Add the LLM renderer's options to a click command."""
    for option in reversed(_OPTIONS):
        f = option(f)
    return _ENDPOINT(f)


def build_job(
    source: Path, out: Path, options: dict[str, Any], *, limit: int | None, progress: bool | None
) -> Any:
    """A :class:`umb.render.RenderJob` from the parsed options.

    Raises:
        ConfigError: No renderer model, or a bad setting.
    """
    from umb._errors import ConfigError
    from umb.render import Endpoint, LLMRenderConfig, RenderJob

    model = options.get("renderer_model")
    if not model:
        raise ConfigError("--renderer llm needs --renderer-model (e.g. openai/<model>)")
    config = LLMRenderConfig(
        model=model,
        verifier=options.get("verifier_model"),
        votes=options["verifier_votes"],
        repair_rounds=options["repair_rounds"],
        write_attempts=options["write_attempts"],
    )
    endpoint = Endpoint(
        base_url=options.get("base_url"),
        api_key_env=options["api_key_env"],
        concurrency=options["concurrency"],
        timeout_s=options["timeout_s"],
        max_retries=options["max_retries"],
        cache_path=options.get("cache_path"),
        cache=not options["no_cache"],
    )
    return RenderJob(source, out, config, endpoint, limit=limit, progress=progress)


def echo_outcome(outcome: Any, out: Path) -> None:
    """Print what a render did: counts, coverage, drops and model usage."""
    m = outcome.manifest
    c, r = m["counts"], m["render"]
    dropped = c.get("questions_dropped_per_family") or {}
    drops = ", ".join(f"{k} {v}" for k, v in dropped.items()) or "none"
    click.echo(
        f"wrote {out}: {c['dialogues']} dialogues, {c['sessions']} sessions, {c['turns']} turns, "
        f"{c['questions']} questions ({outcome.rendered} rendered now, {outcome.skipped} resumed)"
    )
    facts = r["facts"]
    click.echo(
        f"fact coverage {r['fact_coverage']:.2%}: {facts['found_by_match']} matched, "
        f"{facts['found_by_verifier']} verified, {facts['repaired']} repaired, "
        f"{facts['missing']} missing; questions dropped: {drops}"
    )
    click.echo("usage: " + json.dumps(outcome.usage))
