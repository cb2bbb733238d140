"""``read_header``: the one reader of a run's ``header.json``, and what it tells of the run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import umb
from umb import ConfigError, DataError
from umb.run import HEADER, RunDirectory, RunHeader, read_header, read_records


def test_a_run_header_names_its_systems_models_and_benchmark(
    demo_bench: Path, tmp_path: Path, first_dialogue: int
) -> None:
    run = tmp_path / "runs" / "one"
    umb.evaluate(demo_bench, out=run, systems=["rag_bm25", "no_context"], limit=first_dialogue,
                 trace=False)  # fmt: skip
    header = read_header(run)
    assert header == RunDirectory(run).header()
    assert header.systems == ["rag_bm25", "no_context"]
    assert header.models == {"answerer": "offline", "judge": None, "extractor": "offline"}
    assert header.benchmark_dir() == demo_bench.resolve()


def test_a_run_directory_reads_its_records_results_and_traces(
    demo_bench: Path, tmp_path: Path, first_dialogue: int
) -> None:
    run = RunDirectory(tmp_path / "run")
    assert not run.has_results() and run.records() == [] and run.traces() == {}
    outcome = umb.evaluate(demo_bench, out=run.path, systems="rag_bm25", limit=first_dialogue)
    assert run.has_results() and run.results() == outcome.results
    assert run.records() == read_records(run.records_file)
    assert len(run.records(keep=lambda r: {"id": r["question_id"]})) == first_dialogue
    assert list(run.traces()) == ["rag_bm25"]
    assert run.invocations_file.read_text().count("\n") == 1


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (None, "missing file"),
        ("[1, 2]", "header is not a JSON object"),
        ('{"systems": ', "header.json:1: invalid JSON"),
    ],
)
def test_a_broken_header_is_a_data_error_naming_the_file(
    tmp_path: Path, text: str | None, problem: str
) -> None:
    if text is not None:
        (tmp_path / HEADER).write_text(text)
    with pytest.raises(DataError, match=re.escape(str(tmp_path / HEADER))) as caught:
        read_header(tmp_path)
    assert problem in str(caught.value)


@pytest.mark.parametrize("benchmark", [None, "bench", {"path": ""}])
def test_a_header_that_names_no_benchmark_asks_for_bench(tmp_path: Path, benchmark: object) -> None:
    with pytest.raises(ConfigError, match="names no benchmark; pass --bench"):
        RunHeader(tmp_path, {"benchmark": benchmark}).benchmark_dir()


def test_only_the_header_module_reads_the_run_header() -> None:
    """Every layer that opens a run reads its header through ``read_header``."""
    src = Path(umb.__file__).parent
    readers = [
        f"{path.relative_to(src)}:{n}"
        for path in sorted(src.rglob("*.py"))
        if path.name != "_header.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"\bHEADER\b", line) and re.search(r"read_json|read_bytes|loads", line)
    ]
    assert not readers
