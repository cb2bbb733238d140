"""Options of the LLM renderer, shared by ``umb render`` and ``umb generate --renderer llm``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from umb._cli._options import endpoint_options, llamacpp_options

F = TypeVar("F", bound=Callable[..., Any])

_OPTIONS = (
    click.option(
        "--renderer-model",
        help="Renderer model for --renderer llm: openai/<model> (any OpenAI-compatible "
        "endpoint, e.g. vLLM), hf/<path> or llamacpp/<file.gguf | name>.",
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
    return _ENDPOINT(llamacpp_options(f))


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
        threads=options.get("threads"),
        n_ctx=options.get("n_ctx"),
    )
    return RenderJob(source, out, config, endpoint, limit=limit, progress=progress)


def outcome_summary(outcome: Any) -> dict[str, Any]:
    """What a render did, as JSON: counts, who wrote the sessions, coverage, usage."""
    m = outcome.manifest
    return {
        "counts": m["counts"],
        "render": m["render"],
        "rendered_now": outcome.rendered,
        "resumed": outcome.skipped,
        "usage": outcome.usage,
    }


def echo_outcome(outcome: Any, out: Path, model: str, *, as_json: bool = False) -> None:
    """Print what a render did: counts, who wrote the sessions, coverage, drops and usage."""
    if as_json:
        click.echo(json.dumps(outcome_summary(outcome), indent=2))
        return
    m = outcome.manifest
    c, r = m["counts"], m["render"]
    dropped = c.get("questions_dropped_per_family") or {}
    drops = ", ".join(f"{k} {v}" for k, v in dropped.items()) or "none"
    click.echo(
        f"wrote {out}: {c['dialogues']} dialogues, {c['sessions']} sessions, {c['turns']} turns, "
        f"{c['questions']} questions ({outcome.rendered} rendered now, {outcome.skipped} resumed)"
    )
    by = c.get("sessions_by_renderer") or {}
    by_model, fell_back = by.get(model, 0), by.get("template", 0)
    click.echo(
        f"{by_model} of {c['sessions']} sessions written by the model, "
        f"{fell_back} fell back to templates"
    )
    facts = r["facts"]
    if r["fact_coverage"] is None:
        click.echo(f"fact coverage: not measured (no session written by the model); "
                   f"questions dropped: {drops}")  # fmt: skip
    else:
        click.echo(
            f"fact coverage {r['fact_coverage']:.2%} of the model-written sessions: "
            f"{facts['found_by_match']} matched, {facts['found_by_verifier']} verified, "
            f"{facts['repaired']} repaired, {facts['missing']} missing; questions dropped: {drops}"
        )
    click.echo("usage: " + json.dumps(outcome.usage))
    if fell_back:
        click.echo(
            f"umb: warning: {fell_back} of {c['sessions']} sessions kept the template text "
            "(every reply for them was unusable); see OUT/render/coverage.json",
            err=True,
        )
