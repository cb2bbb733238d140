"""``umb attribute``: attribute every failed question of a traced run to its root cause."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click


def format_summary(summary: dict[str, Any]) -> str:
    """The counts per system × error type as a plain-text table."""
    types = [t for t in summary["error_types"] if summary["totals"].get(t)] or ["ResponseError"]
    short = {t: t.removesuffix("Error") or t for t in types}
    head = ["system", "failed", *(short[t] for t in types)]
    rows = [
        [system, str(entry["failed"]), *(str(entry["types"].get(t, 0)) for t in types)]
        for system, entry in summary["systems"].items()
    ]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in
                       enumerate(zip(r, widths, strict=True))) for r in [head, *rows]]  # fmt: skip
    return "\n".join([lines[0], "  ".join("-" * w for w in widths), *lines[1:]])


@click.command()
@click.argument("run", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option(
    "--bench",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="Benchmark directory (default: the one the run's header names).",
)
@click.option(
    "--check-model",
    help="Judge model asked whether a text states a fact where value matching cannot tell "
    "(openai/<model> or hf/<path>; default: value matching only).",
)
@click.option("--base-url", help="OpenAI-compatible endpoint of --check-model.")
@click.option(
    "--api-key-env",
    default="OPENAI_API_KEY",
    show_default=True,
    help="Environment variable holding the API key of --check-model.",
)
def attribute(
    run: Path, bench: Path | None, check_model: str | None, base_url: str | None, api_key_env: str
) -> None:
    """Attribute each failed question of RUN to an error type and its decisive faulty operation.

    Writes RUN/attributions.jsonl (one line per failed question) and
    RUN/attribution_summary.json (counts per system × error type). `umb eval` does this itself
    at the end of a traced run.
    """
    from umb.attribute import attribute_run

    if check_model is None:
        result = attribute_run(run, bench=bench, progress=None)
    else:
        from umb.attribute import LLMFactChecker
        from umb.models import ModelOptions, load_model

        options = ModelOptions(base_url=base_url or ModelOptions().base_url,
                               api_key_env=api_key_env)  # fmt: skip
        with LLMFactChecker(load_model(check_model, role="judge", options=options)) as checker:
            result = attribute_run(run, bench=bench, checker=checker, progress=None)
            click.echo(f"fact checks asked of {check_model}: {checker.calls}", err=True)
    click.echo(format_summary(result.summary))
    click.echo(
        f"{len(result.attributions)} failed questions attributed; {run / 'attributions.jsonl'}"
    )
