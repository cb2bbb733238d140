"""``umb parametric train``: stagewise continual training, one checkpoint per stage.

Stage ``s`` starts from checkpoint ``s - 1`` (stage 0 is the untrained starting point) and runs
two phases, as the original did: pre-training on the stage's dialogue windows, then QA
fine-tuning on its seen characters' questions. Each phase is full fine-tuning or LoRA (merged
back into the weights afterwards, so the next stage again starts from plain weights); each has
a fresh optimizer with warmup and linear decay. A killed run resumes from the last complete
checkpoint.
"""

from __future__ import annotations

import math
import random
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from umb.parametric._checkpoints import (
    TRAIN_LOG,
    checkpoint_dir,
    is_complete,
    load_checkpoint,
    save_checkpoint,
    write_run_header,
)
from umb.parametric._config import Method, TrainConfig
from umb.parametric._encode import IGNORE, Encoder, Example
from umb.parametric._project import Project
from umb.parametric._tiny import build_model, train_tokenizer
from umb.parametric._torch import (
    pick_device,
    pick_dtype,
    require,
    seed_everything,
    set_threads,
)

Log = Callable[[str], None]


def _collate(batch: list[Example], pad_id: int, device: str) -> dict[str, Any]:
    torch: Any = require("torch")
    width = max(len(e.ids) for e in batch)
    ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
    labels = torch.full((len(batch), width), IGNORE, dtype=torch.long)
    mask = torch.zeros((len(batch), width), dtype=torch.long)
    for i, e in enumerate(batch):
        n = len(e.ids)
        ids[i, :n] = torch.tensor(e.ids)
        labels[i, :n] = torch.tensor(e.labels)
        mask[i, :n] = 1
    return {
        "input_ids": ids.to(device),
        "labels": labels.to(device),
        "attention_mask": mask.to(device),
    }


def _batch_plan(
    n_examples: list[int], batch_size: int, epochs: float, rng: random.Random
) -> list[list[int]]:
    """Batches of similar length (less padding), shuffled per epoch, for ``epochs`` passes."""
    order = sorted(range(len(n_examples)), key=lambda i: n_examples[i])
    batches = [order[i : i + batch_size] for i in range(0, len(order), batch_size)]
    total = math.ceil(len(batches) * epochs)
    plan: list[list[int]] = []
    while len(plan) < total:
        epoch = list(batches)
        rng.shuffle(epoch)
        plan += epoch
    return plan[:total]


def _wrap_lora(model: Any, config: TrainConfig) -> Any:
    peft: Any = require("peft")
    lora = peft.LoraConfig(
        r=config.lora_rank,
        lora_alpha=config.lora_alpha,
        lora_dropout=config.lora_dropout,
        target_modules="all-linear",
        task_type="CAUSAL_LM",
    )
    if config.gradient_checkpointing:
        model.enable_input_require_grads()
    with warnings.catch_warnings():
        # peft asks transformers 5 through a deprecated alias; nothing for a user to act on.
        warnings.filterwarnings(
            "ignore", message=".*is_gradient_checkpointing", category=FutureWarning
        )
        return peft.get_peft_model(model, lora)


def run_phase(
    model: Any,
    examples: list[Example],
    *,
    method: Method,
    epochs: float,
    lr: float,
    config: TrainConfig,
    pad_id: int,
    device: str,
    seed: int,
    on_step: Callable[[int, int, float, float], None],
) -> tuple[Any, dict[str, Any]]:
    """Train ``model`` on ``examples``; returns the (merged) model and a summary of the phase."""
    torch: Any = require("torch")
    if method == "skip" or not examples or epochs <= 0:
        return model, {"method": "skip" if method == "skip" else method, "steps": 0}
    started = time.perf_counter()
    if config.gradient_checkpointing:
        model.gradient_checkpointing_enable()
    if method == "lora":
        model = _wrap_lora(model, config)
    model.train()
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=lr, weight_decay=config.weight_decay)
    rng = random.Random(seed)
    plan = _batch_plan([len(e.ids) for e in examples], config.batch_size, epochs, rng)
    steps = math.ceil(len(plan) / config.grad_accum)
    warmup = max(1, math.ceil(steps * config.warmup_ratio))

    def factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / warmup
        return max(0.0, (steps - step) / max(1, steps - warmup))

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, factor)
    losses: list[float] = []
    window: list[float] = []
    for i, batch_ids in enumerate(plan):
        batch = _collate([examples[j] for j in batch_ids], pad_id, device)
        loss = model(**batch).loss
        (loss / config.grad_accum).backward()
        window.append(float(loss.detach()))
        if (i + 1) % config.grad_accum == 0 or i + 1 == len(plan):
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            step_loss = sum(window) / len(window)
            losses.append(step_loss)
            window = []
            on_step(len(losses), steps, step_loss, scheduler.get_last_lr()[0])
    if method == "lora":
        model = model.merge_and_unload()
    if config.gradient_checkpointing:
        model.gradient_checkpointing_disable()
    model.eval()
    return model, {
        "method": method,
        "examples": len(examples),
        "steps": steps,
        "first_loss": losses[0],
        "last_loss": losses[-1],
        "seconds": round(time.perf_counter() - started, 2),
    }


