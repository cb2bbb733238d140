"""``umb attribute RUN``: attribute every failed question of a run and write the results.

Reads ``RUN/header.json`` (to find the benchmark), ``RUN/records.jsonl`` and the run's traces
(``RUN/traces/<system>.jsonl``);
writes ``RUN/attributions.jsonl`` (one line per failed question) and
``RUN/attribution_summary.json`` (counts per system × error type, and per family).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from tqdm import tqdm

from umb._errors import ConfigError, DataError
from umb._jsonio import atomic_write_bytes, dumps, dumps_pretty, iter_jsonl, read_json
from umb.attribute._attribute import attribute_question
from umb.attribute._evidence import FactChecker, Matcher, QuestionInputs
from umb.attribute._graph import SystemView
from umb.attribute._types import ERROR_TYPES, UNATTRIBUTED, Attribution
from umb.bench import Benchmark
from umb.run._log import HEADER, RECORDS, read_records
from umb.run._traces import trace_paths
from umb.trace._gc import paused_gc
from umb.trace._graph import Trace
from umb.trace._inputs import BenchmarkTurns
from umb.trace._reader import read_trace

if TYPE_CHECKING:
    from umb.bench import Fact, Question

ATTRIBUTIONS: Final = "attributions.jsonl"
ATTRIBUTION_SUMMARY: Final = "attribution_summary.json"
TRACE: Final = "trace.jsonl"


@dataclass(frozen=True)
class AttributionRun:
    """What :func:`attribute_run` found.

    Attributes:
        attributions: One per failed question, in record order.
        summary: The contents of ``attribution_summary.json``.
    """

    attributions: list[Attribution]
    summary: dict[str, Any]


def failed(record: dict[str, Any]) -> bool:
    """A question counts as failed when it was scored below 1 (unscored items are not)."""
    score = record.get("score")
    return isinstance(score, int | float) and score < 1


def bench_dir(run_dir: Path, header: dict[str, Any]) -> Path:
    """The benchmark a run was made on: the header names it relative to the run directory."""
    rel = (header.get("benchmark") or {}).get("path")
    if not rel:
        raise ConfigError(f"{run_dir}: the header names no benchmark; pass --bench")
    return (run_dir / rel).resolve()


@dataclass
class _Bench:
    """The parts of a benchmark attribution reads, loaded once per run."""

    root: Path
    questions: dict[str, Question]
    turn_texts: dict[str, str]
    turn_starts: dict[str, str]
    facts: dict[str, Fact]
    event_turns: dict[str, list[str]]
    state_turns: dict[tuple[str, str, str], list[str]]
    turns: BenchmarkTurns
    """The same dialogues' turns, for the traces that refer to them (format 2)."""

    def inputs(self, question: Question, record: Mapping[str, Any]) -> QuestionInputs:
        """What attribution needs about ``question`` besides the trace."""
        return QuestionInputs(
            question, record, self.turn_texts, self.turn_starts, self.facts,
            self.event_turns, self.state_turns,
        )  # fmt: skip

    @classmethod
    def load(cls, root: Path, dialogue_ids: set[str]) -> _Bench:

        b = Benchmark.open(root)
        texts: dict[str, str] = {}
        starts: dict[str, str] = {}
        facts = b.facts
        events: dict[str, list[str]] = {}
        states: dict[tuple[str, str, str], list[str]] = {}
        dialogues = list(b.iter_dialogues(dialogue_ids))
        for d in dialogues:
            for s in d.sessions:
                for t in s.turns:
                    texts[t.id] = t.text
                    starts[t.id] = s.started_at
                    for fid in t.fact_ids:
                        events.setdefault(fid.rsplit("/", 2)[0], []).append(t.id)
                        if (f := facts.get(fid)) is not None:
                            key = (f.character_id, f.attribute, f.value)
                            states.setdefault(key, []).append(t.id)
        questions = {q.id: q for q in b.questions}
        turns = BenchmarkTurns.of(dialogues)
        return cls(root, questions, texts, starts, facts, events, states, turns)


