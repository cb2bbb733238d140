"""The run directory: its header, per-stage checkpoints and loading a model from one."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Final

from umb._errors import ConfigError, DataError
from umb._jsonio import atomic_write_bytes, dumps_pretty, read_json
from umb.parametric._config import TrainConfig
from umb.parametric._layout import stage_tag
from umb.parametric._torch import require

RUN_FILE: Final = "run.json"
RUN_FORMAT: Final = "umb-parametric-run"
MARKER: Final = "checkpoint.json"
TRAIN_LOG: Final = "train_log.jsonl"


def checkpoint_dir(run: Path, stage: int) -> Path:
    """``RUN/checkpoints/stage_03``; stage 0 is the untrained starting point."""
    return run / "checkpoints" / stage_tag(stage)


def is_complete(run: Path, stage: int) -> bool:
    """Whether a checkpoint was fully written (its marker is written last)."""
    return (checkpoint_dir(run, stage) / MARKER).is_file()


def complete_checkpoints(run: Path, stages: int) -> list[int]:
    """The stages (0 included) with a complete checkpoint."""
    return [s for s in range(stages + 1) if is_complete(run, s)]


def model_label(config: TrainConfig) -> str:
    """A short name of the trained model for tables (``tiny-llama-128x2``, ``Qwen2.5-0.5B``)."""
    if config.model == "tiny":
        return f"tiny-llama-{config.tiny.hidden_size}x{config.tiny.layers}"
    return Path(config.model.removeprefix("hf/").rstrip("/")).name or config.model


def write_run_header(
    run: Path, project_root: Path, project_hash: str, stages: int, config: TrainConfig
) -> None:
    """Create ``run.json``, or check that an existing one matches these settings."""
    header = {
        "format": RUN_FORMAT,
        # Relative to the run directory, so a run and its project can move together.
        "project": os.path.relpath(project_root.resolve(), run.resolve()),
        "project_hash": project_hash,
        "stages": stages,
        "model_label": model_label(config),
        "train": config.to_dict(),
    }
    path = run / RUN_FILE
    if path.exists():
        old = read_run_header(run)
        if old.get("project_hash") != project_hash or old.get("train") != header["train"]:
            raise ConfigError(
                f"{run} holds a run of another project or other settings; "
                "choose a new --out or delete it"
            )
        return
    atomic_write_bytes(path, dumps_pretty(header))


def read_run_header(run: Path) -> dict[str, Any]:
    """The ``run.json`` of a run directory."""
    data = read_json(run / RUN_FILE)
    if not isinstance(data, dict) or data.get("format") != RUN_FORMAT:
        raise DataError(str(run / RUN_FILE), None, "not a parametric run header")
    return data


def save_checkpoint(
    run: Path, stage: int, model: Any, tokenizer: Any, info: dict[str, Any]
) -> Path:
    """Save model and tokenizer for ``stage``; the marker goes last, so a kill leaves none."""
    final = checkpoint_dir(run, stage)
    tmp = final.with_name(final.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    shutil.rmtree(final, ignore_errors=True)
    tmp.rename(final)
    atomic_write_bytes(final / MARKER, dumps_pretty({"stage": stage, **info}))
    return final


def load_checkpoint(path: str | Path, *, device: str, dtype: Any, local_only: bool = True) -> Any:
    """Load ``(model, tokenizer)`` from a checkpoint folder or a Hugging Face model path."""
    transformers: Any = require("transformers")
    # transformers 5 renamed ``torch_dtype`` to ``dtype``; the extra allows both majors.
    major = int(str(transformers.__version__).split(".")[0])
    dtype_arg = {"dtype" if major >= 5 else "torch_dtype": dtype}
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(
            str(path), local_files_only=local_only
        )
        model = transformers.AutoModelForCausalLM.from_pretrained(
            str(path), local_files_only=local_only, **dtype_arg
        )
    except (OSError, ValueError) as e:
        raise ConfigError(f"cannot load a model from {path}: {e}") from e
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    if model.generation_config.pad_token_id is None:
        model.generation_config.pad_token_id = tokenizer.pad_token_id
    return model.to(device), tokenizer
