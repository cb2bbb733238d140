"""``umb eval``: evaluate memory systems with a model on a benchmark (resumable)."""

from __future__ import annotations

from pathlib import Path

import click

from umb._cli._options import (
    COUNT,
    ListedHelp,
    endpoint_options,
    endpoint_urls,
    executor_config,
    executor_options,
    judge_scorer_list,
    llamacpp_options,
    memory_system_list,
    model_form_list,
    peer_answer_scorer_list,
)
from umb._cli._progress import progress_option
from umb._errors import AllCallsFailed
from umb.memory import MemoryConfig


@click.command(name="eval")
@click.option(
    "--bench",
    type=click.Path(path_type=Path),
    required=True,
    help="Benchmark directory (umb generate / umb import).",
)
@click.option(
    "--system",
    "systems",
    required=True,
    cls=ListedHelp,
    listing=memory_system_list,
    help="Memory system(s), comma-separated, e.g. full_context,rag_bm25; registered: ",
)
@click.option(
    "--model",
    default="offline",
    show_default=True,
    cls=ListedHelp,
    listing=model_form_list,
    help="Answerer: ",
)
@click.option(
    "--judge",
    cls=ListedHelp,
    listing=judge_scorer_list,
    help="Judge model (default: rules only): umb's free-text judge, or that of a judge scorer: ",
)
@click.option(
    "--scorer",
    default="umb",
    show_default=True,
    cls=ListedHelp,
    listing=peer_answer_scorer_list,
    help="umb (family rules) or a peer scorer: ",
)
@click.option(
    "--extractor",
    default="offline",
    show_default=True,
    help="The memory systems' own model (mem0_style, summary); offline = rule-based.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    required=True,
    help="Run directory; rerunning the same command resumes it.",
)
@click.option("--limit", type=COUNT, help="Only the first N questions of the benchmark.")
@endpoint_options(
    concurrency_help="Dialogues at once, and requests in flight per model and endpoint.",
    timeout_s=60.0,
    replicas=True,
)
@click.option(
    "--max-input-tokens",
    type=int,
    default=MemoryConfig.max_input_tokens,
    show_default=True,
    help="full_context drops the oldest sessions beyond this.",
)
@click.option(
    "--top-k",
    type=int,
    default=MemoryConfig.top_k,
    show_default=True,
    help="Units (RAG) or memories (mem0_style) retrieved per question.",
)
@click.option(
    "--granularity",
    type=click.Choice(["turn", "round", "session"]),
    default=MemoryConfig.granularity,
    show_default=True,
    help="RAG unit.",
)
@click.option(
    "--cache",
    "cache_path",
    type=click.Path(path_type=Path),
    help="Response cache file (default RUN/cache.sqlite).",
)
@click.option("--no-cache", is_flag=True, help="Do not read or write the response cache.")
@click.option(
    "--lenient",
    is_flag=True,
    help="Cut a JSON object out of surrounding prose (default: strict, scored 0).",
)
@click.option(
    "--structured-output",
    type=click.Choice(["auto", "on", "off"]),
    default="auto",
    show_default=True,
    help="Send each family's JSON schema as response_format: auto (where the backend takes "
    "one), on (insist), off.",
)
@llamacpp_options
@click.option("--retry-errors", is_flag=True, help="Ask again the questions whose call failed.")
@click.option("--seed", type=int, default=0, show_default=True, help="Bootstrap seed of the CIs.")
@click.option(
    "--no-trace",
    is_flag=True,
    help="Do not record memory operations (default: RUN/traces/<system>.jsonl.gz).",
)
@progress_option
@executor_options(unit="(system, dialogue)")
def eval_command(
    bench: Path,
    systems: str,
    model: str,
    judge: str | None,
    scorer: str,
    extractor: str,
    out: Path,
    limit: int | None,
    concurrency: int,
    base_url: tuple[str, ...],
    api_key_env: str,
    timeout_s: float,
    max_retries: int,
    max_input_tokens: int,
    top_k: int,
    granularity: str,
    cache_path: Path | None,
    no_cache: bool,
    lenient: bool,
    structured_output: str,
    n_ctx: int | None,
    threads: int | None,
    retry_errors: bool,
    seed: int,
    no_trace: bool,
    progress: bool | None,
    executor: str,
    workers: int,
    ray_address: str | None,
    ray_dashboard: bool,
) -> None:
    """Evaluate memory systems with a model on a benchmark; resumable, one record per question."""
    from umb.models import ModelOptions
    from umb.pipeline import evaluate
    from umb.run import (
        RUN_LOG,
        RunConfig,
        ScoringOptions,
        parse_granularity,
        parse_structured_output,
        parse_systems,
    )

    first_url, replicas = endpoint_urls(base_url)
    config = RunConfig(
        bench=bench,
        out=out,
        systems=parse_systems(systems),
        model=model,
        judge=judge,
        extractor=extractor,
        limit=limit,
        options=ModelOptions(
            base_url=first_url or ModelOptions().base_url,
            replicas=replicas,
            api_key_env=api_key_env,
            concurrency=concurrency,
            timeout_s=timeout_s,
            max_retries=max_retries,
            cache_path=cache_path,
            structured_output=parse_structured_output(structured_output),
            n_ctx=n_ctx,
            threads=threads,
        ),
        memory=MemoryConfig(
            top_k=top_k,
            granularity=parse_granularity(granularity),
            max_input_tokens=max_input_tokens,
        ),
        scoring=ScoringOptions(
            scorer=scorer, policy="lenient" if lenient else "strict", seed=seed
        ),
        executor=executor_config(executor, workers, ray_address, ray_dashboard),
        cache=not no_cache,
        retry_errors=retry_errors,
        trace=not no_trace,
    )
    log = out / RUN_LOG
    logged = _lines(log)
    outcome = evaluate(config, progress=progress)
    # Loaded once the run has its results: nothing before the first request waits on them.
    from umb._cli._summary import eval_summary, world_note
    from umb.report import format_leaderboard, format_native

    click.echo(format_leaderboard(outcome.results))
    summary = eval_summary(outcome.results, out)
    if summary:
        click.echo(f"\n{summary}")
    native = format_native(outcome.results)
    if native:
        click.echo(f"\nscored by {scorer}\n{native}")
    if note := world_note(bench):
        click.echo(f"umb: note: {note}", err=True)
    if _lines(log) > logged:
        click.echo(f"{_lines(log) - logged} warning(s) of other libraries in {log}", err=True)
    done = "" if outcome.results.get("complete") else " (incomplete)"
    click.echo(
        f"\n{outcome.written} records written, {outcome.skipped} already there{done}; "
        f"{out / 'results.json'} in {outcome.elapsed_s:.1f} s"
    )
    failures = outcome.failures
    if failures.all_failed:
        raise AllCallsFailed(
            f"every model call failed, the scores measure nothing: {failures.message()}"
        )
    if failures.any:
        click.echo(f"umb: warning: {failures.message()}", err=True)


def _lines(path: Path) -> int:
    """Lines in a text file (0 when there is none)."""
    if not path.exists():
        return 0
    with path.open("rb") as f:
        return sum(1 for _ in f)
