"""``umb parametric eval``: every checkpoint on every stage it has learned, resumably.

Checkpoint ``c`` is scored on stages ``1..c`` (the untrained checkpoint 0 on all stages, the
floor everything is compared with), on each split, by log-likelihood of the gold answer and by
generation. Records go to ``RUN/eval/records.jsonl`` as they are made; a rerun scores only what
is missing, and a checkpoint with nothing missing is not even loaded.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from umb._errors import ConfigError
from umb._jsonio import atomic_write_bytes, dumps_pretty, read_json
from umb.parametric._checkpoints import (
    checkpoint_dir,
    complete_checkpoints,
    load_checkpoint,
    read_run_header,
)
from umb.parametric._config import EvalConfig, Split, TrainConfig
from umb.parametric._encode import Encoder
from umb.parametric._evallog import HEADER, RECORDS, open_log
from umb.parametric._project import EvalItem, Project
from umb.parametric._score import generate_batch, loglik_batch, score_generation
from umb.parametric._torch import pick_device, pick_dtype, release_memory, set_threads

#: Settings that change what a record means; a resumed run must keep them.
_FIXED = ("metrics", "splits", "max_new_tokens", "max_items", "seed")


def eval_dir(run: Path) -> Path:
    """``RUN/eval``."""
    return run / "eval"


def _check_header(run: Path, config: EvalConfig) -> None:
    path = eval_dir(run) / HEADER
    wanted = {k: v for k, v in config.to_dict().items() if k in _FIXED}
    if path.exists():
        old = read_json(path)
        if {k: old.get(k) for k in _FIXED} != wanted:
            raise ConfigError(
                f"{path.parent} was scored with other settings ({old}); "
                "use the same --metrics/--splits/--max-new-tokens/--max-items or delete it"
            )
        return
    atomic_write_bytes(path, dumps_pretty(wanted))


def _relation(checkpoint: int, stage: int) -> str:
    if checkpoint == 0:
        return "untrained"
    return "current" if stage == checkpoint else "old" if stage < checkpoint else "future"


def _score_items(
    model: Any, encoder: Encoder, items: list[EvalItem], config: EvalConfig, device: str
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{} for _ in items]
    if "loglik" in config.metrics:
        for row, fields in enumerate(loglik_batch(model, encoder, items, device)):
            out[row].update(fields)
    if "generation" in config.metrics:
        texts = generate_batch(model, encoder, items, device, config.max_new_tokens)
        for row, (item, text) in enumerate(zip(items, texts, strict=True)):
            out[row].update(score_generation(item, text))
    return out


def evaluate(
    run_dir: str | Path,
    config: EvalConfig,
    *,
    project_dir: str | Path | None = None,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Score every complete checkpoint of a run; resumable.

    Args:
        run_dir: A run directory of :func:`umb.parametric.train`.
        config: Metrics, splits and batch settings.
        project_dir: The project, if it moved since training (default: the one in ``run.json``).
        log: Receives one progress line per checkpoint.

    Returns:
        ``{"records": total records, "new": records written now, "seconds": …}``.
    """
    say = log or (lambda _msg: None)
    run = Path(run_dir)
    header = read_run_header(run)
    project = Project.open(project_dir or (run / header["project"]))
    train_config = TrainConfig.from_dict(header["train"])
    device = pick_device(config.device or train_config.device)
    dtype = pick_dtype(train_config.dtype, device)
    set_threads(train_config.threads)
    _check_header(run, config)
    started = time.perf_counter()
    new = 0
    with open_log(eval_dir(run) / RECORDS) as records:
        for c in complete_checkpoints(run, project.stages):
            if c == 0 and not config.include_base:
                continue
            stages = range(1, project.stages + 1) if c == 0 else range(1, c + 1)
            todo: list[tuple[int, Split, list[EvalItem]]] = []
            for s in stages:
                for split in config.splits:
                    items = project.eval_items(s, split, limit=config.max_items, seed=config.seed)
                    items = [i for i in items if (c, split, i.item_id) not in records]
                    if items:
                        todo.append((s, split, items))
            if not todo:
                continue
            t0 = time.perf_counter()
            model, tokenizer = load_checkpoint(checkpoint_dir(run, c), device=device, dtype=dtype)
            model.eval()
            encoder = Encoder(tokenizer, train_config.max_length)
            count = 0
            for s, split, items in todo:
                for lo in range(0, len(items), config.batch_size):
                    batch = items[lo : lo + config.batch_size]
                    for item, fields in zip(
                        batch, _score_items(model, encoder, batch, config, device), strict=True
                    ):
                        records.append(
                            {
                                "checkpoint_stage": c,
                                "eval_stage": s,
                                "stage_relation": _relation(c, s),
                                "split": split,
                                "item_id": item.item_id,
                                "question_id": item.question.id,
                                "family": item.question.family,
                                "dialogue_id": item.question.dialogue_id,
                                **fields,
                            }
                        )
                        count += 1
            new += count
            say(f"checkpoint {c}: scored {count} items ({time.perf_counter() - t0:.1f}s)")
            del model
            release_memory(device)
        total = len(records.records)
    return {"records": total, "new": new, "seconds": round(time.perf_counter() - started, 2)}