def attribute_records(
    records: Sequence[dict[str, Any]],
    traces: Mapping[str, Trace],
    bench: Path | _Bench,
    *,
    checker: FactChecker | None = None,
    bar: tqdm[Any] | None = None,
) -> list[Attribution]:
    """Attribute every failed record against its system's trace and the benchmark.

    Args:
        records: Run records (one per system and question).
        traces: System name -> its trace (a system missing here is ``Unattributed``).
        bench: The benchmark directory (or its parts, already loaded).
        checker: Optional LLM check for what value matching cannot tell.
        bar: A progress bar advanced by one per failed record.
    """
    todo = [r for r in records if failed(r)]
    if not todo:
        return []
    wanted = {str(r.get("dialogue_id")) for r in todo}
    data = bench if isinstance(bench, _Bench) else _Bench.load(bench, wanted)
    matcher = Matcher(checker)
    views: dict[str, SystemView] = {}
    out = []
    for r in todo:
        q = data.questions.get(str(r["question_id"]))
        if q is None:
            why = f"no question {r['question_id']} in the benchmark"
            raise DataError(str(data.root), None, why)
        system = str(r["system"])
        view = views.get(system)
        if view is None and system in traces:
            view = views[system] = SystemView(traces[system], system)
        out.append(attribute_question(data.inputs(q, r), view, matcher))
        if bar is not None:
            bar.update(1)
    return out


def run_traces(run_dir: Path) -> dict[str, Path]:
    """A run's trace files by system: ``RUN/traces/<system>.jsonl`` (or one ``RUN/trace.jsonl``
    holding every system, named by the empty string)."""

    found = trace_paths(run_dir)
    if not found and (run_dir / TRACE).exists():
        return {"": run_dir / TRACE}
    return found


def summarize(attributions: Sequence[Attribution], records: Sequence[dict[str, Any]]) -> dict:
    """Counts per system × error type (and per family), with the questions scored per system."""
    scored: Counter[str] = Counter(
        str(r["system"]) for r in records if isinstance(r.get("score"), int | float)
    )
    systems: dict[str, dict[str, Any]] = {}
    for s in dict.fromkeys(str(r["system"]) for r in records):
        systems[s] = {"scored": scored[s], "failed": 0, "types": dict.fromkeys(ERROR_TYPES, 0)}
    families: dict[str, dict[str, Counter[str]]] = {}
    for a in attributions:
        entry = systems.setdefault(
            a.system, {"scored": 0, "failed": 0, "types": dict.fromkeys(ERROR_TYPES, 0)}
        )
        entry["failed"] += 1
        entry["types"][a.error_type] = entry["types"].get(a.error_type, 0) + 1
        fam = families.setdefault(a.system, {}).setdefault(str(a.family), Counter())
        fam[a.error_type] += 1
    totals: Counter[str] = Counter(a.error_type for a in attributions)
    return {
        "error_types": [*ERROR_TYPES, UNATTRIBUTED],
        "failed": len(attributions),
        "totals": {t: totals.get(t, 0) for t in (*ERROR_TYPES, UNATTRIBUTED) if t in totals or
                   t in ERROR_TYPES},
        "systems": systems,
        "families": {s: {f: dict(c) for f, c in fs.items()} for s, fs in families.items()},
    }  # fmt: skip


