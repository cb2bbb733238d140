"""A run's execution traces: one trace file per memory system, and the runner's own operations.

Layout: ``RUN/traces/<system>.jsonl.gz`` (JSON lines in gzip members: ``zcat`` reads it; a run
begun by an older umb keeps its plain ``<system>.jsonl``). Each system's memory units, contexts
and answers are its own, so each system's work is one trace in which the identities of
docs/tracing.md are unique. The runner records the ``answer`` and ``score`` operations of each
question (and one ``judge_vote`` per vote of umb's judge); the memory systems record the rest.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from umb.bench import Question
from umb.trace import (
    BaseTracer,
    InputsRef,
    OpHandle,
    TraceConfig,
    answer_var,
    context_var,
    judgement_var,
    open_tracer,
    operation,
    query_var,
    var,
)

if TYPE_CHECKING:
    from umb.models import GenerateResult

TRACES: Final = "traces"
"""The folder of a run directory that holds the traces."""


_PLAIN: Final = ".jsonl"
_COMPRESSED: Final = ".jsonl.gz"


def trace_path(run_dir: Path, system: str) -> Path:
    """Where the trace of ``system`` in a run directory lives: ``RUN/traces/<system>.jsonl.gz``,
    or the plain ``<system>.jsonl`` of a run an older umb began (it is resumed as it is)."""
    plain = run_dir / TRACES / f"{system}{_PLAIN}"
    return plain if plain.exists() else run_dir / TRACES / f"{system}{_COMPRESSED}"


def trace_paths(run_dir: Path) -> dict[str, Path]:
    """Every trace of a run directory: system name -> trace file (sorted by name)."""
    folder = run_dir / TRACES
    if not folder.is_dir():
        return {}
    found: dict[str, Path] = {}
    for suffix in (_COMPRESSED, _PLAIN):  # a plain file is the one a resumed run appends to
        for p in folder.glob(f"*{suffix}"):
            if p.is_file():
                found[p.name.removesuffix(suffix)] = p
    return dict(sorted(found.items()))


class RunTracers:
    """The tracers of one ``umb eval`` call, opened on first use (resuming any earlier trace).

    Args:
        run_dir: The run directory.
        enabled: False gives every system the no-op tracer and writes nothing (``--no-trace``).
        meta: Written into each trace's header, with the system's name added.
        bench: The benchmark directory: the traces refer to its turns instead of copying them.
    """

    def __init__(
        self, run_dir: Path, *, enabled: bool, meta: dict[str, Any], bench: Path | None = None
    ) -> None:
        self.run_dir = run_dir
        self.enabled = enabled
        self.meta = meta
        self._config = TraceConfig()
        if bench is not None and isinstance(meta.get("benchmark"), str):
            # Relative to the traces' folder, so a run directory moved with its benchmark works.
            rel = os.path.relpath(bench.resolve(), (run_dir / TRACES).resolve())
            self._config = TraceConfig(inputs=InputsRef(meta["benchmark"], Path(rel).as_posix()))
        self._open: dict[str, BaseTracer] = {}

    def get(self, system: str) -> BaseTracer:
        """The tracer of ``system``."""
        tracer = self._open.get(system)
        if tracer is None:
            tracer = self._open[system] = open_tracer(
                trace_path(self.run_dir, system),
                enabled=self.enabled,
                resume=True,
                config=self._config,
                meta={"system": system, **self.meta},
            )
        return tracer

    def close(self) -> None:
        """Flush and close every trace opened."""
        for tracer in self._open.values():
            tracer.close()


def answer_op(question: Question, model: str) -> OpHandle:
    """Open the ``answer`` operation of a question: from its context and query to its answer."""
    reads = (context_var(question.id), query_var(question.id))
    return operation("answer", "response", reads=reads, model=model)


def record_answer(op: OpHandle, question: Question, result: GenerateResult) -> None:
    """Record the model's reply (or its failure) on the ``answer`` operation."""
    op.usage(None, result.input_tokens, result.output_tokens)
    if result.error is not None:
        op.fail(result.error)
        return
    op.write(answer_var(question.id), result.text)
    if result.cached:
        op.set(cached=True)


def score_op(question: Question, answered: bool) -> OpHandle:
    """Open the ``score`` operation of a question (it reads the answer when there is one)."""
    reads = (answer_var(question.id),) if answered else ()
    return operation("score", "judge", reads=reads)


def record_score(op: OpHandle, question: Question, scored: dict[str, Any]) -> None:
    """Record the score (and each judge vote) on the ``score`` operation."""
    if op.id is None:  # not tracing: nothing to build
        return
    details = scored.get("score_details")
    judged = details.get("judge") if isinstance(details, dict) else None
    if isinstance(judged, dict) and judged.get("votes"):
        _record_votes(op, question, judged)
    value = scored.get("score")
    op.write(
        judgement_var(question.id),
        {
            "value": value,
            "scorer": scored.get("scorer"),
            "parse_status": scored.get("parse_status"),
            "details": details,
        },
    )
    op.set(
        scorer=scored.get("scorer"),
        value=value,
        parse_status=scored.get("parse_status"),
        invalid_json=bool(scored.get("invalid_json")),
    )


def _record_votes(op: OpHandle, question: Question, judged: dict[str, Any]) -> None:
    # The judge grades a batch in one call; each vote becomes its own operation afterwards, so
    # a JudgeError can point at the votes that disagreed with the rules.
    reasons = list(judged.get("reasons") or [])
    model = judged.get("model")
    for k, vote in enumerate(judged["votes"], start=1):
        identity = var("vote", f"{question.id}:{k}")
        reason = reasons[k - 1] if k <= len(reasons) else ""
        reads = (answer_var(question.id),)
        with operation("judge_vote", "judge", reads=reads, model=model) as v:
            v.write(identity, {"vote": vote, "reason": reason})
            if vote is None:
                v.fail(reason or "the vote failed")
        op.read(identity)
