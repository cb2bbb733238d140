"""Parametric memory: what a model keeps in its weights after stagewise continual training.

``prepare`` turns a benchmark into a project of training stages (LLaMA-Factory compatible),
``train`` trains stage after stage, ``evaluate`` scores every checkpoint on every stage it has
learned, ``write_retention`` turns the scores into retention matrices, CSVs and figures, and
``run_preset`` does all of it. torch, transformers and peft (the ``train`` extra) load only
when a model is built or trained.
"""

from umb.parametric._config import (
    METRICS,
    SPLITS,
    EvalConfig,
    PrepareConfig,
    TinyModelConfig,
    TrainConfig,
)
from umb.parametric._evaluate import evaluate
from umb.parametric._llamafactory import check_llamafactory, dataset_info
from umb.parametric._pipeline import PRESETS, Preset, run_preset
from umb.parametric._prepare import prepare
from umb.parametric._project import EvalItem, Project
from umb.parametric._report import write_retention
from umb.parametric._retention import RetentionConfig, SplitRetention, retention
from umb.parametric._train import train

__all__ = [
    "METRICS",
    "PRESETS",
    "SPLITS",
    "EvalConfig",
    "EvalItem",
    "Preset",
    "PrepareConfig",
    "Project",
    "RetentionConfig",
    "SplitRetention",
    "TinyModelConfig",
    "TrainConfig",
    "check_llamafactory",
    "dataset_info",
    "evaluate",
    "prepare",
    "retention",
    "run_preset",
    "train",
    "write_retention",
]
