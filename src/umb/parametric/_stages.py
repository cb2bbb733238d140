"""Which dialogue is learned in which stage, and which of its characters are trained on.

Every stage's characters fall into three groups:

- ``seen`` (the original's "supervised"): dialogue pre-trained on, questions fine-tuned on;
- ``held_out`` (the original's "unseen"): dialogue pre-trained on, questions never trained;
- ``control`` (new in umb): never trained on at all, so a score there is what the model gets
  from the question alone, the floor every other split should be read against.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from umb.parametric._config import Split


@dataclass(frozen=True, slots=True)
class Assignment:
    """Where one dialogue sits in the project."""

    dialogue_id: str
    character_id: str
    character: str
    stage: int
    """1-based stage number."""
    split: Split


def assign_stages(dialogue_ids: Sequence[str], stages: int, seed: int) -> dict[str, int]:
    """Shuffle dialogues (seeded) into ``stages`` near-equal stages numbered from 1.

    The first ``len % stages`` stages get one dialogue more, so sizes differ by at most one.
    """
    order = sorted(dialogue_ids)
    random.Random(seed).shuffle(order)
    base, extra = divmod(len(order), stages)
    out: dict[str, int] = {}
    start = 0
    for stage in range(1, stages + 1):
        size = base + (1 if stage <= extra else 0)
        for dialogue_id in order[start : start + size]:
            out[dialogue_id] = stage
        start += size
    return out


def split_sizes(n: int, train_ratio: float, control_ratio: float) -> tuple[int, int, int]:
    """(seen, held_out, control) counts for a stage of ``n`` characters.

    A positive ratio gets at least one character once the stage has room for every group, so a
    small project still has all three splits; ``seen`` always keeps at least one.
    """
    if n == 0:
        return 0, 0, 0
    control = round(n * control_ratio)
    if control_ratio > 0 and control == 0 and n >= 3:
        control = 1
    control = min(control, n - 1)
    trained = n - control
    seen = max(1, round(trained * train_ratio))
    if train_ratio < 1 and seen == trained and trained >= 2:
        seen -= 1
    return seen, trained - seen, control


def split_characters(
    character_ids: Sequence[str],
    stage: int,
    *,
    seed: int,
    train_ratio: float,
    control_ratio: float,
) -> dict[str, Split]:
    """Assign each character of one stage to ``seen``, ``held_out`` or ``control``.

    Uses its own generator seeded ``seed + stage``, as the original did, so changing one stage's
    members does not reshuffle the others.
    """
    order = sorted(character_ids)
    random.Random(seed + stage).shuffle(order)
    n_seen, n_held, _ = split_sizes(len(order), train_ratio, control_ratio)
    out: dict[str, Split] = {}
    for i, cid in enumerate(order):
        out[cid] = "seen" if i < n_seen else "held_out" if i < n_seen + n_held else "control"
    return out


def build_assignments(
    dialogues: Sequence[tuple[str, str, str]],
    *,
    stages: int,
    seed: int,
    entity_split_seed: int,
    train_ratio: float,
    control_ratio: float,
) -> list[Assignment]:
    """Stage and split of every dialogue.

    Args:
        dialogues: ``(dialogue_id, character_id, character name)`` triples.
        stages: Number of stages.
        seed: Seed of the stage shuffle.
        entity_split_seed: Base seed of the per-stage character split.
        train_ratio: Share of trained characters whose questions are trained on.
        control_ratio: Share of characters never trained on.

    Returns:
        One assignment per dialogue, ordered by stage then dialogue id.
    """
    stage_of = assign_stages([d[0] for d in dialogues], stages, seed)
    by_stage: dict[int, list[tuple[str, str, str]]] = {}
    for d in dialogues:
        by_stage.setdefault(stage_of[d[0]], []).append(d)
    out: list[Assignment] = []
    for stage in sorted(by_stage):
        members = sorted(by_stage[stage])
        split = split_characters(
            [cid for _, cid, _ in members],
            stage,
            seed=entity_split_seed,
            train_ratio=train_ratio,
            control_ratio=control_ratio,
        )
        out += [Assignment(did, cid, name, stage, split[cid]) for did, cid, name in members]
    return out
