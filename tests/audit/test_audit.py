"""``umb audit`` and ``umb.audit``: baselines, thresholds, the verdict, the generate-time gate."""

from __future__ import annotations

import filecmp
import json
import shutil
import subprocess
import sys
from pathlib import Path

from umb.audit import run_audit
from umb.audit._template import loo_majority

UMB = [sys.executable, "-m", "umb"]


def _umb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*UMB, *args], capture_output=True, text=True)


def _rewrite(bench: Path, edit: object) -> None:
    path = bench / "questions.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    path.write_text("".join(json.dumps(edit(r)) + "\n" for r in rows))  # type: ignore[operator]


def _same_ie_gold(r: dict) -> dict:
    """Every IE gold the same: the template gives it away."""
    if r["family"] == "IE":
        r["gold"]["answer"] = "the lighthouse"
        r["meta"]["aliases"] = []
    return r


def test_loo_majority_never_sees_its_own_gold() -> None:
    # Template t: golds a, b, b, b. The lone "a" gets "b"; each "b" sees two other "b"s
    # (never itself); u's only question has no other to learn from.
    picks = loo_majority(["t", "t", "t", "t", "u"], [b"a", b"b", b"b", b"b", b"c"])
    assert picks == [1, 2, 1, 1, None]
    # Two questions with different golds each get the other's, so both are wrong.
    assert loo_majority(["t", "t"], [b"x", b"y"]) == [1, 0]


def test_unique_golds_give_the_template_prior_nothing(demo_bench: Path, tmp_path: Path) -> None:
    bench = tmp_path / "b"
    shutil.copytree(demo_bench, bench)

    def unique(r: dict) -> dict:
        if r["family"] == "IE":
            r["gold"]["answer"] = f"value {r['id']}"
            r["meta"]["aliases"] = []
        return r

    _rewrite(bench, unique)
    report = run_audit(bench, retrieval=False)
    assert report["baselines"]["template_prior"]["families"]["IE"]["mean"] == 0.0


def test_planted_shortcut_fails_naming_the_family(demo_bench: Path, tmp_path: Path) -> None:
    bench = tmp_path / "planted"
    shutil.copytree(demo_bench, bench)

    _rewrite(bench, _same_ie_gold)
    run = _umb("audit", str(bench), "--no-retrieval")
    assert run.returncode == 1, run.stderr
    assert "template_prior on IE" in run.stdout
    line = next(x for x in run.stdout.splitlines() if "template_prior on IE" in x)
    assert line.count("Q-") == 3
    report = run_audit(bench, retrieval=False)
    ie = report["baselines"]["template_prior"]["families"]["IE"]
    assert ie["mean"] >= 20  # a template's lone question has no other to learn from


def test_audit_json_structure(demo_bench: Path, tmp_path: Path) -> None:
    out = tmp_path / "audit"
    run = _umb("audit", str(demo_bench), "--out", str(out))
    assert run.returncode in (0, 1), run.stderr
    report = json.loads((out / "audit.json").read_text())
    assert (out / "audit.md").read_text().startswith("## Audit")
    assert report["format"] == "umb-audit" and report["verdict"] in ("passed", "failed")
    assert set(report["baselines"]) == {
        "question_only", "profile_only", "template_prior", "first_mention", "latest_mention",
        "cue_matching",
    }  # fmt: skip
    assert "ABS" not in report["floor"]
    for fig in report["floor"].values():
        assert fig["ci95"][0] <= fig["mean"] <= fig["ci95"][1]
    assert set(report["baselines"]["cue_matching"]["families"]) == {"MSR", "ES"}
    assert set(report["retrieval"]["bm25_recall_at_5"]) <= {"IE", "MSR", "ES", "TR", "KU", "MA"}
    for check in report["checks"]:
        assert check["over"] == (check["value"] > check["max"])
        assert check["passed"] == (not check["over"] or check["ci95"][0] <= check["max"])
        assert not check["over"] or 1 <= len(check["examples"]) <= 3
    assert (report["verdict"] == "failed") == bool(report["failures"]) == (run.returncode == 1)
    again = _umb("audit", str(demo_bench), "--out", str(out))
    assert again.returncode == 2 and "--force" in again.stderr


