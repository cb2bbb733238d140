"""``umb trace show`` / ``umb trace export``, and the evidence graphs in the HTML report."""

from __future__ import annotations

import html
import json
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from umb import ConfigError, evaluate
from umb._cli.main import cli
from umb.memory import MemoryConfig
from umb.report import ReportOptions, build_report
from umb.run import RunConfig, RunTraceView, read_records, trace_path
from umb.trace import read_trace, turn_var

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")

SYSTEMS = ("rag_bm25", "mem0_style")


@pytest.fixture(scope="module")
def run(demo_bench: Path, first_dialogue: int, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("trace-cli") / "run"
    # top_k 1 leaves rag_bm25 questions whose evidence it never retrieves, to trace.
    config = RunConfig(
        bench=demo_bench,
        out=out,
        systems=SYSTEMS,
        limit=first_dialogue,
        memory=MemoryConfig(top_k=1),
    )
    evaluate(config, progress=False)
    return out


@pytest.fixture(scope="module")
def failed(run: Path) -> dict[str, Any]:
    """A rag_bm25 question scored 0 whose evidence was never retrieved."""
    return next(
        r for r in read_records(run / "records.jsonl")
        if r["system"] == "rag_bm25" and r["score"] == 0 and r["family"] == "IE"
        and not r["evidence_in_context"]
    )  # fmt: skip


@contextmanager
def attributed(run: Path, record: dict[str, Any], op_id: str, path: list[str]) -> Iterator[None]:
    """Make the run's attributions one hand-written line; restore what was there after."""
    file = run / "attributions.jsonl"
    saved = file.read_bytes() if file.exists() else None
    line = {
        "question_id": record["question_id"],
        "system": record["system"],
        "error_type": "RetrievalError",
        "op_id": op_id,
        "reason": "not ranked",
        "path": path,
    }
    file.write_text(json.dumps(line) + "\n")  # fmt: skip
    try:
        yield
    finally:
        if saved is None:
            file.unlink()
        else:
            file.write_bytes(saved)


def trace_cmd(*args: str) -> Any:
    return CliRunner().invoke(cli, ["trace", *args])


@needs_dot
def test_show_writes_an_svg_with_the_question_nodes(run: Path, tmp_path: Path) -> None:
    qid = "Q-D0001-IE-01"
    out = tmp_path / "q.svg"
    result = trace_cmd("show", str(run), "--question", qid, "--system", "mem0_style",
                       "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    svg = html.unescape(out.read_text())
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    for label in (f"context:{qid} @1", f"answer:{qid} @1", f"query:{qid} @1", "retrieve"):
        assert label in svg, label


def test_show_needs_a_system_when_the_run_traced_several(run: Path) -> None:
    result = trace_cmd("show", str(run), "--question", "Q-D0001-IE-01")
    assert isinstance(result.exception, ConfigError)
    assert "choose one with --system" in str(result.exception)


def test_show_highlights_the_attributed_operation_off_the_lineage(
    run: Path, failed: dict[str, Any]
) -> None:
    qid = failed["question_id"]
    # The evidence's unit was indexed but never retrieved: its index op is not upstream of the
    # answer, yet the attribution's path and faulty operation are drawn.
    evidence = RunTraceView(run).evidence(qid)
    assert evidence
    trace = read_trace(trace_path(run, "rag_bm25"))
    (index,) = [o for o in trace.readers(turn_var(evidence[0])) if o.name == "index"]
    unit = f"{index.writes[0][0]}@{index.writes[0][1]}"
    with attributed(run, failed, index.id, [f"{turn_var(evidence[0])}@1", index.id, unit]):
        result = trace_cmd("show", str(run), "--question", qid, "--system", "rag_bm25",
                           "--format", "dot", "--out", "-")  # fmt: skip
    assert result.exit_code == 0, result.output
    dot = result.output
    assert dot.startswith(f'digraph "{qid}"')
    faulty = [line for line in dot.splitlines() if "FAULTY" in line]
    assert len(faulty) == 1 and "index" in faulty[0] and "penwidth=3" in faulty[0]
    assert f"{index.writes[0][0]} @1" in dot and "retrieve" in dot


def test_export_writes_memtrace_graphs_with_the_attributions(
    run: Path, failed: dict[str, Any], tmp_path: Path
) -> None:
    qid = failed["question_id"]
    with attributed(run, failed, f"{qid}/1", []):
        result = trace_cmd("export", str(run), "--out", str(tmp_path / "x"))
    assert result.exit_code == 0, result.output
    assert "2 graphs written" in result.output
    graph = json.loads((tmp_path / "x" / "rag_bm25" / "D0001.json").read_text())
    (note,) = graph["data"]["annotations"]
    assert note["umb_question_id"] == qid and note["final_op_id"] == f"{qid}/1"
    other = json.loads((tmp_path / "x" / "mem0_style" / "D0001.json").read_text())
    assert other["data"]["annotations"] == []


@needs_dot
def test_the_report_embeds_the_failed_questions_graphs(run: Path, tmp_path: Path) -> None:
    # The drill-down lists questions by id; the first failures get pictures.
    failures = [r for r in read_records(run / "records.jsonl") if r["score"] < 1]
    first = min(failures, key=lambda r: r["question_id"])
    with attributed(run, first, f"{first['question_id']}/1", []):
        report = build_report([run], tmp_path / "r", ReportOptions(max_trace_pictures=3))
    page = report.index.read_text(encoding="utf-8")
    assert report.sections.index("traces") < report.sections.index("questions")
    assert page.count('<details class="trace" open>') == 3 and page.count("<svg") == 3
    # Each links its whole subgraph, written beside the page.
    for n in (1, 2, 3):
        assert f'href="plots/trace-{n}.svg"' in page
        assert b"<svg" in (tmp_path / "r" / "plots" / f"trace-{n}.svg").read_bytes()
    assert "<?xml" not in page and "<!DOCTYPE svg" not in page
    ids = re.findall(r'\bid="(t\d+-[^"]+)"', page)
    assert ids and len(ids) == len(set(ids))  # three pictures, no clashing element ids
    assert 'id="traces-table"' in page and "FAULTY" in html.unescape(page)
    none = build_report([run], tmp_path / "r0", ReportOptions(max_trace_pictures=0))
    assert "<svg" not in none.index.read_text(encoding="utf-8")
