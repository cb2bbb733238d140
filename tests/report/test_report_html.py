"""The HTML report: files, self-containment, extension points, and what Chromium shows."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from markupsafe import Markup

from umb import evaluate
from umb._cli.main import cli
from umb.models import ModelOptions
from umb.report import (
    QUESTION_DETAILS,
    SECTIONS,
    Entry,
    ReportContext,
    ReportOptions,
    Section,
    build_report,
    format_leaderboard,
    register_section,
)
from umb.run import RunConfig
from umb.testing import OpenAIServer

LIMIT = 30


@pytest.fixture(scope="module")
def runs(demo_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("report-runs")
    offline = RunConfig(bench=demo_bench, out=root / "offline", limit=LIMIT,
                        systems=("full_context", "no_context", "oracle_evidence"))  # fmt: skip
    oracle = RunConfig(bench=demo_bench, out=root / "oracle", limit=LIMIT,
                       systems=("full_context",), model="oracle")  # fmt: skip
    evaluate(offline, progress=False)
    evaluate(oracle, progress=False)
    return [root / "offline", root / "oracle"]


@pytest.fixture(scope="module")
def report(runs: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report")
    build_report(runs, out)
    return out


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def test_report_writes_the_page_and_each_plot_as_png_and_svg(report: Path) -> None:
    for name in ("overall", "families", "score_vs_tokens"):
        assert (report / "plots" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert b"<svg" in (report / "plots" / f"{name}.svg").read_bytes()[:2000]
    html = (report / "index.html").read_text(encoding="utf-8")
    section_ids = re.findall(r'<section id="([^"]+)"', html)
    expected = ["leaderboard", "memory-metrics", "families", "tokens", "invalid_json", "traces",
                "attributions", "questions", "runs", "glossary"]  # fmt: skip
    assert section_ids == expected
    # Self-contained: every picture is inline, nothing is fetched from anywhere.
    assert len(re.findall(r'<img alt="[^"]*" src="data:image/svg\+xml;base64,', html)) == 4
    assert not re.search(r'(src|href)="(https?:)?//', html)
    assert "<link" not in html and "<script src" not in html
    assert html.count('<details class="q"') == LIMIT


def test_report_renders_in_headless_chromium(report: Path) -> None:
    chromium = _chromium()
    if chromium is None:
        pytest.skip("chromium is not installed (CI installs it with apt)")
    result = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
         (report / "index.html").resolve().as_uri()],
        capture_output=True, text=True, timeout=90, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    dom = result.stdout
    board = r'<table class="leaderboard" id="leaderboard-table">(.*?)</table>'
    table = re.search(board, dom, re.DOTALL)
    assert table is not None, dom[:2000]
    systems = [
        s.replace("<wbr>", "") for s in re.findall(r'<td class="system">(.+?)</td>', table.group(1))
    ]
    assert sorted(systems) == ["full_context", "full_context", "no_context", "oracle_evidence"]
    assert "oracle" in table.group(1) and "offline" in table.group(1)
    first_row = re.search(r"<tbody>\s*<tr>(.*?)</tr>", table.group(1), re.DOTALL)
    assert first_row is not None and "oracle</td>" in first_row.group(1)  # 1.0 ranks first
    assert 'title="The mean of the family means' in dom
    assert '1.000<br><span class="ci">[1.000, 1.000]</span>' in dom
    assert dom.count('<details class="q"') == LIMIT
    assert '<section id="invalid_json">' in dom and '<section id="questions">' in dom


def test_sections_and_question_details_can_be_added(runs: list[Path], tmp_path: Path) -> None:
    def attribution(ctx: ReportContext) -> Section:
        n = sum(len(e.records) for e in ctx.data.entries)
        return Section("attribution", "Attribution", Markup(f'<p id="attr">{n} records</p>'))

    def detail(ctx: ReportContext, entry: Entry, record: dict[str, Any]) -> list[tuple[str, Any]]:
        return [("error type", Markup("<i>RetrievalError</i>"))] if record["score"] == 0 else []

    register_section("attribution", attribution, after="invalid_json")
    QUESTION_DETAILS.append(detail)
    try:
        written = build_report(runs, tmp_path, ReportOptions(max_questions=5))
    finally:
        SECTIONS.remove("attribution")
        QUESTION_DETAILS.remove(detail)
    html = written.index.read_text(encoding="utf-8")
    assert written.sections.index("attribution") == written.sections.index("invalid_json") + 1
    assert f'<p id="attr">{4 * LIMIT} records</p>' in html
    assert "<b>error type:</b> <i>RetrievalError</i>" in html
    assert html.count('<details class="q"') == 5 and f"5 of {LIMIT} questions" in html
    with pytest.raises(ValueError, match="no report section"):
        register_section("x", attribution, before="nowhere")


def test_invalid_json_examples_are_shown(
    demo_bench: Path, tmp_path: Path, openai_server: OpenAIServer
) -> None:
    openai_server.control(default_reply="I think it was <b>Biscuit</b>.")
    run = tmp_path / "api"
    evaluate(RunConfig(bench=demo_bench, out=run, systems=("no_context",), limit=4,
                       model="openai/umb-test",
                       options=ModelOptions(base_url=openai_server.base_url)),
             progress=False)  # fmt: skip
    html = build_report([run], tmp_path / "report").index.read_text(encoding="utf-8")
    table = re.search(r'<table id="invalid-table">(.*?)</table>', html, re.DOTALL)
    assert table is not None and "100.0%" in table.group(1)
    assert "I think it was &lt;b&gt;Biscuit&lt;/b&gt;." in html  # escaped, never markup


def test_a_run_without_results_is_reported_as_incomplete(runs: list[Path], tmp_path: Path) -> None:
    copy = tmp_path / "killed"
    shutil.copytree(runs[0], copy)
    (copy / "results.json").unlink()
    html = build_report([copy], tmp_path / "report").index.read_text(encoding="utf-8")
    assert "(incomplete)" in html and 'id="leaderboard-table"' in html


def test_text_leaderboard_ranks_by_task_balanced_score(runs: list[Path]) -> None:
    import json

    results = json.loads((runs[0] / "results.json").read_text())
    lines = format_leaderboard(results).splitlines()
    assert lines[0].split()[:2] == ["system", "model"]
    order = [line.split()[0] for line in lines[2:]]
    assert sorted(order) == ["full_context", "no_context", "oracle_evidence"]
    # Which system wins depends on the 30 questions drawn (one ABS question is a seventh of the
    # task-balanced mean); the order must follow the means, best first.
    means = {g["system"]: g["task_balanced"]["mean"] for g in results["groups"]}
    assert order == sorted(means, key=lambda s: -means[s])
    assert order[0] == "oracle_evidence"


def test_cli_report(runs: list[Path], tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["report", str(runs[0]), "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    assert "index.html" in result.output and (tmp_path / "r" / "index.html").exists()


def test_report_progress_counts_every_step(runs: list[Path], tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    build_report(runs, tmp_path / "r", progress=lambda done, total: seen.append((done, total)))
    done = [d for d, _ in seen]
    assert done == sorted(done) and all(d <= t for d, t in seen)
    assert seen[-1][0] == seen[-1][1] >= len(runs) + len(SECTIONS)


def test_cli_report_progress_is_written_as_lines_into_a_pipe(
    runs: list[Path], tmp_path: Path
) -> None:
    out = tmp_path / "r"
    result = CliRunner().invoke(cli, ["report", str(runs[0]), "--out", str(out), "--progress"])
    assert result.exit_code == 0, result.output
    lines = [x for x in result.stderr.splitlines() if x.startswith("report: ")]
    assert lines and lines[-1].endswith(" steps") and "\r" not in result.stderr
    last = lines[-1].removeprefix("report: ").removesuffix(" steps").split("/")
    assert last[0] == last[1]
