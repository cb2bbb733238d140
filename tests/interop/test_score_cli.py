"""``umb score`` from the command line: accounting of ids, several scorers, bad lines."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
from click.testing import CliRunner

from umb._cli.main import cli


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    return path


def test_score_counts_unknown_and_missing_and_writes_a_run(umb_bench: Path, tmp_path: Path) -> None:
    preds = _write(
        tmp_path / "mine.jsonl",
        [
            {"question_id": "Q-D0001-IE-01", "answer": {"answer": "Biscuit",
             "evidence_snippets": ["a beagle"]}, "retrieved": ["D0001:S001:T0002"]},
            {"question_id": "Q-D0001-KU-01", "answer": '{"latest_state": "Acme"}'},
            {"question_id": "Q-D0001-ABS-01", "answer": None},
            {"question_id": "Q-nope", "answer": "x"},
        ],
    )  # fmt: skip
    out = tmp_path / "run"
    args = ["score", "--bench", str(umb_bench), "--predictions", str(preds), "--out", str(out)]
    res = CliRunner().invoke(cli, [*args, "--scorer", "umb,locomo_f1,longmemeval_retrieval"])
    assert res.exit_code == 0, res.output
    assert "3 predictions scored of 4 lines; 1 unknown ids, 2 questions without" in res.output
    assert (
        "unknown: Q-nope" in res.output and "missing: Q-D0001-TR-01, Q-D0002-MSR-01" in res.output
    )
    results = orjson.loads((out / "results.json").read_bytes())
    assert results["predictions"]["unknown_ids"] == ["Q-nope"] and results["complete"] is False
    (group,) = results["groups"]
    assert group["system"] == "mine" and group["n"] == 3
    assert set(group["scores"]) == {"umb", "locomo_f1", "longmemeval_retrieval"}
    records = {
        r["question_id"]: r
        for r in map(orjson.loads, (out / "records.jsonl").read_bytes().splitlines())
    }
    assert records["Q-D0001-IE-01"]["score"] == 1.0
    assert records["Q-D0001-KU-01"]["score"] == 0.0  # the deprecated value
    assert records["Q-D0001-ABS-01"]["score"] == 0.0 and records["Q-D0001-ABS-01"]["error"]
    ret = records["Q-D0001-IE-01"]["scores"]["longmemeval_retrieval"]
    assert ret["details"]["turn/recall_all@1"] == 1.0
    assert group["scores"]["longmemeval_retrieval"]["n_without_ranking"] == 2
    assert (out / "report" / "index.html").is_file()


def test_broken_line_is_one_error_line_with_exit_2(umb_bench: Path, tmp_path: Path) -> None:
    preds = tmp_path / "bad.jsonl"
    preds.write_text('{"question_id": "Q-D0001-IE-01", "answer": "x"}\n{"answer": 1\n')
    cmd = [sys.executable, "-c", "from umb._cli.main import main; main()", "score"]
    cmd += ["--bench", str(umb_bench), "--predictions", str(preds), "--out", str(tmp_path / "r")]
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert f"{preds}:2: invalid JSON" in res.stderr
    twice = _write(tmp_path / "twice.jsonl", [{"question_id": "Q-D0001-IE-01", "answer": "a"}] * 2)
    cmd[cmd.index(str(preds))] = str(twice)
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert res.returncode == 2 and "twice.jsonl:2: Q-D0001-IE-01 already has a prediction" in (
        res.stderr
    )
