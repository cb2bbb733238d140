"""``umb render`` and ``umb generate --renderer llm`` from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from scripted import write_rules

from umb import ConfigError
from umb._cli.main import cli
from umb.bench import check
from umb.render import DialoguePlan
from umb.testing import OpenAIServer


def test_dry_run_counts_one_call_per_session(
    tiny_bench: Path, tiny_plans: list[DialoguePlan], tmp_path: Path
) -> None:
    args = ["render", "--bench", str(tiny_bench), "--out", str(tmp_path / "out"),
            "--renderer-model", "openai/some-model", "--dry-run", "--json"]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    est = json.loads(result.output)
    sessions = sum(len(p.sessions) for p in tiny_plans)
    assert est["first_pass"]["calls"] == est["sessions"] == sessions
    assert est["first_pass"]["prompt_tokens"] > est["first_pass"]["system_prompt_tokens"] > 0
    assert est["upper_bounds"]["retry_calls"] == 2 * sessions
    assert est["upper_bounds"]["verifier_calls"] == 0
    assert not (tmp_path / "out").exists()  # a dry run writes nothing


def test_generate_llm_renders_on_the_template_skeleton(
    tiny_bench: Path,
    tiny_plans: list[DialoguePlan],
    openai_server: OpenAIServer,
    tmp_path: Path,
) -> None:
    openai_server.set_rules(*write_rules(tiny_plans))
    out = tmp_path / "llm"
    args = ["generate", "--characters", "2", "--seed", "3", "--target-tokens", "1000",
            "--out", str(out), "--renderer", "llm", "--renderer-model", "openai/umb-test",
            "--base-url", openai_server.base_url, "--no-progress"]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "fact coverage 100.00%" in result.output
    assert check(out).items == []
    for name in ("world.json", "facts.jsonl"):
        assert (out / name).read_bytes() == (tiny_bench / name).read_bytes()
    assert (out / "render" / "skeleton" / "dialogues.jsonl").read_bytes() == (
        tiny_bench / "dialogues.jsonl"
    ).read_bytes()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["generator"].endswith("llm renderer (openai/umb-test)")
    assert manifest["counts"]["questions_dropped_per_family"] == {}
    again = CliRunner().invoke(cli, args)
    assert "(0 rendered now, 2 resumed)" in again.output


def test_template_generate_is_untouched_by_the_new_options(
    tiny_bench: Path, tmp_path: Path
) -> None:
    # --no-audit: the library's bytes; the audit record the CLI adds is tested in tests/audit.
    args = ["generate", "--characters", "2", "--seed", "3", "--target-tokens", "1000",
            "--out", str(tmp_path / "t"), "--no-progress", "--no-audit"]  # fmt: skip
    assert CliRunner().invoke(cli, args).exit_code == 0
    for name in ("manifest.json", "dialogues.jsonl", "questions.jsonl"):
        assert (tmp_path / "t" / name).read_bytes() == (tiny_bench / name).read_bytes()
    assert not (tmp_path / "t" / "render").exists()


def test_bad_renderer_settings_are_one_line_errors(tiny_bench: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    base = ["render", "--bench", str(tiny_bench), "--out", str(tmp_path / "o")]
    missing = runner.invoke(cli, base)
    assert isinstance(missing.exception, ConfigError)
    assert "--renderer-model" in str(missing.exception)
    offline = runner.invoke(cli, [*base, "--renderer-model", "offline"])
    assert isinstance(offline.exception, ConfigError)
    same = runner.invoke(cli, [*base[:-1], str(tiny_bench), "--renderer-model", "openai/m"])
    assert isinstance(same.exception, ConfigError)
    result = subprocess.run(
        [sys.executable, "-m", "umb", "generate", "--out", str(tmp_path / "g"), "--dry-run"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "umb: error: --dry-run estimates model calls: use it with --renderer llm"
    )
