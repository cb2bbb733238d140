"""``umb run``: the whole pipeline on built-in defaults — demo benchmark, six systems, report.

Everything runs offline (the ``offline`` answerer, rule-based memory extraction, the bundled
dense embedder), so the first command a user types needs no key, model or network.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

from umb.pipeline._evaluate import evaluate
from umb.pipeline._generate import generate, resolve_config
from umb.report import build_report
from umb.run import RunConfig, RunOutcome

DEFAULT_SYSTEMS: Final = (
    "full_context",
    "rag_bm25",
    "rag_dense",
    "mem0_style",
    "no_context",
    "oracle_evidence",
)
DEFAULT_PRESET: Final = "demo"


@dataclass(frozen=True)
class QuickstartOutcome:
    """Where ``umb run`` put things, and the evaluation's outcome."""

    bench: Path
    run: RunOutcome
    report: Path
    generated: bool
    """False when an existing benchmark in ``OUT/bench`` was reused."""


def run_quickstart(
    out: Path,
    *,
    systems: tuple[str, ...] = DEFAULT_SYSTEMS,
    model: str = "offline",
    progress: bool | None = None,
) -> QuickstartOutcome:
    """Generate the demo benchmark, evaluate ``systems`` with ``model``, write the report.

    Args:
        out: Output folder: ``bench/``, ``run/`` and ``report/`` go inside. A second call
            reuses the benchmark and resumes the run (nothing is recomputed).
        systems: Memory systems to evaluate.
        model: Answerer spec.
        progress: Progress bar on stderr (None: when stderr is a terminal).

    Returns:
        A :class:`QuickstartOutcome`.
    """
    bench = out / "bench"
    generated = not (bench / "manifest.json").exists()
    if generated:
        generate(resolve_config(DEFAULT_PRESET), bench)
    config = RunConfig(bench=bench, out=out / "run", systems=systems, model=model)
    outcome = evaluate(config, progress=progress)
    report = build_report([out / "run"], out / "report")
    return QuickstartOutcome(bench, outcome, report.index, generated)
