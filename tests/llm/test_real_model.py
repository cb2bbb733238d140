"""Every LLM path of umb against a real model: SmolLM2-135M-Instruct through llama.cpp.

The model is far too small to answer well, so these tests assert what must hold whatever it
says: every question answered or counted as an error, counts that add up, replies parsed or
counted invalid, a rerun served from the cache, coverage measured only over model-written text.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from llm_names import MODEL_SPEC, SERVED_NAME, THREADS

from umb._cli.main import cli
from umb.bench import TEMPLATE, Benchmark, Dialogue
from umb.memory import MemoryConfig
from umb.models import ModelOptions, load_model
from umb.render import LLMRenderConfig, LLMRenderer, load_worlds, plan_dialogue
from umb.run import RunConfig, RunOutcome, ScoringOptions, run_eval

pytestmark = pytest.mark.llm

QUESTIONS = 20
# Bounded schemas keep an answer under ~400 tokens; 256 is room for every family's fields.
MAX_TOKENS = 256
JUDGED = 8
SESSIONS = 1
# Short contexts (three turns) and answers keep 20 questions to seconds each on two cores.
MEMORY = MemoryConfig(top_k=3, granularity="turn")


def _eval(
    bench: Path,
    out: Path,
    model: str,
    *,
    judge: str | None = None,
    limit: int = QUESTIONS,
    **options: Any,
) -> RunOutcome:
    # Only the in-process model reads threads; a run that sets it for none is refused.
    threads = THREADS if "llamacpp/" in f"{model} {judge}" else None
    config = RunConfig(
        bench=bench, out=out, systems=("rag_bm25",), model=model, judge=judge, limit=limit,
        memory=MEMORY, max_tokens=MAX_TOKENS, scoring=ScoringOptions(judge_votes=1),
        options=ModelOptions(concurrency=1, max_retries=1, timeout_s=300.0, threads=threads,
                             **options),
    )  # fmt: skip
    return run_eval(config, progress=False)


def _check_run(outcome: RunOutcome, n: int = QUESTIONS) -> dict[str, Any]:
    """What holds for any model: the counts of records, errors, parses and usage agree."""
    return _check_results(outcome.results, outcome.run_dir, n)


def _check_results(results: dict[str, Any], run_dir: Path, n: int) -> dict[str, Any]:
    (group,) = results["groups"]
    assert results["records"] == group["n"] == n and results["complete"]
    records = _records(run_dir)
    assert len(records) == n
    for r in records:
        assert r["parse_status"] in ("ok", "invalid_json", "missing_fields", "error")
        assert r["invalid_json"] == (r["parse_status"] == "invalid_json")
        assert (r["parse_status"] == "error") == (r["error"] is not None)
        # A judge that gave no usable verdict leaves the score null, and says which judge it was.
        assert (r["score"] is None and r["judge_model"]) or 0.0 <= r["score"] <= 1.0
    assert group["errors"] == sum(r["error"] is not None for r in records)
    invalid = sum(r["invalid_json"] for r in records)
    assert group["invalid_json_rate"] == pytest.approx(invalid / n)
    usage = results["usage"]["answerer"]
    assert usage["requests"] == n == usage["cached"] + usage["errors"] + _sent(records)
    return group


def _sent(records: list[dict[str, Any]]) -> int:
    return sum(1 for r in records if r["error"] is None and not r["cached"])


def _records(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "records.jsonl").read_text().splitlines()]


def test_in_process_answers_20_questions_and_a_rerun_is_all_cache(
    demo_bench: Path, tmp_path: Path, model_file: Path
) -> None:
    cache = tmp_path / "cache.sqlite"
    first = _eval(demo_bench, tmp_path / "run", MODEL_SPEC, cache_path=cache)
    group = _check_run(first)
    assert first.failures.failed == 0 and group["errors"] == 0
    assert group["invalid_json_rate"] <= 0.10  # decoded under each family's JSON schema
    again = _eval(demo_bench, tmp_path / "rerun", MODEL_SPEC, cache_path=cache)
    _check_run(again)
    usage = again.results["usage"]["answerer"]
    assert usage["cached"] == usage["requests"] == QUESTIONS and usage["output_tokens"] == 0
    before = {r["question_id"]: r["raw_output"] for r in _records(first.run_dir)}
    after = {r["question_id"]: r["raw_output"] for r in _records(again.run_dir)}
    assert before == after


def test_umb_eval_through_llama_cpp_server_answers_20_questions(
    demo_bench: Path, tmp_path: Path, llama_server: str
) -> None:
    out = tmp_path / "run"
    args = ["eval", "--bench", str(demo_bench), "--system", "rag_bm25", "--model",
            f"openai/{SERVED_NAME}", "--base-url", llama_server, "--out", str(out), "--limit",
            str(QUESTIONS), "--top-k", "3", "--granularity", "turn", "--concurrency", "1",
            "--max-retries", "1", "--timeout", "300", "--no-progress"]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "umb: warning" not in result.output  # no failed call to warn about
    group = _check_results(json.loads((out / "results.json").read_text()), out, QUESTIONS)
    assert group["errors"] == 0
    assert group["invalid_json_rate"] <= 0.10
    row = next(line for line in result.output.splitlines() if line.startswith("rag_bm25"))
    assert row.split()[-3] == "0"  # columns end: invalid, errors, ctx tok, n


def test_the_judge_scores_free_text_with_the_real_model(
    demo_bench: Path, tmp_path: Path, llama_server: str
) -> None:
    # Gold answers (oracle) leave only the judge's calls to the model; the first eight demo
    # questions hold MSR and ES answers, whose free-text fields the judge reads.
    outcome = _eval(demo_bench, tmp_path / "run", "oracle", judge=f"openai/{SERVED_NAME}",
                    limit=JUDGED, base_url=llama_server)  # fmt: skip
    _check_run(outcome, JUDGED)
    judge = outcome.results["usage"]["judge"]
    assert judge["requests"] > 0 and judge["errors"] == 0
    judged = [r for r in _records(outcome.run_dir) if r["judge_model"]]
    assert judged and all(r["judge_model"] == f"openai/{SERVED_NAME}" for r in judged)


def test_the_mem0_library_extracts_with_the_real_model(
    demo_bench: Path, tmp_path: Path, llama_server: str
) -> None:
    pytest.importorskip(
        "mem0", reason="mem0ai is not installed: pip install 'unifiedmembench[mem0]'"
    )
    from umb.memory._mem0_lib import Mem0Library, Mem0Options

    bench = Benchmark.open(demo_bench)
    dialogue = next(bench.iter_dialogues())
    first = dialogue.sessions[:2]
    question = next(q for q in bench.questions if q.dialogue_id == dialogue.id)
    options = ModelOptions(base_url=llama_server, max_retries=1, timeout_s=300.0)
    extractor = load_model(f"openai/{SERVED_NAME}", role="extractor", options=options)
    system = Mem0Library(
        MemoryConfig(top_k=3),
        extractor,
        options=Mem0Options(run_dir=tmp_path, embedder="wordllama"),
    )
    system.start(Dialogue(dialogue.id, dialogue.character_id, dialogue.interlocutor, first))

    async def go() -> Any:
        for s in first:
            await system.ingest(s)
        return await system.retrieve(dataclasses.replace(question, asked_at="2100-01-01T00:00"))

    try:
        context = asyncio.run(go())
    finally:
        system.close()
    stats = context.meta["write_stats"]
    usage = extractor.meter.to_dict()["extractor"]
    # One extraction per session: answered, or failed and counted (the session then skipped).
    assert stats["llm_calls"] == usage["requests"] == 2
    assert stats["failed_calls"] == usage["errors"] == stats["skipped_batches"]
    assert len(context.item_ids) <= 3


def test_the_renderer_writes_one_character_and_counts_only_its_own_text(
    demo_bench: Path, model_file: Path
) -> None:
    bench = Benchmark.open(demo_bench)
    worlds, names = load_worlds(bench)
    skeleton = next(bench.iter_dialogues())
    seed = int(bench.manifest["config"]["seed"])
    full = plan_dialogue(seed, worlds[skeleton.character_id], skeleton, names)
    # The character's first session, one try and one repair round, keep the test to a few
    # minutes on two cores (a session is ~1,000 tokens of output for this model).
    plan = dataclasses.replace(full, sessions=full.sessions[:SESSIONS])
    short = dataclasses.replace(skeleton, sessions=skeleton.sessions[:SESSIONS])
    writer = load_model(MODEL_SPEC, role="renderer", options=ModelOptions(threads=THREADS))
    config = LLMRenderConfig(model=MODEL_SPEC, write_attempts=1, repair_rounds=1)
    rendered = asyncio.run(LLMRenderer(writer, config).render(plan, short))

    report = rendered.report
    by = report["sessions_by_renderer"]
    assert sum(by.values()) == SESSIONS and set(by) <= {TEMPLATE, MODEL_SPEC}
    assert [s.rendered_by for s in rendered.dialogue.sessions].count(MODEL_SPEC) == by.get(
        MODEL_SPEC, 0
    )
    model_written = [p for p, s in zip(plan.sessions, rendered.dialogue.sessions, strict=True)
                     if s.rendered_by == MODEL_SPEC]  # fmt: skip
    assert report["required_facts"] == sum(len(p.required_facts()) for p in model_written)
    found = report["found_by_match"] + report["found_by_verifier"]
    assert found + report["missing"] == report["required_facts"]
    assert report["fallback_sessions"] == by.get(TEMPLATE, 0)
    usage = writer.meter.to_dict()["renderer"]
    assert usage["requests"] == report["write_requests"] + report["repair_requests"]
    assert usage["errors"] == 0