class _StepLog:
    """Appends one line per optimiser step to the training log."""

    def __init__(self, file: Any, stage: int, phase: str) -> None:
        self.file, self.stage, self.phase = file, stage, phase

    def __call__(self, step: int, steps: int, loss: float, lr: float) -> None:
        record = {"stage": self.stage, "phase": self.phase, "step": step, "steps": steps}
        self.file.write(orjson.dumps({**record, "loss": round(loss, 5), "lr": lr}) + b"\n")


def _starting_point(
    project: Project, config: TrainConfig, device: str, dtype: Any
) -> tuple[Any, Any]:
    if config.model == "tiny":
        texts: list[str] = []
        for stage in range(1, project.stages + 1):
            texts += project.pretraining_texts(stage)
            texts += [p + "\n" + o for p, o in project.supervised_pairs(stage)]
        tokenizer = train_tokenizer(texts, config.tiny.vocab_size)
        return build_model(config.tiny, tokenizer, config.seed).to(device), tokenizer
    path = config.model.removeprefix("hf/")
    return load_checkpoint(path, device=device, dtype=dtype, local_only=not config.allow_download)


def train(
    project_dir: str | Path,
    run_dir: str | Path,
    config: TrainConfig,
    *,
    log: Log | None = None,
) -> list[Path]:
    """Train every stage of a project in turn, saving a checkpoint after each.

    Args:
        project_dir: A prepared project.
        run_dir: Where ``run.json``, ``train_log.jsonl`` and ``checkpoints/stage_XX`` go.
        config: Model, methods and optimiser settings.
        log: Receives one line per phase (progress).

    Returns:
        The checkpoint folders, stage 0 (untrained) first.
    """
    say = log or (lambda _msg: None)
    project = Project.open(project_dir)
    run = Path(run_dir)
    run.mkdir(parents=True, exist_ok=True)
    write_run_header(run, project.root, project.content_hash, project.stages, config)
    device = pick_device(config.device)
    dtype = pick_dtype(config.dtype, device)
    set_threads(config.threads)
    seed_everything(config.seed)

    model = tokenizer = None
    if not is_complete(run, 0):
        model, tokenizer = _starting_point(project, config, device, dtype)
        save_checkpoint(run, 0, model, tokenizer, {"source": config.model})
        say("stage 0: saved the untrained starting point")
    loaded_stage = 0 if model is not None else -1
    log_file = (run / TRAIN_LOG).open("ab")
    try:
        for stage in range(1, project.stages + 1):
            if is_complete(run, stage):
                continue
            if loaded_stage != stage - 1:
                model, tokenizer = load_checkpoint(
                    checkpoint_dir(run, stage - 1), device=device, dtype=dtype
                )
            seed_everything(config.seed + stage)
            if model is None or tokenizer is None:  # unreachable: stage 0 always exists here
                raise RuntimeError("no starting checkpoint")
            encoder = Encoder(tokenizer, config.max_length)
            phases: dict[str, Any] = {}
            plans = (
                ("pt", config.pt_method, config.pt_epochs, config.pt_lr,
                 [b for t in project.pretraining_texts(stage) for b in encoder.pretraining(t)]),
                ("qa_sft", config.sft_method, config.sft_epochs, config.sft_lr,
                 [encoder.supervised(p, o) for p, o in project.supervised_pairs(stage)]),
            )  # fmt: skip
            for phase, method, epochs, lr, examples in plans:
                model, summary = run_phase(
                    model, examples, method=method, epochs=epochs, lr=lr, config=config,
                    pad_id=tokenizer.pad_token_id, device=device, seed=config.seed + stage,
                    on_step=_StepLog(log_file, stage, phase),
                )  # fmt: skip
                log_file.flush()
                phases[phase] = summary
                if summary["steps"]:
                    say(
                        f"stage {stage} {phase}: {summary['examples']} examples, "
                        f"{summary['steps']} steps, loss {summary['first_loss']:.3f} -> "
                        f"{summary['last_loss']:.3f} ({summary['seconds']}s)"
                    )
            save_checkpoint(run, stage, model, tokenizer, {"phases": phases})
            loaded_stage = stage
    finally:
        log_file.close()
    return [checkpoint_dir(run, s) for s in range(project.stages + 1)]