def attribute_run(
    run_dir: str | Path,
    *,
    bench: str | Path | None = None,
    checker: FactChecker | None = None,
    write: bool = True,
    progress: bool | None = False,
    on_trace: Callable[[str, Trace], None] | None = None,
) -> AttributionRun:
    """Attribute every failed question of a run directory.

    Args:
        run_dir: A run directory of ``umb eval`` with traces (``traces/<system>.jsonl``).
        bench: The benchmark directory (default: the one the run's header names).
        checker: Optional judge of "does this text state this fact" for what value matching
            cannot tell (an :class:`~umb.trace.LLMFactChecker`); off by default.
        write: Write ``attributions.jsonl`` and ``attribution_summary.json`` into the run.
        progress: A progress bar on stderr (questions attributed, and the phase: loading the
            benchmark, reading a trace); None shows it when stderr is a terminal.
        on_trace: Called with each trace read (by system; ``""`` for one shared trace), so a
            later stage can use it without reading it again.

    Returns:
        An :class:`AttributionRun`.

    Raises:
        ConfigError: The run has no trace (it ran with ``--no-trace``) or names no benchmark.
        DataError: The run's files are broken.
    """

    run = Path(run_dir)
    header = read_json(run / HEADER)
    if not isinstance(header, dict):
        raise DataError(str(run / HEADER), None, "header is not a JSON object")
    paths = run_traces(run)
    if not paths:
        raise ConfigError(f"{run}: no traces (was the run made with --no-trace?)")
    records = _latest(read_records(run / RECORDS))
    root = Path(bench) if bench is not None else bench_dir(run, header)
    todo = {str(r.get("dialogue_id")) for r in records if failed(r)}
    show = sys.stderr.isatty() if progress is None else progress
    total = sum(1 for r in records if failed(r))
    with tqdm(total=total, file=sys.stderr, disable=not show, unit="q", desc="attribute") as bar:
        bar.set_postfix_str("loading the benchmark")
        # Loaded once for every system (and not at all when nothing failed).
        source: Path | _Bench = _Bench.load(root, todo) if todo else root
        attributions = _attribute_traces(paths, records, source, checker, bar, on_trace)
    order = {key: i for i, key in enumerate((str(r["system"]), str(r["question_id"]))
                                            for r in records)}  # fmt: skip
    attributions.sort(key=lambda a: order.get((a.system, a.question_id), 0))
    summary = summarize(attributions, records)
    if write:
        atomic_write_bytes(run / ATTRIBUTIONS, b"".join(dumps(a.to_dict()) + b"\n"
                                                        for a in attributions))  # fmt: skip
        atomic_write_bytes(run / ATTRIBUTION_SUMMARY, dumps_pretty(summary))
    return AttributionRun(attributions, summary)


def _attribute_traces(
    paths: dict[str, Path],
    records: list[dict[str, Any]],
    source: Path | _Bench,
    checker: FactChecker | None,
    bar: tqdm[Any],
    on_trace: Callable[[str, Trace], None] | None,
) -> list[Attribution]:
    if "" in paths:
        bar.set_postfix_str("reading the trace")
        with paused_gc():
            shared = read_trace(paths[""], inputs=_turns(source))
            if on_trace is not None:
                on_trace("", shared)
            bar.set_postfix_str("")
            systems = {str(r["system"]) for r in records}
            return attribute_records(
                records, dict.fromkeys(systems, shared), source, checker=checker, bar=bar
            )
    attributions: list[Attribution] = []
    # One system's trace in memory at a time: a long run's traces can be large.
    for system, path in paths.items():
        mine = [r for r in records if r["system"] == system]
        if not any(failed(r) for r in mine):
            continue
        # What is built here is acyclic and mostly lives until the next system: full
        # collections walking the trace again and again cost more than the work itself.
        with paused_gc():
            bar.set_postfix_str(f"reading the trace of {system}")
            traces = {system: read_trace(path, inputs=_turns(source))}
            if on_trace is not None:
                on_trace(system, traces[system])
            bar.set_postfix_str(system)
            attributions += attribute_records(mine, traces, source, checker=checker, bar=bar)
            del traces
    traced = set(paths)
    rest = [r for r in records if r["system"] not in traced]
    return attributions + attribute_records(rest, {}, source, checker=checker, bar=bar)


def _turns(source: Path | _Bench) -> BenchmarkTurns | None:
    return source.turns if isinstance(source, _Bench) else None


def _latest(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # A retried question appears twice in the log; the last record is the one that counts.
    by_key = {(str(r["system"]), str(r["question_id"])): r for r in records}
    return list(by_key.values())


def read_attributions(run_dir: str | Path) -> list[Attribution]:
    """Read ``RUN/attributions.jsonl`` (empty when the run was never attributed)."""
    path = Path(run_dir) / ATTRIBUTIONS
    if not path.exists():
        return []
    rows: list[tuple[int, dict[str, Any]]] = list(iter_jsonl(path))
    return [Attribution.from_dict(d) for _, d in rows]
