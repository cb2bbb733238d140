"""The worked examples of docs/architecture.md: a new peer is one folder and one registry entry,
a new memory system one module and one decorator."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from umb import Benchmark
from umb._cli._options import memory_system_list
from umb._cli.main import cli
from umb._peer import PEERS
from umb._registry import plugin_modules
from umb.run import trace_path
from umb.scoring import PEER_SCORERS, load_peer_scorer

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

TOY = {
    "conversations": [
        {
            "id": "c1",
            "date": "2024-03-01T10:00",
            "lines": [
                ["Ana", "I finally bought a kayak, a green Pelican one."],
                ["Ben", "Nice! How much was it?"],
                ["Ana", "It was $420 at the lake shop."],
            ],
            "questions": [
                {"q": "What brand is Ana's kayak?", "a": "Pelican", "line": 1},
                {"q": "How much did the kayak cost?", "a": "$420", "line": 3},
            ],
        }
    ]
}


@pytest.fixture()
def toy_peer() -> Iterator[None]:
    sys.path.insert(0, str(EXAMPLES))
    PEERS.add_lazy("toy", "toy_peer:PEER")  # the one registration
    try:
        yield
    finally:
        PEERS.remove("toy")
        if PEER_SCORERS.has("toy_exact"):
            PEER_SCORERS.remove("toy_exact")
        sys.path.remove(str(EXAMPLES))


def test_toy_peer_imports_validates_exports_and_scores(toy_peer: None, tmp_path: Path) -> None:
    src = tmp_path / "toy.json"
    src.write_text(json.dumps(TOY), encoding="utf-8")
    runner = CliRunner()
    imported = runner.invoke(cli, ["import", "toy", str(src), "-o", str(tmp_path / "bench")])
    assert imported.exit_code == 0, imported.output
    assert "imported 1 dialogues, 1 sessions, 3 turns, 2 questions" in imported.output
    assert runner.invoke(cli, ["validate", str(tmp_path / "bench")]).exit_code == 0

    out = tmp_path / "back.json"
    exported = runner.invoke(
        cli, ["export", str(tmp_path / "bench"), "--format", "toy", "--out", str(out)]
    )
    assert exported.exit_code == 0, exported.output
    assert json.loads(out.read_text(encoding="utf-8")) == TOY

    bench = Benchmark.open(tmp_path / "bench")
    scorer = load_peer_scorer("toy_exact")
    assert [scorer.score(q, " pelican ")["score"] for q in bench.questions] == [1.0, 0.0]


def test_an_unregistered_peer_is_refused_with_the_known_ones(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["export", str(tmp_path), "--format", "toy", "--out", "x"])
    assert result.exit_code == 2
    assert "'toy' is not one of 'locomo', 'longmemeval', 'umb-release'" in result.output


def test_example_memory_system_is_traced_timed_and_scored(tmp_path: Path) -> None:
    import importlib

    from umb import evaluate, generate
    from umb.memory import MEMORY_SYSTEMS
    from umb.trace import read_trace

    sys.path.insert(0, str(EXAMPLES))
    try:
        importlib.import_module("memory_system")  # its decorator is the one registration
        generate(tmp_path / "bench", preset="demo", characters=2)
        outcome = evaluate(bench=tmp_path / "bench", out=tmp_path / "run",
                           systems=("keyword_overlap",), limit=12)  # fmt: skip
        # It describes itself: the glossary and the help list it with no table to edit.
        from umb.report._terms import describe

        line = "The top-k turns sharing most words with the question."
        assert describe("system:keyword_overlap") == ("keyword_overlap", line)
        assert "keyword_overlap" in memory_system_list()
    finally:
        MEMORY_SYSTEMS.remove("keyword_overlap")
        sys.path.remove(str(EXAMPLES))
    assert outcome.written == 12
    records = [json.loads(line) for line in (tmp_path / "run" / "records.jsonl").open()]
    assert all(r["retrieve_latency_s"] >= 0 and r["context_tokens"] > 0 for r in records)
    trace = read_trace(trace_path(tmp_path / "run", "keyword_overlap"))
    names = {op.name for op in trace.ops}
    assert {"ingest", "retrieve"} <= names  # the base class traced what the example never names


def test_example_model_backend_runs_under_its_spec_and_says_what_it_is(tmp_path: Path) -> None:
    import importlib

    from umb import evaluate, generate
    from umb.models import PROVIDERS, spec_provider

    sys.path.insert(0, str(EXAMPLES))
    sys.modules.pop("model_backend", None)
    try:
        importlib.import_module("model_backend")  # its decorator is the one registration
        kind = spec_provider("abstain")
        assert kind is not None and not kind.llm and not kind.endpoint and not kind.reads_gold
        generate(tmp_path / "bench", preset="demo", characters=2)
        outcome = evaluate(bench=tmp_path / "bench", out=tmp_path / "run",
                           systems=("no_context",), model="abstain")  # fmt: skip
    finally:
        PROVIDERS.remove("abstain")
        sys.path.remove(str(EXAMPLES))
    records = [json.loads(line) for line in (tmp_path / "run" / "records.jsonl").open()]
    assert outcome.written == len(records) > 0
    assert all(r["parse_status"] == "ok" and r["model"] == "abstain" for r in records)
    by_family: dict[str, list[float]] = {}
    for r in records:
        by_family.setdefault(r["family"], []).append(r["score"])
    assert set(by_family["ABS"]) == {1.0}  # abstaining is right only where nothing was said
    assert set(by_family["IE"]) == {0.0}
    header = json.loads((tmp_path / "run" / "header.json").read_text())
    assert header["endpoint"]["base_url"] is None  # no endpoint: none recorded


_SEES_THE_FAMILY = """
import json, sys
from umb.attribute import NEEDS_RULES
from umb.attribute._worker import import_plugins
from umb.families import FAMILY_REGISTRY
from umb.scoring import SCORERS
import_plugins(json.loads(sys.argv[1]), sys.argv[2:])
family = FAMILY_REGISTRY["CNT"]
print(family.code, SCORERS["CNT"].name, family.needs if family.needs in NEEDS_RULES else "")
"""


def test_example_question_family_is_generated_prompted_scored_and_attributed(
    tmp_path: Path,
) -> None:
    import importlib

    from umb import evaluate, generate
    from umb.attribute import NEEDS_RULES
    from umb.families import FAMILY_REGISTRY
    from umb.models import PROVIDERS
    from umb.run import family_instruction_text
    from umb.scoring import SCORERS

    sys.path.insert(0, str(EXAMPLES))
    sys.modules.pop("question_family", None)
    sys.modules.pop("model_backend", None)
    try:
        example = importlib.import_module("question_family")  # its three registrations
        # The background attribution worker, a fresh process, imports what registered them.
        assert "question_family" in plugin_modules()
        seen = subprocess.run(
            [sys.executable, "-c", _SEES_THE_FAMILY, json.dumps(sys.path), "question_family"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        assert seen.stdout.split() == ["CNT", "cnt_exact", "cnt_changes"]
        # The offline reader has no recipe for a new family; the example backend answers any.
        importlib.import_module("model_backend")
        assert family_instruction_text("CNT").startswith("Task: Count how many times")
        generate(tmp_path / "bench", preset="demo")
        added = example.add_count_questions(tmp_path / "bench", tmp_path / "cnt")
        runs = {
            model: evaluate(bench=tmp_path / "cnt", out=tmp_path / model,
                            systems=("full_context",), model=model)
            for model in ("oracle", "abstain")
        }  # fmt: skip
        attributions = [
            json.loads(line) for line in (tmp_path / "abstain" / "attributions.jsonl").open()
        ]
    finally:
        PROVIDERS.remove("abstain")
        FAMILY_REGISTRY.remove("CNT")
        SCORERS.remove("CNT")
        NEEDS_RULES.remove("cnt_changes")
        sys.path.remove(str(EXAMPLES))
    assert added > 0
    counted = [q for q in Benchmark.open(tmp_path / "cnt").questions if q.family == "CNT"]
    assert len(counted) == added and all(q.evidence.turn_ids for q in counted)
    (oracle,) = runs["oracle"].results["groups"]
    assert oracle["families"]["CNT"]["n"] == added and oracle["families"]["CNT"]["mean"] == 1.0
    # Failed CNT answers are attributed by the family's own rule: its needs are the changes,
    # all of them in full_context's context, so the answerer is to blame (as it is here).
    failed = [a for a in attributions if a["family"] == "CNT"]
    assert len(failed) == added
    assert all(a["error_type"] == "ResponseError" and a["facts"] for a in failed)
    assert all(f["label"].startswith("change ") for a in failed for f in a["facts"])
