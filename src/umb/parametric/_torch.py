"""Lazy access to the ``train`` extra (torch, transformers, peft, tokenizers)."""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

from umb._errors import MissingDependencyError


def require(name: str) -> ModuleType:
    """Import ``name`` from the ``train`` extra, or say which extra installs it."""
    import importlib

    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        module = importlib.import_module(name)
    except ImportError as e:
        raise MissingDependencyError(e.name or name, "train") from e
    if name == "transformers":
        # Per-file progress bars of saving and loading drown the per-stage progress lines.
        module.utils.logging.disable_progress_bar()
    return module


def pick_device(requested: str) -> str:
    """``requested``, or cuda when torch sees a GPU, else cpu."""
    torch: Any = require("torch")
    if requested:
        return requested
    return "cuda" if torch.cuda.is_available() else "cpu"


def pick_dtype(requested: str, device: str) -> Any:
    """The torch dtype for ``requested`` (``auto``: bfloat16 on cuda, float32 elsewhere)."""
    torch: Any = require("torch")
    if requested == "auto":
        return torch.bfloat16 if device.startswith("cuda") else torch.float32
    return getattr(torch, requested)


def set_threads(threads: int) -> None:
    """Use ``threads`` CPU threads in torch (0 leaves torch's default)."""
    if threads > 0:
        torch: Any = require("torch")
        torch.set_num_threads(threads)


def release_memory(device: str) -> None:
    """Hand a dropped model's GPU memory back before the next one loads."""
    if device.startswith("cuda"):
        torch: Any = require("torch")
        torch.cuda.empty_cache()


def seed_everything(seed: int) -> None:
    """Seed Python's, numpy's and torch's generators."""
    import random

    import numpy as np

    torch: Any = require("torch")
    random.seed(seed)
    np.random.seed(seed % (2**32))
    torch.manual_seed(seed)
