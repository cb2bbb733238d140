"""Attribution of whole runs: at the end of `umb eval`, `umb attribute`, the report, the export,
and the optional LLM check."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from attribution_helpers import DID, Pipeline, ie_question, record
from click.testing import CliRunner

from umb import evaluate
from umb._cli.main import cli
from umb.attribute import ERROR_TYPES, LLMFactChecker, read_attributions
from umb.interop.memtracebench import ERROR_TYPE_TO_MEMTRACE, export_memtrace, import_memtrace
from umb.models import ModelOptions, load_model
from umb.run import RunConfig, read_records, trace_paths
from umb.testing import OpenAIServer
from umb.trace import memory_var, read_trace

SYSTEMS = ("mem0_style", "summary", "full_context", "rag_bm25")


@pytest.fixture(scope="module")
def run(demo_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("attribution") / "run"
    evaluate(RunConfig(bench=demo_bench, out=out, systems=SYSTEMS, limit=60), progress=False)
    return out


def _failed(out: Path) -> list[dict[str, Any]]:
    records = read_records(out / "records.jsonl")
    return [r for r in records if r["score"] is not None and r["score"] < 1]


def test_eval_attributes_every_failed_question_to_an_operation_of_its_trace(run: Path) -> None:
    failed = _failed(run)
    attributions = read_attributions(run)
    assert len(failed) > 50
    assert [(a.system, a.question_id) for a in attributions] == [
        (r["system"], r["question_id"]) for r in failed
    ]
    traces = {s: read_trace(p) for s, p in trace_paths(run).items()}
    for a in attributions:
        assert a.error_type in ERROR_TYPES, a
        assert a.reason and a.evidence_turn_ids is not None
        if a.error_type == "AnnotationError":
            assert a.op_id is None
            continue
        op = traces[a.system].op(str(a.op_id))
        assert op.name == a.op_name and a.path[-1] in (op.id, f"answer:{a.question_id}@1")
        if op.question_id is not None:
            assert op.question_id == a.question_id
        else:
            assert op.dialogue_id == a.dialogue_id
    kinds = Counter((a.system, a.error_type) for a in attributions)
    for system in ("full_context", "rag_bm25"):  # no write path: nothing to lose before it
        assert {t for s, t in kinds if s == system} <= {"RetrievalError", "ResponseError"}
    assert {t for s, t in kinds if s == "mem0_style"} >= {"ExtractionError", "UpdateError"}
    assert kinds["summary", "ExtractionError"] > 0


def test_the_summary_counts_per_system_and_type(run: Path) -> None:
    summary = json.loads((run / "attribution_summary.json").read_text())
    attributions = read_attributions(run)
    assert summary["failed"] == len(attributions)
    for system in SYSTEMS:
        entry = summary["systems"][system]
        mine = [a for a in attributions if a.system == system]
        assert entry["failed"] == len(mine) and entry["scored"] == 60
        assert entry["types"] == {t: sum(a.error_type == t for a in mine) for t in ERROR_TYPES}
        fams = summary["families"][system]
        assert sum(sum(c.values()) for c in fams.values()) == len(mine)


def test_umb_attribute_rewrites_the_same_files(run: Path) -> None:
    before = (run / "attributions.jsonl").read_bytes()
    (run / "attributions.jsonl").unlink()
    result = CliRunner().invoke(cli, ["attribute", str(run)])
    assert result.exit_code == 0, result.output
    assert (run / "attributions.jsonl").read_bytes() == before
    assert "mem0_style" in result.output and "Extraction" in result.output
    lines = result.output.splitlines()
    assert lines[0].split()[:2] == ["system", "failed"]


def test_umb_attribute_needs_a_trace(tmp_path: Path, demo_bench: Path) -> None:
    out = tmp_path / "untraced"
    config = RunConfig(bench=demo_bench, out=out, systems=("no_context",), limit=3, trace=False)
    evaluate(config, progress=False)
    assert not (out / "attributions.jsonl").exists()
    result = CliRunner().invoke(cli, ["attribute", str(out)])
    assert result.exit_code != 0 and "no traces" in str(result.exception)


def test_the_report_shows_the_table_the_bars_and_each_attribution(
    run: Path, tmp_path: Path
) -> None:
    from umb.report import ReportOptions, build_report

    report = build_report([run], tmp_path / "report", ReportOptions(max_trace_pictures=0))
    html = report.index.read_text()
    assert "attributions" in report.sections
    assert report.sections.index("attributions") < report.sections.index("questions")
    assert 'id="attribution-table"' in html and (tmp_path / "report/plots/attribution.svg").exists()
    a = read_attributions(run)[0]
    assert f"<b>{a.error_type}</b> at <code>{a.op_id}</code>" in html
    assert html.count("<b>attribution:</b>") == len(read_attributions(run))


def test_exported_graphs_carry_the_attributions_and_keep_them_on_import(
    run: Path, tmp_path: Path
) -> None:
    attributions = [a for a in read_attributions(run) if a.system == "mem0_style"]
    trace = read_trace(trace_paths(run)["mem0_style"])
    by_question = {a.question_id: a.to_dict() for a in attributions}
    files = export_memtrace(trace, tmp_path / "export", attributions=by_question, split="mem0")
    seen = 0
    for path in files:
        back = import_memtrace(path)
        for ann in back.annotations:
            a = by_question[ann["umb_question_id"]]
            label = ERROR_TYPE_TO_MEMTRACE.get(a["error_type"], a["error_type"])
            assert ann["final_error_type"] == label and ann["final_op_id"] == a["op_id"]
            assert ann["reason"] == a["reason"] and ann["path"] == a["path"]
            assert ann["golden_answers"] == a["golden_answers"]
            assert len(ann["source_evidence_ids"]) == len(a["evidence_turn_ids"])
            if a["op_id"] is not None:
                assert back.op(a["op_id"]).name == a["op_name"]
            seen += 1
    assert seen == len(attributions)


def test_the_llm_check_decides_what_value_matching_cannot(
    tmp_path: Path, openai_server: OpenAIServer
) -> None:
    def story(name: str) -> Pipeline:
        pipe = Pipeline(tmp_path / f"{name}.jsonl")
        pipe.ingest("D0001:S001")
        ev = "D0001:S001:T0002"
        (cand,) = pipe.extract("D0001:S001", [("Maya adopted a beagle called Biscuit.", [ev])])
        pipe.apply("add", cand, "m1", "Maya's new beagle answers to 'Bisc'.")
        pipe.ask(ie_question(), [memory_var("m1", DID)], "Rex")
        return pipe

    wrong = record(ie_question(), {"answer": "Rex"})
    assert story("plain").attribute(ie_question(), wrong).error_type == "UpdateError"
    openai_server.set_rules({"match": "answers to 'Bisc'", "reply": '{"states": true}'})
    options = ModelOptions(base_url=openai_server.base_url, api_key_env="UMB_TEST_NO_KEY",
                           max_retries=0)  # fmt: skip
    with LLMFactChecker(load_model("openai/umb-test", role="judge", options=options)) as checker:
        from umb.attribute import QuestionInputs, attribute_question
        from umb.attribute._evidence import Matcher
        from umb.attribute._graph import SystemView

        pipe = story("checked")
        pipe.close()
        view = SystemView(read_trace(pipe.path), "mem0_style")
        inputs = QuestionInputs(ie_question(), wrong, {"D0001:S001:T0002": "Maya: I adopted "
                                "a beagle called Biscuit."})  # fmt: skip
        a = attribute_question(inputs, view, Matcher(checker))
        assert a.error_type == "ResponseError" and checker.calls == 1
    asked = openai_server.requests()[-1]["messages"][-1]["content"]
    assert "Biscuit" in asked and "Bisc'" in asked
