"""Memory metrics end to end: a traced ``umb eval`` on the demo preset, the reference system
``oracle_memory``, the files and the command."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from umb.attribute import memory_metrics_run, read_memory_metrics
from umb.attribute._memory_gold import GoldIndex, Person, need_of
from umb.bench import Fact
from umb.pipeline import evaluate
from umb.run import RunConfig

SYSTEMS = ("oracle_memory", "mem0_style", "summary", "no_context", "rag_bm25")


@pytest.fixture(scope="module")
def run(demo_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("mm") / "run"
    evaluate(RunConfig(bench=demo_bench, out=out, systems=SYSTEMS), progress=False)
    return out


def _rates(summary: dict, system: str) -> dict[str, float | None]:
    return {k: v["value"] for k, v in summary["systems"][system]["rates"].items()}


def test_oracle_memory_scores_one_zero_one(run: Path) -> None:
    summary = read_memory_metrics(run)
    assert summary is not None
    rates = _rates(summary, "oracle_memory")
    assert rates["extraction_recall"] == 1.0
    assert rates["fabrication_rate"] == 0.0
    assert rates["update_accuracy"] == 1.0
    assert rates["extraction_precision"] == 1.0 and rates["omission_rate"] == 0.0
    entry = summary["systems"]["oracle_memory"]
    assert entry["dialogues"] == 10 and entry["rates"]["update_accuracy"]["denominator"] > 50
    assert set(entry["updates"]) == {"updated", "duplicated", "stale", "lost"}
    assert entry["updates"]["updated"] == entry["rates"]["update_accuracy"]["denominator"]


def test_no_context_stores_nothing_and_raw_turn_systems_are_skipped(run: Path) -> None:
    summary = read_memory_metrics(run)
    assert summary is not None
    rates = _rates(summary, "no_context")
    assert rates["extraction_recall"] == 0.0 and rates["update_accuracy"] == 0.0
    assert rates["extraction_precision"] is None  # no unit written: no precision to speak of
    assert summary["systems"]["no_context"]["cost"]["units"] == 0
    assert "rag_bm25" in summary["skipped"] and "rag_bm25" not in summary["systems"]


def test_mem0_style_has_values_with_bootstrap_intervals(run: Path) -> None:
    summary = read_memory_metrics(run)
    assert summary is not None
    entry = summary["systems"]["mem0_style"]
    for rate in ("extraction_recall", "extraction_precision", "update_accuracy"):
        r = entry["rates"][rate]
        assert 0 < r["value"] < 1, rate
        lo, hi = r["ci95"]
        assert lo <= r["value"] <= hi and lo < hi, rate
    assert entry["cost"]["units_per_fact"] > 0 and entry["cost"]["tokens_written"] > 0
    assert entry["by_attribute"]["event"]["facts"] > 0
    assert sum(c["facts"] for c in entry["by_kind"].values()) == entry["rates"][
        "extraction_recall"]["denominator"]  # fmt: skip


def test_detail_rows_add_up_to_the_summary(run: Path) -> None:
    summary = read_memory_metrics(run)
    assert summary is not None
    rows = [json.loads(line) for line in (run / "memory_metrics.jsonl").read_text().splitlines()]
    mine = [r for r in rows if r["system"] == "mem0_style"]
    assert len(mine) == 10
    recall = summary["systems"]["mem0_style"]["rates"]["extraction_recall"]
    assert sum(r["extracted"] for r in mine) == recall["numerator"]
    assert sum(len(r["detail"]["missed"]) for r in mine) == recall["denominator"] - recall[
        "numerator"]  # fmt: skip
    some = next(r for r in mine if r["detail"]["extracted"])
    first = next(iter(some["detail"]["extracted"].values()))
    assert first["units"][0].startswith("memory:") and "@" in first["units"][0]
    results = json.loads((run / "results.json").read_text())
    assert results["memory_metrics"]["file"] == "memory_metrics.json"
    assert results["memory_metrics"]["systems"]["oracle_memory"]["extraction_recall"] == 1.0


def test_rerun_gives_the_same_numbers(run: Path) -> None:
    before = (run / "memory_metrics.json").read_bytes()
    again = memory_metrics_run(run, write=False)
    assert json.dumps(again, sort_keys=True) == json.dumps(json.loads(before), sort_keys=True)


def test_command_prints_the_table_and_refuses_an_untraced_run(
    run: Path, demo_bench: Path, tmp_path: Path
) -> None:
    from umb._cli.main import cli

    result = CliRunner().invoke(cli, ["memory-metrics", str(run)])
    assert result.exit_code == 0, result.output
    assert "oracle_memory" in result.output and "1.000 [1.000, 1.000]" in result.output
    assert "skipped rag_bm25: keeps raw turns" in result.output
    untraced = tmp_path / "untraced"
    evaluate(RunConfig(bench=demo_bench, out=untraced, systems=("no_context",), limit=2,
                       trace=False), progress=False)  # fmt: skip
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "umb", "memory-metrics", str(untraced)],
                          capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "no traces" in proc.stderr


def test_subject_check_and_fabrication_vocabulary() -> None:
    at = "2020-01-01T00:00"
    facts = {
        "A/F1": Fact("A/F1", "C1", "A", at, "city", "Lisbon", "Ann's city was Lisbon."),
        "B/F1": Fact("B/F1", "C2", "B", at, "city", "Oslo", "Bo's city was Oslo."),
        "B/F2": Fact("B/F2", "C2", "B2", "2021-01-01T00:00", "city", "Lima", "Bo moved to Lima."),
        "B/F3": Fact("B/F3", "C2", "B3", at, "pet_name", "Ann", "Bo's cat is Ann."),
    }
    world = {"characters": [
        {"id": "C1", "name": "Ann Lee", "first_name": "Ann"},
        {"id": "C2", "name": "Bo Kim", "first_name": "Bo"},
    ], "events": [], "timelines": {}}  # fmt: skip
    gold = GoldIndex(facts, world)
    ann = gold.people["C1"]
    assert isinstance(ann, Person)
    assert gold.about("Ann Lee lives in Lisbon.", ann)
    assert gold.about("Lives in Lisbon.", ann)  # names nobody: the dialogue's character
    assert not gold.about("Bo Kim lives in Oslo.", ann)
    moved = "Ann Lee moved from Lisbon to Oslo."
    assert sorted(gold.world_values(moved)) == ["Ann", "Lisbon", "Oslo"]
    assert sorted(gold.claims(moved, ann)) == ["Lisbon", "Oslo"]
    # Naming the subject is no claim, though Bo's cat shares her name; Bo naming Ann is one.
    assert gold.claims("Ann Lee's city was Lisbon.", ann) == ["Lisbon"]
    assert "Ann" in gold.claims("Bo Kim's cat is Ann.", gold.people["C2"])
    assert gold.involved_since(ann, "Lisbon") == at
    assert gold.involved_since(ann, "Oslo") is None  # Bo's city, never Ann's: fabricated
    assert gold.involved_since(gold.people["C2"], "Lima") == "2021-01-01T00:00"
    assert need_of("Lisbon").values == ("Lisbon",)


def test_report_shows_the_metrics_beside_qa_accuracy(run: Path, tmp_path: Path) -> None:
    from umb.report import ReportOptions, build_report

    options = ReportOptions(max_questions=5, max_trace_pictures=0)
    html = build_report([run], tmp_path / "report", options).index.read_text(encoding="utf-8")
    table = html[html.index('id="memory-metrics-table"') :]
    table = table[: table.index("</table>")]
    assert "oracle_memory" in table and "mem0_style" in table and "rag_bm25" not in table
    assert '1.000<br><span class="ci">[1.000, 1.000]</span>' in table
    assert "QA task-balanced" in table
    assert "rag_bm25 · offline: not measured (keeps raw turns" in html
    assert "the facts and units behind the numbers" in html and "Missed facts" in html


def test_a_traced_dialogue_without_records_still_counts(run: Path, tmp_path: Path) -> None:
    """A dialogue the traces ingested without a record yet (a run stopped mid-dialogue) is
    measured like the others: the metrics follow the traces, dialogue by dialogue."""
    from umb.attribute import MemoryMetricsRun

    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    lines = (copy / "records.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    first = json.loads(lines[0])["dialogue_id"]
    kept = [line for line in lines if json.loads(line)["dialogue_id"] == first]
    (copy / "records.jsonl").write_text("".join(kept), encoding="utf-8")
    metrics = MemoryMetricsRun(copy)
    again = metrics.finish(write=False)
    assert any(len(rows) > 1 for rows in metrics.rows.values())
    full = memory_metrics_run(run, write=False)
    assert json.dumps(again, sort_keys=True) == json.dumps(full, sort_keys=True)
