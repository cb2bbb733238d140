"""``umb render`` says what the model wrote: a dry run sends nothing, and fallbacks are counted."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from scripted import write_rules

from umb._cli.main import cli
from umb.bench import Benchmark, benchmark_stats, format_stats
from umb.render import DialoguePlan
from umb.testing import OpenAIServer


def _args(bench: Path, out: Path, server: OpenAIServer, *extra: str) -> list[str]:
    return ["render", "--bench", str(bench), "--out", str(out), "--renderer-model",
            "openai/umb-test", "--base-url", server.base_url, "--max-retries", "0",
            "--no-progress", *extra]  # fmt: skip


def test_dry_run_sends_no_request_whatever_the_output_format(
    tiny_bench: Path, openai_server: OpenAIServer, tmp_path: Path
) -> None:
    for extra in (["--dry-run"], ["--dry-run", "--json"]):
        result = CliRunner().invoke(cli, _args(tiny_bench, tmp_path / "out", openai_server, *extra))
        assert result.exit_code == 0, result.output
    assert openai_server.stats()["requests"] == 0
    assert not (tmp_path / "out").exists()


def test_unusable_replies_leave_every_session_to_the_template(
    tiny_bench: Path, openai_server: OpenAIServer, tmp_path: Path
) -> None:
    openai_server.control(default_reply="Sure! Here is a lovely conversation, no JSON though.")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, _args(tiny_bench, out, openai_server, "--limit", "1"))
    assert result.exit_code == 0, result.output
    sessions = next(Benchmark.open(out).iter_dialogues()).sessions
    n = len(sessions)
    assert {s.rendered_by for s in sessions} == {"template"}
    assert f"0 of {n} sessions written by the model, {n} fell back to templates" in result.output
    assert "fact coverage: not measured" in result.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["counts"]["sessions_by_renderer"] == {"template": n}
    assert manifest["render"]["fact_coverage"] is None
    assert manifest["render"]["facts"]["required_facts"] == 0  # only model-written text counts
    assert manifest["render"]["fallback_sessions"] == n
    assert manifest["render"]["repair_requests"] == 0  # template text is never patched
    assert "every session fell back" in manifest["generator"]
    # Three attempts per session, each a broken reply; no verifier or repair call.
    assert openai_server.stats()["requests"] == 3 * n
    assert "sessions by renderer: template" in format_stats(benchmark_stats(Benchmark.open(out)))


def test_json_prints_the_outcome_of_a_real_render(
    tiny_bench: Path, tiny_plans: list[DialoguePlan], openai_server: OpenAIServer, tmp_path: Path
) -> None:
    openai_server.set_rules(*write_rules(tiny_plans[:1]))
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, _args(tiny_bench, out, openai_server, "--limit", "1", "--json")
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    n = len(tiny_plans[0].sessions)
    assert summary["counts"]["sessions_by_renderer"] == {"openai/umb-test": n}
    assert summary["render"]["fact_coverage"] == 1.0
    assert summary["rendered_now"] == 1
    assert summary["usage"]["renderer"]["requests"] == openai_server.stats()["requests"] > 0
    stats = benchmark_stats(Benchmark.open(out))
    assert stats["sessions_by_renderer"] == {"openai/umb-test": n}
