"""The reduced tiny run end to end: a from-scratch model learns the current stage and forgets
earlier ones; evaluation resumes; the hf/ path and LoRA train; torch stays optional."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from umb import ConfigError, MissingDependencyError
from umb.parametric import PRESETS, TrainConfig, evaluate, train
from umb.parametric._evallog import read_records, record_key
from umb.parametric._torch import require
from umb.scoring import SCORERS


def _matrix(run: Path, metric: str) -> dict[tuple[str, int, int], float]:
    path = run / "retention" / metric / "retention_overall_matrix_long.csv"
    with path.open() as f:
        return {
            (r["split_type"], int(r["checkpoint_stage"]), int(r["eval_stage"])): float(
                r["overall_score"]
            )
            for r in csv.DictReader(f)
        }


def test_current_stage_is_learned_and_earlier_stages_are_forgotten(ci_run: dict[str, Any]) -> None:
    m = _matrix(ci_run["out"] / "run", "loglik")
    seen = "supervised_character"
    # Learning: after training a stage, its gold answers are far likelier than untrained.
    for s in (1, 2):
        assert m[(seen, s, s)] > m[(seen, 0, s)] + 0.3, m
    # Forgetting: stage 1 loses ground once stage 2 is trained without it.
    assert m[(seen, 2, 1)] < m[(seen, 1, 1)] - 0.1, m
    # What was learned is the trained questions, not just the answer format.
    assert m[(seen, 1, 1)] > m[("never_trained_character", 1, 1)] + 0.2, m
    summary = ci_run["summary"]["metrics"]["loglik"]["seen"]
    assert summary["final_mean_retention_rate"] < 0.9
    lo, hi = summary["final_retention_ci"]
    assert lo <= summary["final_mean_retention_rate"] <= hi


def test_generation_is_scored_with_the_family_scorers(ci_run: dict[str, Any]) -> None:
    run = ci_run["out"] / "run"
    records = read_records(run / "eval" / "records.jsonl")
    assert len({record_key(r) for r in records}) == len(records)
    for r in records:
        assert r["scorer"] == SCORERS[r["family"]].name
        assert r["gen_score"] in (0.0, 0.5, 1.0) and 0 < r["ll_score"] <= 1
    current = [r["gen_score"] for r in records
               if r["split"] == "seen" and r["stage_relation"] == "current"]  # fmt: skip
    untrained = [r["gen_score"] for r in records if r["checkpoint_stage"] == 0]
    assert sum(current) / len(current) > sum(untrained) / len(untrained) + 0.3
    gen = _matrix(run, "generation")
    assert gen[("supervised_character", 1, 1)] > gen[("supervised_character", 0, 1)]
    figures = run / "retention" / "figures"
    for name in ("heatmap_loglik", "curves_loglik", "heatmap_generation", "curves_generation"):
        assert (figures / f"{name}.png").stat().st_size > 5000
        assert (figures / f"{name}.svg").read_text().lstrip().startswith("<?xml")
    assert "retention" in (run / "retention" / "index.html").read_text()


def test_eval_resumes_after_a_kill(ci_run: dict[str, Any], tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(ci_run["out"] / "run", run)
    shutil.copytree(
        ci_run["out"] / "project", tmp_path / "project"
    )  # run.json points at ../project
    path = run / "eval" / "records.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    # A kill mid-write: five records lost, the sixth half written.
    path.write_bytes(b"".join(lines[:-6]) + lines[-6][:25])
    result = evaluate(run, PRESETS["ci"].eval)
    assert result["new"] == 6
    after = path.read_bytes().splitlines(keepends=True)
    assert len(after) == len(lines)
    assert {record_key(json.loads(x)) for x in after} == {record_key(json.loads(x)) for x in lines}
    assert evaluate(run, PRESETS["ci"].eval)["new"] == 0
    with pytest.raises(ConfigError):
        evaluate(run, PRESETS["ci"].eval.__class__(max_new_tokens=12))


def test_training_resumes_and_refuses_other_settings(ci_run: dict[str, Any]) -> None:
    run = ci_run["out"] / "run"
    project = ci_run["out"] / "project"
    log = (run / "train_log.jsonl").read_bytes()
    train(project, run, PRESETS["ci"].train)  # every checkpoint is complete: nothing to do
    assert (run / "train_log.jsonl").read_bytes() == log
    with pytest.raises(ConfigError):
        train(project, run, TrainConfig(sft_epochs=1))


def test_hf_model_path_with_lora(ci_run: dict[str, Any], tmp_path: Path) -> None:
    torch = require("torch")
    safetensors = require("safetensors.torch")
    base = ci_run["out"] / "run" / "checkpoints" / "stage_00"
    config = TrainConfig(model=f"hf/{base}", pt_method="skip", sft_method="lora", sft_epochs=1,
                         sft_lr=5e-3, lora_rank=4, lora_alpha=8, batch_size=8, max_length=512,
                         threads=1)  # fmt: skip
    paths = train(ci_run["out"] / "project", tmp_path / "lora", config)
    before = safetensors.load_file(str(base / "model.safetensors"))
    after = safetensors.load_file(str(paths[1] / "model.safetensors"))
    assert set(after) == set(before)  # merged back: plain weights, no adapter tensors
    changed = [k for k in before if not torch.equal(before[k], after[k])]
    assert changed and all("proj" in k for k in changed)
    info = json.loads((paths[1] / "checkpoint.json").read_text())
    assert info["phases"]["qa_sft"]["method"] == "lora" and info["phases"]["pt"]["steps"] == 0


def test_torch_is_optional() -> None:
    code = "import sys, umb.parametric, umb._cli.parametric; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    with pytest.raises(MissingDependencyError, match=r"unifiedmembench\[train\]"):
        require("umb_no_such_package")


def test_loglik_reads_the_answer_values_not_the_json(ci_run: dict[str, Any]) -> None:
    from umb.parametric import Project
    from umb.parametric._checkpoints import load_checkpoint
    from umb.parametric._encode import Encoder

    _, tokenizer = load_checkpoint(ci_run["out"] / "run" / "checkpoints" / "stage_00",
                                   device="cpu", dtype=None)  # fmt: skip
    encoder = Encoder(tokenizer, 512)
    items = Project.open(ci_run["out"] / "project").eval_items(1, "seen")
    # KU's gold is one field, IE's another; a stage need not hold both families.
    field = {"KU": "latest_state", "IE": "answer"}
    item = next(i for i in items if i.question.family in field)
    scored = encoder.scored(item.prompt, item.output, item.spans)
    kept = tokenizer.decode(
        [t for t, m in zip(scored.target_ids, scored.value_mask, strict=True) if m]
    )
    key = field[item.question.family]
    assert item.question.gold[key] in kept
    assert key not in kept and "{" not in kept
    assert scored.target_ids[-1] == tokenizer.eos_token_id
    example = encoder.supervised(item.prompt, item.output)
    assert example.ids == scored.prompt_ids + scored.target_ids  # trained on what is scored
