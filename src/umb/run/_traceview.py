"""A run's traces read back, with what a picture of one question needs around them.

A picture of a question is drawn from its system's trace (``RUN/traces/<system>.jsonl.gz``), cut
to what lies on paths from the question's gold evidence turns (the benchmark named in the run's
header), with the attribution of ``RUN/attributions.jsonl`` — when there is one — drawing its
evidence path and highlighting the decisive faulty operation.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any, Final

from umb._errors import ConfigError, DataError
from umb._jsonio import iter_jsonl
from umb.bench import Benchmark
from umb.run._rundir import read_header
from umb.run._traces import trace_paths
from umb.trace import Advance, Format, Trace, read_dialogues, read_trace, render_subgraph, turn_var

ATTRIBUTIONS: Final = "attributions.jsonl"
"""Attribution's output in a run directory: one JSON object per failed question."""


def _flatten(path: Any) -> Iterable[str]:
    # An evidence path is a flat list of ids; a list of such lists is accepted too.
    if isinstance(path, str):
        yield path
    elif isinstance(path, list | tuple):
        for item in path:
            yield from _flatten(item)


class RunTraceView:
    """Lazy access to a run's traces, attributions and gold evidence.

    Args:
        run_dir: A run directory of ``umb eval``.

    Raises:
        ConfigError: The run has no trace (it ran with ``--no-trace``).
    """

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.paths = trace_paths(run_dir)
        if not self.paths:
            raise ConfigError(f"{run_dir}: no traces (was the run made with --no-trace?)")
        self._traces: dict[str, Trace] = {}
        self._attributions: dict[tuple[str | None, str], dict[str, Any]] | None = None
        self._evidence: dict[str, tuple[str, ...]] | None = None

    @property
    def systems(self) -> list[str]:
        """Systems with a trace in this run."""
        return list(self.paths)

    def system(self, name: str | None) -> str:
        """Resolve ``--system``: the one named, or the only system of the run.

        Raises:
            ConfigError: The name has no trace, or none was given and the run has several.
        """
        if name is None:
            if len(self.paths) == 1:
                return next(iter(self.paths))
            raise ConfigError(
                f"{self.run_dir} traces several systems ({', '.join(self.paths)}); "
                "choose one with --system"
            )
        if name not in self.paths:
            raise ConfigError(
                f"{self.run_dir} has no trace of {name!r}; traced: {', '.join(self.paths)}"
            )
        return name

    def trace(self, system: str) -> Trace:
        """The trace of ``system`` (read once)."""
        found = self._traces.get(system)
        if found is None:
            found = self._traces[system] = read_trace(self.paths[self.system(system)])
        return found

    def focus(
        self, system: str, dialogue_ids: Collection[str], advance: Advance | None = None
    ) -> Trace:
        """Read only these dialogues of ``system``'s trace (for pictures of their questions):
        a long run's whole trace need not be in memory to draw a few of them. ``advance`` is
        told the bytes read (twice the file's size)."""
        path = self.paths[self.system(system)]
        found = self._traces[system] = read_dialogues(path, dialogue_ids, advance)
        return found

    def attribution(self, system: str, question_id: str) -> dict[str, Any] | None:
        """The attribution of one failed question of ``system``, if the run has one."""
        if self._attributions is None:
            self._attributions = {}
            path = self.run_dir / ATTRIBUTIONS
            if path.exists():
                row: Any
                for _, row in iter_jsonl(path):
                    if isinstance(row, dict) and isinstance(row.get("question_id"), str):
                        who = row.get("system")
                        key = (who if isinstance(who, str) else None, row["question_id"])
                        self._attributions[key] = row
        own = self._attributions.get((system, question_id))
        return own if own is not None else self._attributions.get((None, question_id))

    def attributions(self, system: str) -> dict[str, dict[str, Any]]:
        """Every attribution of ``system``, by question id (for the MemTraceBench export)."""
        self.attribution(system, "")
        assert self._attributions is not None
        return {q: a for (s, q), a in self._attributions.items() if s in (system, None)}

    def evidence(self, question_id: str) -> tuple[str, ...] | None:
        """The gold evidence turn ids of a question, or None when the benchmark is not found."""
        if self._evidence is None:
            self._evidence = self._load_evidence()
        return self._evidence.get(question_id)

    def _load_evidence(self) -> dict[str, tuple[str, ...]]:

        try:
            bench = Benchmark.open(read_header(self.run_dir).benchmark_dir())
        except (DataError, ConfigError, OSError):
            return {}  # a moved benchmark: pictures are then drawn without the cut to evidence
        return {q.id: tuple(q.evidence.turn_ids) for q in bench.questions}

    def picture(
        self, system: str, question_id: str, fmt: Format = "svg", *, max_nodes: int = 120
    ) -> bytes:
        """Draw one question's evidence subgraph, its faulty operation highlighted.

        Raises:
            ConfigError: The trace holds no operation of the question.
            UmbError: Graphviz's ``dot`` is missing (svg and png only).
        """
        trace = self.trace(system)
        attribution = self.attribution(system, question_id) or {}
        evidence = self.evidence(question_id) or tuple(attribution.get("evidence_turn_ids") or ())
        op_id = attribution.get("op_id")
        highlight = op_id if isinstance(op_id, str) and _has_op(trace, op_id) else None
        also = [i for i in _flatten(attribution.get("path")) if _has_op(trace, i) or "@" in i]
        return render_subgraph(
            trace,
            question_id,
            highlight_op=highlight,
            fmt=fmt,
            sources=[turn_var(t) for t in evidence] or None,
            max_nodes=max_nodes,
            also=also,
        )


def _has_op(trace: Trace, op_id: str) -> bool:
    try:
        trace.op(op_id)
    except KeyError:
        return False
    return True
