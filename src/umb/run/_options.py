"""The option groups a :class:`~umb.run.RunConfig` is composed of, besides the models' own.

``ModelOptions`` (how models are reached) and ``MemoryConfig`` (how the memory systems work) live
with their layers; these two belong to the run: how answers are scored, and where the work runs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Literal

from umb._errors import ConfigError
from umb.scoring import NATIVE_SCORER, Policy

ExecutorKind = Literal["local", "ray"]
EXECUTORS: tuple[ExecutorKind, ...] = ("local", "ray")


@dataclass(frozen=True)
class ScoringOptions:
    """How replies are parsed and scored, and how the aggregates are bootstrapped."""

    scorer: str = NATIVE_SCORER
    """``umb`` (the family rules) or a peer answer scorer such as ``locomo_f1``."""
    policy: Policy = "strict"
    """JSON parsing policy: ``strict`` scores prose 0, ``lenient`` cuts a JSON object out of it."""
    judge_votes: int = 3
    """Judge votes per item (median taken)."""
    seed: int = 0
    """Bootstrap seed of the confidence intervals."""

    def __post_init__(self) -> None:
        if self.policy not in ("strict", "lenient"):
            raise ConfigError(f"unknown parse policy {self.policy!r}")
        if self.judge_votes < 1:
            raise ConfigError(f"judge votes must be at least 1, not {self.judge_votes}")


def _address_from_env() -> str | None:
    return os.environ.get("RAY_ADDRESS") or None


@dataclass(frozen=True)
class ExecutorOptions:
    """Where the units of work run: this process, or the workers of a Ray cluster.

    Operational only: a run started on one executor may be resumed on the other.
    """

    kind: ExecutorKind = "local"
    """``local``: one process; ``ray``: units of work as Ray tasks (extra ``ray``)."""
    workers: int = 1
    """Ray: units in flight at once (one CPU each)."""
    address: str | None = field(default_factory=_address_from_env)
    """Ray: the cluster to join (default ``$RAY_ADDRESS``); None starts a local one."""
    task_retries: int = 2
    """Ray: times a unit is run again after its worker died, before the run fails."""
    dashboard: bool = False
    """Ray: start the dashboard of the local cluster (on 127.0.0.1, like the cluster itself)."""

    def __post_init__(self) -> None:
        if self.kind not in EXECUTORS:
            known = ", ".join(EXECUTORS)
            raise ConfigError(f"--executor must be one of {known}, not {self.kind!r}")
        if self.workers < 1:
            raise ConfigError(f"--workers must be at least 1, not {self.workers}")
        if self.kind == "local" and self.workers != 1:
            raise ConfigError("--workers is for --executor ray (a local run uses --concurrency)")
        if self.dashboard and (self.kind != "ray" or self.address):
            raise ConfigError(
                "--ray-dashboard is for the local cluster of --executor ray; a cluster joined "
                "by --ray-address or $RAY_ADDRESS has its own"
            )
        if self.task_retries < 0:
            raise ConfigError(f"task retries must be 0 or more, not {self.task_retries}")
