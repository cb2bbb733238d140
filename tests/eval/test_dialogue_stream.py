"""Traces read a dialogue at a time (``umb.trace.iter_dialogue_traces``) and attribution made in
a second process during the run: the same results as reading whole traces after it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from _trace_copies import with_a_retried_question

from umb import evaluate
from umb.attribute import BackgroundAnalysis, attribute_run, memory_metrics_run
from umb.run import RunConfig, read_records, trace_path
from umb.trace import DialogueSplitter, iter_dialogue_traces, iter_records, read_trace

SYSTEMS = ("rag_bm25", "mem0_style")
OUTPUTS = ("attributions.jsonl", "attribution_summary.json", "memory_metrics.json",
           "memory_metrics.jsonl")  # fmt: skip


def _eval(bench: Path, out: Path, limit: int, monkeypatch: pytest.MonkeyPatch, after: bool) -> None:
    if after:
        monkeypatch.setenv("UMB_ATTRIBUTE_AFTER_RUN", "1")
    else:
        monkeypatch.delenv("UMB_ATTRIBUTE_AFTER_RUN", raising=False)
        monkeypatch.setattr("os.cpu_count", lambda: 2)
        monkeypatch.setattr("os.getloadavg", lambda: (0.0, 0.0, 0.0))
    evaluate(RunConfig(bench=bench, out=out, systems=SYSTEMS, limit=limit), progress=False)


@pytest.fixture(scope="module")
def after_run(demo_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run attributed after it ended, in this process (the reference)."""
    out = tmp_path_factory.mktemp("after") / "run"
    with pytest.MonkeyPatch.context() as mp:
        _eval(demo_bench, out, 40, mp, after=True)
    return out


def test_each_dialogue_comes_once_holding_what_the_whole_trace_holds_of_it(
    after_run: Path,
) -> None:
    for system in SYSTEMS:
        path = trace_path(after_run, system)
        whole = read_trace(path)
        seen: list[str] = []
        for dt in iter_dialogue_traces(path):
            assert not dt.again and len(dt.dialogue_ids) == 1
            (did,) = dt.dialogue_ids
            seen.append(did)
            mine = {o.id for o in whole.ops if o.dialogue_id == did}
            assert {o.id for o in dt.trace.ops if o.dialogue_id is not None} == mine
            assert dt.trace.issues == []
            for op in dt.trace.ops:  # every value written, though values are let go as read
                for identity, version in op.writes:
                    node = dt.trace.node(identity, version)
                    assert dt.trace.value(node) == whole.value(whole.node(identity, version))
        records = read_records(after_run / "records.jsonl")
        assert sorted(seen) == sorted({r["dialogue_id"] for r in records})


def test_values_are_let_go_once_the_dialogues_that_use_them_are_done(after_run: Path) -> None:
    path = trace_path(after_run, "mem0_style")
    records = [rec for _, rec in iter_records(path) if rec is not None]
    forgotten = {rec["dialogue"] for rec in records if rec["t"] == "forget"}
    assert forgotten == {r["dialogue_id"] for r in read_records(after_run / "records.jsonl")}
    split = DialogueSplitter(path)
    for lineno, rec in enumerate(records, 1):
        if (done := split.feed(lineno, rec)) is not None:
            split.take(done)
    # Left at the end: the values of the run's own scope, not the dialogues'.
    assert len(split.values) < sum(rec["t"] == "val" for rec in records) / 5


def test_a_dialogue_recorded_again_after_it_was_handed_over_comes_again(
    after_run: Path, tmp_path: Path
) -> None:
    # A resumed run that re-runs a finished dialogue's question appends a new attempt of it.
    copy = tmp_path / "resumed.jsonl"
    scope = with_a_retried_question(trace_path(after_run, "rag_bm25"), copy)
    got = list(iter_dialogue_traces(copy))
    assert got[-1].again and len(got[-1].dialogue_ids) == 1
    did = got[-1].dialogue_ids[0]
    assert got[-1].trace.scopes[scope].attempts == 2
    assert sum(did in dt.dialogue_ids for dt in got) == 2


def test_attribution_during_the_run_writes_what_attribution_after_it_does(
    demo_bench: Path, after_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    _eval(demo_bench, out, 40, monkeypatch, after=False)
    assert (out / "attributions.jsonl").stat().st_size > 0
    for name in OUTPUTS:
        assert (out / name).read_bytes() == (after_run / name).read_bytes(), name
    results = json.loads((out / "results.json").read_text())
    assert results["memory_metrics"]["systems"]["mem0_style"]["extraction_recall"] > 0


def test_a_resumed_run_is_attributed_whole_by_the_worker(
    demo_bench: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    _eval(demo_bench, out, 20, monkeypatch, after=False)
    _eval(demo_bench, out, 40, monkeypatch, after=False)  # 20 more: the worker sees only those
    reference = tmp_path / "reference"
    shutil.copytree(out, reference)
    attribute_run(reference)
    memory_metrics_run(reference)
    for name in OUTPUTS:
        assert (out / name).read_bytes() == (reference / name).read_bytes(), name


def test_a_failed_worker_is_said_and_the_run_is_attributed_after_it(
    demo_bench: Path, after_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    real = BackgroundAnalysis.__init__

    def broken(self: BackgroundAnalysis, run: Path, bench: Path, seed: int) -> None:
        real(self, run, run / "no-such-benchmark", seed)

    monkeypatch.setattr(BackgroundAnalysis, "__init__", broken)
    out = tmp_path / "run"
    _eval(demo_bench, out, 40, monkeypatch, after=False)
    err = capsys.readouterr().err
    assert "umb: warning:" in err and "attributing after the run instead" in err
    for name in OUTPUTS:
        assert (out / name).read_bytes() == (after_run / name).read_bytes(), name