def test_bad_input_is_one_line_exit_2(demo_bench: Path, tmp_path: Path) -> None:
    run = _umb("audit", str(tmp_path / "missing"))
    assert run.returncode == 2
    assert run.stderr.strip().count("\n") == 0 and "not a benchmark directory" in run.stderr
    bench = tmp_path / "broken"
    shutil.copytree(demo_bench, bench)
    lines = (bench / "questions.jsonl").read_text().count("\n")
    with (bench / "questions.jsonl").open("a") as f:
        f.write("{not json\n")
    run = _umb("audit", str(bench))
    assert run.returncode == 2 and f"questions.jsonl:{lines + 1}:" in run.stderr
    assert run.stderr.strip().count("\n") == 0


def test_gate_records_the_audit_and_keeps_the_records(demo_bench: Path, tmp_path: Path) -> None:
    out = tmp_path / "gated"
    run = _umb("generate", "--out", str(out), "--no-progress")
    assert run.returncode == 0, run.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    record = manifest["audit"]
    assert record["verdict"] == "passed" and "audit: passed" in run.stdout
    assert set(record["baselines"]) >= {"template_prior", "cue_matching"}
    for name in ("world.json", "dialogues.jsonl", "questions.jsonl", "facts.jsonl"):
        assert filecmp.cmp(out / name, demo_bench / name, shallow=False), name
    plain = json.loads((demo_bench / "manifest.json").read_text())
    assert {k: v for k, v in manifest.items() if k != "audit"} == plain
    assert _umb("validate", str(out)).returncode == 0


def test_no_audit_skips_the_gate(tmp_path: Path) -> None:
    skipped = _umb("generate", "--characters", "3", "--out", str(tmp_path / "a"), "--no-audit")
    assert skipped.returncode == 0 and "audit: skipped" in skipped.stdout
    assert "audit" not in json.loads((tmp_path / "a" / "manifest.json").read_text())


def test_a_failed_gate_exits_1_and_keeps_the_benchmark(demo_bench: Path, tmp_path: Path) -> None:
    planted = tmp_path / "planted"
    shutil.copytree(demo_bench, planted)
    _rewrite(planted, _same_ie_gold)
    out = tmp_path / "merged"
    run = _umb("merge", str(planted), "--out", str(out))  # merge gates as generate does
    assert run.returncode == 1, run.stderr
    assert "audit: failed" in run.stdout and "template_prior on IE" in run.stdout
    assert "is written" in run.stderr and "Traceback" not in run.stderr
    record = json.loads((out / "manifest.json").read_text())["audit"]
    assert record["verdict"] == "failed"
    assert [(f["baseline"], f["family"]) for f in record["failures"]] == [("template_prior", "IE")]
    assert _umb("validate", str(out)).returncode == 0  # nothing written is lost


def test_an_excess_within_noise_is_reported_not_failed(tmp_path: Path) -> None:
    # Eight characters: two KU golds of one wording happen to be the same job, so the
    # template prior's KU mean is over 5 % on nine questions, but its interval reaches 0.
    run = _umb("generate", "--characters", "8", "--out", str(tmp_path / "b"), "--no-progress")
    assert run.returncode == 0, run.stderr
    record = json.loads((tmp_path / "b" / "manifest.json").read_text())["audit"]
    assert record["verdict"] == "passed" and not record["failures"]
    assert record["over_within_noise"]
    for over in record["over_within_noise"]:
        assert over["value"] > over["max"] >= over["ci95"][0]
        assert over["baseline"] in run.stdout


def test_merge_gates_to_the_one_shot_bytes(tmp_path: Path) -> None:
    for i in (0, 1):
        shard = _umb("generate", "--shard", f"{i}/2", "--out", str(tmp_path / f"s{i}"))
        assert shard.returncode == 0 and "skipped for a shard" in shard.stdout
    assert "audit" not in json.loads((tmp_path / "s0" / "manifest.json").read_text())
    assert _umb("merge", str(tmp_path / "s0"), str(tmp_path / "s1"), "--out",
                str(tmp_path / "m")).returncode == 0  # fmt: skip
    assert _umb("generate", "--out", str(tmp_path / "one"), "--no-progress").returncode == 0
    assert filecmp.cmp(tmp_path / "m" / "manifest.json", tmp_path / "one" / "manifest.json",
                       shallow=False)  # fmt: skip
