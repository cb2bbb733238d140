"""``umb eval --scorer`` on imported benchmarks: peer scores, native categories, retrieval."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from umb import ConfigError
from umb._cli.main import cli
from umb.bench import Benchmark
from umb.interop.locomo._scorers import LoCoMoF1
from umb.report import build_report
from umb.run import RunConfig, ScoringOptions, read_records, run_eval

# conv-26, the first conversation: all five categories (its adversarial items come last).
CONV26 = 199


@pytest.fixture(scope="module")
def locomo_run(locomo_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("peer") / "run"
    args = ["eval", "--bench", str(locomo_bench), "--system", "rag_bm25", "--out", str(out),
            "--scorer", "locomo_f1", "--limit", str(CONV26), "--granularity", "turn",
            "--top-k", "25", "--no-progress"]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "scored by locomo_f1" in result.output and "LoCoMo categories" in result.output
    return out


def _results(run: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((run / "results.json").read_text())
    return data


def test_records_carry_scorer_metadata_and_match_the_peer_scorer(
    locomo_run: Path, locomo_bench: Path
) -> None:
    records = read_records(locomo_run / "records.jsonl")
    questions = {q.id: q for q in Benchmark.open(locomo_bench).questions}
    assert len(records) == CONV26
    f1 = LoCoMoF1()
    for r in records:
        assert r["score_by"] == "locomo_f1" and r["scorer"] == "locomo_f1@2"
        assert (r["scorer_name"], r["scorer_version"]) == ("locomo_f1", "2")
        assert r["judge_model"] is None and r["judge_prompt_hash"] is None
        assert r["answer_profile"] == "locomo@2" and r["parse_status"] == "ok"
        assert r["source"] == "locomo" and r["native_category"] in (1, 2, 3, 4, 5)
        q = questions[r["question_id"]]
        assert r["native_category"] == q.meta["native_category"]
        # The stored score is exactly the peer scorer's on the stored prediction.
        assert r["score"] == f1.score(q, r["prediction"])["score"]
        assert r["score_details"]["category"] == r["native_category"]
    adversarial = [r for r in records if r["native_category"] == 5]
    assert adversarial, "conv-26 has adversarial questions"
    for r in adversarial:
        assert r["score"] == float("not mentioned" in r["prediction"].lower())
    # The offline reader abstains on some of them; a bare span elsewhere.
    assert any(r["score"] == 1.0 for r in adversarial)


def test_results_have_native_categories_and_official_overalls(
    locomo_run: Path, locomo_bench: Path
) -> None:
    results = _results(locomo_run)
    assert results["scorer"] == {
        "name": "locomo_f1", "version": "2", "answer_profiles_version": "2"
    }  # fmt: skip
    (group,) = results["groups"]
    block = group["native"]["locomo"]
    first = Benchmark.open(locomo_bench).questions[:CONV26]
    counts = Counter(str(q.meta["native_category"]) for q in first)
    assert {c["id"]: c["questions"] for c in block["categories"]} == dict(counts)
    names = {c["id"]: (c["name"], c["family"]) for c in block["categories"]}
    assert names["1"] == ("multi-hop", "MSR") and names["5"] == ("adversarial", "ABS")
    assert block["overall_micro"]["n"] == CONV26
    assert block["overall_micro_non_adversarial"]["n"] == CONV26 - counts["5"]
    # The peer's own aggregate agrees with the native breakdown.
    peer = group["peer"]
    assert peer["scorer"] == "locomo_f1" and peer["n"] == CONV26
    assert peer["overall_micro"] == pytest.approx(block["overall_micro"]["mean"])
    assert peer["overall_micro_non_adversarial"] == pytest.approx(
        block["overall_micro_non_adversarial"]["mean"]
    )
    for c in block["categories"]:
        assert peer["per_category"][c["id"]]["mean"] == pytest.approx(c["mean"])


def test_recall_at_k_from_the_ranking(locomo_run: Path) -> None:
    records = read_records(locomo_run / "records.jsonl")
    for r in records:
        ret = r["retrieval"]
        assert ret["scorer"] == "locomo_recall" and ret["unit"] == "turn"
        assert "recall@50" not in ret  # above --top-k 25
        assert ret["recall@5"] <= ret["recall@10"] <= ret["recall@25"] == ret["recall"]
        assert len(r["ranked_ids"]) <= 25 and set(r["ranked_ids"]) == set(r["context_ids"])
    summary = _results(locomo_run)["groups"][0]["retrieval"]["locomo_recall"]
    assert summary["n"] == CONV26 and summary["unit"] == "turn"
    assert 0 < summary["recall@5"] <= summary["recall@10"] <= summary["recall@25"] <= 1


def test_resume_with_another_scorer_is_refused(locomo_run: Path, locomo_bench: Path) -> None:
    config = RunConfig(
        bench=locomo_bench,
        out=locomo_run,
        systems=("rag_bm25",),
        scoring=ScoringOptions(scorer="mem0_f1"),
        limit=CONV26,
    )
    with pytest.raises(ConfigError, match=r"scorer\.name: 'locomo_f1' -> 'mem0_f1'"):
        run_eval(config, progress=False)


def test_report_shows_native_categories_and_retrieval(locomo_run: Path, tmp_path: Path) -> None:
    report = build_report([locomo_run], tmp_path / "report")
    assert "native" in report.sections and "retrieval" in report.sections
    assert report.sections.index("native") == report.sections.index("families") + 1
    html = report.index.read_text()
    assert 'id="native-locomo"' in html and "multi-hop (1)" in html and "adversarial (5)" in html
    assert "locomo_f1@2" in html and "non-adversarial (micro)" in html
    assert 'id="retrieval-locomo_recall"' in html and "recall@25" in html


def test_oracle_gives_the_documented_near_perfect_values(
    locomo_bench: Path, tmp_path: Path
) -> None:
    config = RunConfig(
        bench=locomo_bench,
        out=tmp_path / "oracle",
        systems=("no_context",),
        model="oracle",
        scoring=ScoringOptions(scorer="locomo_f1"),
    )
    (group,) = run_eval(config, progress=False).results["groups"]
    cats = {c["id"]: c for c in group["native"]["locomo"]["categories"]}
    assert {k: c["questions"] for k, c in cats.items()} == {
        "1": 282, "2": 321, "3": 96, "4": 841, "5": 446
    }  # fmt: skip
    for k in ("1", "2", "4", "5"):
        assert cats[k]["mean"] == 1.0, k
    # The 11 open-domain golds with a "; reason" tail score below 1 against the cut gold.
    records = read_records(tmp_path / "oracle" / "records.jsonl")
    below = [r for r in records if r["score"] < 1.0]
    assert len(below) == 11 and {r["native_category"] for r in below} == {3}
    assert 0.9 < cats["3"]["mean"] < 1.0
    assert group["peer"]["n"] == 1986 and group["peer"]["n_non_adversarial"] == 1540


def test_mem0_scorers_skip_adversarial_items(locomo_bench: Path, tmp_path: Path) -> None:
    config = RunConfig(
        bench=locomo_bench,
        out=tmp_path / "mem0",
        systems=("no_context",),
        model="oracle",
        scoring=ScoringOptions(scorer="mem0_f1"),
        limit=CONV26,
    )
    (group,) = run_eval(config, progress=False).results["groups"]
    cats = {c["id"]: c for c in group["native"]["locomo"]["categories"]}
    assert cats["5"]["unscored"] == cats["5"]["questions"] > 0 and cats["5"]["mean"] is None
    assert all(cats[k]["mean"] == 1.0 for k in ("1", "2", "3", "4"))
    assert group["peer"]["n_skipped"] == cats["5"]["questions"]


def test_umb_benchmarks_get_no_native_blocks(umb_bench: Path, tmp_path: Path) -> None:
    config = RunConfig(bench=umb_bench, out=tmp_path / "run", systems=("rag_bm25",))
    (group,) = run_eval(config, progress=False).results["groups"]
    assert group["native"] is None and group["retrieval"] is None and group["peer"] is None
    report = build_report([tmp_path / "run"], tmp_path / "report")
    assert "native" not in report.sections and "retrieval" not in report.sections
    # A peer scorer on a umb benchmark: no native categories, the peer's summary still shown.
    peer = RunConfig(bench=umb_bench, out=tmp_path / "f1", systems=("rag_bm25",), model="oracle",
                     scoring=ScoringOptions(scorer="locomo_f1"))  # fmt: skip
    (group,) = run_eval(peer, progress=False).results["groups"]
    assert group["native"] is None and group["peer"]["overall_micro"] == 1.0
    report = build_report([tmp_path / "f1"], tmp_path / "report-f1")
    html = report.index.read_text()
    assert "native" in report.sections and "scored by locomo_f1@2: n 5; overall_micro 1.000" in html
