"""File names of a parametric project, as in the original release (plus the control split)."""

from __future__ import annotations

from typing import Final

from umb.parametric._config import Split

PROJECT_FILE: Final = "project.json"
PROJECT_FORMAT: Final = "umb-parametric-project"
PROJECT_FORMAT_VERSION: Final = 1
DATASET_INFO: Final = "dataset_info.json"
DIALOGUE_ASSIGNMENTS: Final = "manifests/dialogue_assignments.json"
ENTITY_SPLIT: Final = "manifests/entity_split_assignments.json"
EVAL_ALL_HELD_OUT: Final = "eval_unseen/memory_eval_all.jsonl"


def stage_tag(stage: int) -> str:
    """``stage_01`` for stage 1."""
    return f"stage_{stage:02d}"


def pt_file(stage: int) -> str:
    """Pre-training records of a stage."""
    return f"train_pt/{stage_tag(stage)}_pt.jsonl"


def sft_file(stage: int) -> str:
    """QA fine-tuning records of a stage."""
    return f"train_qa_sft/{stage_tag(stage)}.jsonl"


def eval_file(stage: int, split: Split) -> str:
    """Evaluation records of one stage and split.

    ``held_out`` keeps the original's ``eval_unseen`` name, although umb's ``control`` split is
    the one whose dialogues were truly never trained on.
    """
    if split == "seen":
        return f"eval_seen/memory_eval_{stage_tag(stage)}_seen.jsonl"
    if split == "held_out":
        return f"eval_unseen/memory_eval_{stage_tag(stage)}.jsonl"
    return f"eval_control/memory_eval_{stage_tag(stage)}_control.jsonl"


def dataset_name(stage: int, kind: str) -> str:
    """The LLaMA-Factory dataset name of a stage's ``pt`` or ``qa_sft`` records."""
    return f"umb_{stage_tag(stage)}_{kind}"
