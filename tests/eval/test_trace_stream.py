"""A run's traces read in a streaming pass (``umb.run._tracestream``): the counts and the
per-dialogue traces agree with reading the whole trace, resumed attempts and torn tails included."""

from __future__ import annotations

import gzip
import shutil
from collections import Counter
from pathlib import Path

import pytest
from _trace_copies import with_a_retried_question

from umb import DataError, evaluate
from umb.run import RunConfig, RunTraceView, read_records, summarize_trace, trace_path
from umb.trace import read_dialogues, read_trace
from umb.trace._file import gzip_member


def _label(name: str, category: str) -> str:
    return f"{category}/{name}"


@pytest.fixture(scope="module")
def run(demo_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("trace-stream") / "run"
    config = RunConfig(bench=demo_bench, out=out, systems=("rag_bm25", "mem0_style"), limit=30)
    evaluate(config, progress=False)
    return out


@pytest.mark.parametrize("system", ["rag_bm25", "mem0_style"])
def test_counts_match_the_whole_trace(run: Path, system: str) -> None:
    path = trace_path(run, system)
    whole = read_trace(path)
    summary = summarize_trace(path, _label)
    assert summary.counts == Counter(_label(o.name, o.category) for o in whole.ops)
    assert summary.ops == len(whole.ops) > 0
    assert summary.issues == whole.issues == []
    assert summary.dialogues == len({r["dialogue_id"] for r in read_records(run / "records.jsonl")})


def test_a_retried_scope_is_counted_once(run: Path, tmp_path: Path) -> None:
    # A second, committed attempt of a question scope (what a resumed run appends) replaces the
    # first one in the counts, as in the reader.
    copy = tmp_path / "retried.jsonl"
    scope = with_a_retried_question(trace_path(run, "rag_bm25"), copy)
    whole = read_trace(copy)
    assert summarize_trace(copy, _label).counts == Counter(
        _label(o.name, o.category) for o in whole.ops
    )
    assert whole.scopes[scope].attempts == 2


def test_a_torn_last_line_is_an_issue_and_a_broken_middle_line_an_error(
    run: Path, tmp_path: Path
) -> None:
    packed = trace_path(run, "rag_bm25").read_bytes()
    data = gzip.decompress(packed)
    whole = summarize_trace(trace_path(run, "rag_bm25"), _label).counts
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(data + b'{"t":"op","id":"x')
    # Compressed, a kill leaves an incomplete last member: what it held is dropped whole.
    cut = tmp_path / "torn.jsonl.gz"
    cut.write_bytes(packed + gzip_member(b'{"t":"close","time":1}\n')[:-9])
    for path in (torn, cut):
        summary = summarize_trace(path, _label)
        assert summary.counts == whole
        assert summary.issues[0].startswith("the last line is torn")
        assert read_dialogues(path, []).torn_tail
        assert read_trace(path).torn_tail
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"not json\n" + data)
    with pytest.raises(DataError, match="broken.jsonl:1"):
        summarize_trace(broken, _label)
    with pytest.raises(DataError, match="missing trace file"):
        summarize_trace(tmp_path / "none.jsonl", _label)


@pytest.mark.parametrize("system", ["rag_bm25", "mem0_style"])
def test_one_dialogue_holds_what_the_whole_trace_holds_of_it(run: Path, system: str) -> None:
    path = trace_path(run, system)
    whole = read_trace(path)
    dialogue = read_records(run / "records.jsonl")[0]["dialogue_id"]
    part = read_dialogues(path, [dialogue])

    def mine(o: object) -> bool:
        return getattr(o, "attrs", {}).get("dialogue_id") == dialogue

    assert {o.id for o in part.ops if mine(o)} == {o.id for o in whole.ops if mine(o)}
    assert not [o for o in part.ops if not mine(o) and o.attrs.get("dialogue_id")]
    assert part.issues == []
    for op in part.ops:
        for key in op.writes:
            node = part.node(*key)
            assert part.value(node) == whole.value(whole.node(*key))


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_a_picture_from_the_dialogue_equals_the_picture_from_the_whole_trace(run: Path) -> None:
    record = next(r for r in read_records(run / "records.jsonl")
                  if r["system"] == "mem0_style" and r["score"] == 0)  # fmt: skip
    whole = RunTraceView(run).picture("mem0_style", record["question_id"], "dot")
    view = RunTraceView(run)
    view.focus("mem0_style", [record["dialogue_id"]])
    assert view.picture("mem0_style", record["question_id"], "dot") == whole
