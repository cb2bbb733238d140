"""``umb memory-metrics RUN``: the memory metrics of every system of a traced run.

Reads the run's header (for the benchmark), the benchmark's ``facts.jsonl`` and ``world.json``,
and each system's trace; writes ``RUN/memory_metrics.json`` (per system: the headline rates
with 95% cluster-bootstrap intervals over dialogues, per attribute and event kind, write cost),
``RUN/memory_metrics.jsonl`` (per system × dialogue, with the facts and units behind every
count) and the headline rates under ``memory_metrics`` in ``RUN/results.json``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator
from functools import cached_property
from pathlib import Path
from typing import Any, Final

import orjson

from umb._errors import ConfigError, DataError, UmbError
from umb._jsonio import atomic_write_bytes, dumps, dumps_pretty, iter_jsonl, read_json
from umb.attribute._dialogues import DialogueSource, dialogue_pairs
from umb.attribute._files import MEMORY_METRICS, MEMORY_METRICS_DETAIL
from umb.attribute._memory_gold import DialogueGold, GoldIndex, Person, stated_facts
from umb.attribute._memory_metrics import UPDATE_OUTCOMES, dialogue_metrics
from umb.attribute._memory_units import DialogueUnits, has_memory_units, memory_units
from umb.attribute._run import run_traces
from umb.bench import WORLD, Benchmark, Dialogue
from umb.memory import memory_system_class
from umb.run import RunDirectory, add_to_results, read_header
from umb.scoring import bootstrap_ratio_ci
from umb.trace import DialogueTrace, Trace

DialogueFacts = tuple[str, list[tuple[str, str, tuple[str, ...]]]]
"""A dialogue's character id and :func:`stated_facts`."""

FORMAT: Final = "umb-memory-metrics"
VERSION: Final = "1"

#: Headline rate -> (numerator, denominator) keys of a dialogue row, and which way is better.
RATES: Final = {
    "extraction_recall": ("extracted", "facts", True),
    "extraction_precision": ("grounded", "units_written", True),
    "fabrication_rate": ("fabricated", "units_written", False),
    "update_accuracy": ("updated", "changes", True),
    "omission_rate": ("omitted", "extracted", False),
}


def _stores_nothing(system: str) -> bool:
    try:
        return memory_system_class(system).stores_nothing
    except UmbError:  # a plug-in that is not installed here
        return False


def _rate(rows: list[dict[str, Any]], rate: str, seed: int, system: str) -> dict[str, Any]:
    num_key, den_key, higher = RATES[rate]
    nums = [float(r[num_key]) for r in rows]
    dens = [float(r[den_key]) for r in rows]
    total = sum(dens)
    return {
        "value": sum(nums) / total if total else None,
        "ci95": bootstrap_ratio_ci(nums, dens, key=f"{system}\x00{rate}", seed=seed)
        if total
        else None,
        "numerator": int(sum(nums)),
        "denominator": int(total),
        "higher_is_better": higher,
    }


def _table(rows: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    cells: dict[str, list[int]] = {}
    for r in rows:
        for name, (n, got) in r[key].items():
            cell = cells.setdefault(name, [0, 0])
            cell[0] += n
            cell[1] += got
    return {name: {"facts": n, "extracted": got, "recall": got / n if n else None}
            for name, (n, got) in sorted(cells.items())}  # fmt: skip


def summarise_system(system: str, rows: list[dict[str, Any]], seed: int = 0) -> dict[str, Any]:
    """One system's headline rates, tables and write cost, from its dialogue rows."""
    for r in rows:
        r["updated"] = r["updates"]["updated"]
    facts = sum(r["facts"] for r in rows)
    updates: Counter[str] = Counter()
    omitted_by: Counter[str] = Counter()
    model: Counter[str] = Counter()
    for r in rows:
        updates.update(r["updates"])
        omitted_by.update(r["omitted_by"])
        model.update(r["model_tokens"])
    units = sum(r["units"] for r in rows)
    written = sum(r["units_written"] for r in rows)
    tokens = sum(r["tokens_written"] for r in rows)
    return {
        "dialogues": len(rows),
        "rates": {rate: _rate(rows, rate, seed, system) for rate in RATES},
        "updates": {o: updates.get(o, 0) for o in UPDATE_OUTCOMES},
        "omitted_by": dict(sorted(omitted_by.items())),
        "by_attribute": _table(rows, "by_attribute"),
        "by_kind": _table(rows, "by_kind"),
        "cost": {
            "units": units,
            "versions_written": written,
            "deletions": sum(r["deletions"] for r in rows),
            "units_per_fact": units / facts if facts else None,
            "tokens_written": tokens,
            "tokens_per_fact": tokens / facts if facts else None,
            "model_tokens": dict(sorted(model.items())),
        },
    }


def system_rows(
    trace: Trace,
    system: str | None,
    dialogues: dict[str, DialogueFacts],
    gold: GoldIndex,
) -> list[dict[str, Any]]:
    """The dialogue rows of one system's trace (dialogues it ingested, in the order of
    ``dialogues``).

    Args:
        trace: The system's trace (of some or all of its dialogues).
        system: Its name, for a trace shared by several systems (None: every operation).
        dialogues: Dialogue id -> (character id, :func:`stated_facts`); a dialogue missing here
            gets no row.
        gold: The benchmark's gold.
    """
    units = memory_units(trace, system)
    return [row for did, stated in dialogues.items()
            if (row := _row(did, stated, units.get(did), gold)) is not None]  # fmt: skip


def _row(
    did: str, stated: DialogueFacts, mine: DialogueUnits | None, gold: GoldIndex
) -> dict[str, Any] | None:
    """The row of one dialogue the system ingested (None when it ingested none of it)."""
    if mine is None or not mine.ingested:
        return None
    character_id, sessions = stated
    person = gold.people.get(character_id) or Person(character_id, ())
    return dialogue_metrics(DialogueGold.of(did, person, sessions, mine.ingested), mine, gold)


def dialogue_facts(
    bench: Benchmark, gold: GoldIndex, only: Collection[str] | None = None
) -> dict[str, DialogueFacts]:
    """Each dialogue's character and stated facts per session (``only``: just those dialogues;
    the others are not parsed)."""
    return {d.id: (d.character_id, stated_facts(d, gold)) for d in bench.iter_dialogues(only)}


def _recorded_dialogues(run: Path) -> list[str]:
    """The dialogues the run's records name, in record order: those its systems ingested, but
    for a dialogue begun when the run stopped (a trace that holds it has it read anyway)."""
    keep = ("system", "question_id", "dialogue_id")
    records = RunDirectory(run).records(keep=lambda r: {k: r.get(k) for k in keep})
    return list(dict.fromkeys(str(r["dialogue_id"]) for r in records))


class MemoryMetricsRun:
    """The memory metrics of one run, computed a dialogue at a time as its traces are read.

    :meth:`add_dialogue` takes a dialogue someone else read already (attribution does, in
    ``umb eval``), so a trace is read once; :meth:`finish` reads the traces nobody handed over,
    writes the files and returns the summary. Nothing of a trace is kept after a dialogue.

    Args:
        run_dir: A run directory of ``umb eval`` with traces.
        bench: The benchmark directory (default: the one the run's header names), or the
            benchmark already open.
        seed: Bootstrap seed of the intervals.

    Raises:
        ConfigError: The run has no trace, or names no benchmark.
        DataError: The run's or the benchmark's files are broken.
    """

    def __init__(
        self, run_dir: str | Path, *, bench: str | Path | Benchmark | None = None, seed: int = 0
    ) -> None:
        self.run = Path(run_dir)
        header = read_header(self.run)
        self.paths = run_traces(self.run)
        if not self.paths:
            raise ConfigError(f"{self.run}: no traces (was the run made with --no-trace?)")
        if isinstance(bench, Benchmark):  # already open elsewhere: its facts are read once
            self.bench = bench
        else:
            root = Path(bench) if bench is not None else header.benchmark_dir()
            self.bench = Benchmark.open(root)
        self.systems = header.systems or sorted(self.paths)
        self.seed = seed
        self._gold: GoldIndex | None = None
        # Rows in benchmark order (the bootstrap draws over them in that order).
        self._order = {q.dialogue_id: i for i, q in reversed(list(enumerate(self.bench.questions)))}
        # system -> dialogue -> row, as JSON until the end: a fifth of the memory of the objects
        self._rows: dict[str, dict[str, bytes]] = {}
        self._units: set[str] = set()  # systems with a memory unit in some dialogue
        # Dialogues of a system with no memory unit so far (a RAG system never has one): kept
        # small, measured only if a unit turns up, so that such a run never indexes the gold.
        self._plain: dict[str, dict[str, tuple[DialogueFacts, DialogueUnits | None]]] = {}
        self._handed: set[str] = set()  # trace files (by system key) handed over whole
        self.results: dict[str, dict[str, Any]] = {}
        self.skipped: dict[str, str] = {}
        self.rows: dict[str, list[dict[str, Any]]] = {}

    def add_dialogue(self, system: str, dt: DialogueTrace, dialogues: list[Dialogue]) -> None:
        """Measure ``system`` on one dialogue's trace (``""``: a trace of every system); a
        dialogue read ``again`` replaces its earlier rows."""
        self._handed.add(system)
        if self.unmeasured is not None:
            return
        facts: dict[str, DialogueFacts] = {
            d.id: (d.character_id, stated_facts(d, self.bench.facts)) for d in dialogues
        }
        units = has_memory_units(dt.trace)
        for name in self.systems if system == "" else [system]:
            if units:
                self._units.add(name)
            rows = self._rows.setdefault(name, {})
            plain = self._plain.setdefault(name, {})
            for did in dt.dialogue_ids:
                rows.pop(did, None)
                plain.pop(did, None)
            mine = memory_units(dt.trace, name if system == "" else None)
            if name not in self._units and not _stores_nothing(name):
                plain.update({did: (facts[did], mine.get(did)) for did in facts})
                continue
            for did, (stated, kept) in plain.items():  # measured now that a unit turned up
                if (row := _row(did, stated, kept, self.gold)) is not None:
                    rows[did] = dumps(row)
            plain.clear()
            for did, stated in facts.items():
                if (row := _row(did, stated, mine.get(did), self.gold)) is not None:
                    rows[did] = dumps(row)

    @cached_property
    def unmeasured(self) -> str | None:
        """Why no system can be measured on this benchmark (None: they can)."""
        if not self.bench.facts:
            return "the benchmark has no facts.jsonl"
        if not (self.bench.root / WORLD).exists():
            # The gold's people and timelines are the world's: without it every rate is wrong.
            return "no world.json"
        return None

    @property
    def gold(self) -> GoldIndex:
        """The benchmark's gold, indexed on first use (a run with no memory system never is)."""
        if self._gold is None:
            self._gold = GoldIndex(self.bench.facts, self.bench.read_world())
        return self._gold

    def finish(self, *, write: bool = True) -> dict[str, Any]:
        """Measure the systems whose traces were not handed over, write the files (when
        ``write``), return the contents of ``memory_metrics.json``."""
        if self.unmeasured is not None:
            self.skipped = dict.fromkeys(self.systems, self.unmeasured)
        else:
            self._read_the_rest()
        for system in self.systems:
            self._plain.pop(system, None)  # what was kept in case a unit turned up: none did
            if system in self.skipped:
                continue
            if system not in self._rows:
                self.skipped[system] = "not traced"
            elif system not in self._units and not _stores_nothing(system):
                self.skipped[system] = "keeps raw turns: no memory units in its trace"
            else:
                mine = self._rows.pop(system)
                self.rows[system] = [orjson.loads(mine[d]) for d in sorted(mine, key=self._rank)]
                self.results[system] = summarise_system(system, self.rows[system], self.seed)
        order = [s for s in self.systems if s in self.results]
        out: dict[str, Any] = {"format": FORMAT, "format_version": VERSION,
               "systems": {s: self.results[s] for s in order}, "skipped": self.skipped}  # fmt: skip
        if write:
            detail = [dumps({"system": s, **r}) + b"\n" for s in order for r in self.rows[s]]
            atomic_write_bytes(self.run / MEMORY_METRICS, dumps_pretty(out))
            atomic_write_bytes(self.run / MEMORY_METRICS_DETAIL, b"".join(detail))
        return out

    def _rank(self, dialogue_id: str) -> tuple[int, str]:
        return (self._order.get(dialogue_id, len(self._order)), dialogue_id)

    def _read_the_rest(self) -> None:
        self.paths = run_traces(self.run)  # a system's trace appears at its first job
        todo = {key: path for key, path in self.paths.items() if key not in self._handed}
        if not todo:
            return
        source = DialogueSource(self.bench, _recorded_dialogues(self.run))
        for key, path in todo.items():
            for dt, dialogues in dialogue_pairs(path, source):
                self.add_dialogue(key, dt, dialogues)


def memory_metrics_run(
    run_dir: str | Path, *, bench: str | Path | None = None, write: bool = True, seed: int = 0
) -> dict[str, Any]:
    """Compute (and write) the memory metrics of every system of a traced run.

    This is the later stage on a finished run (``umb memory-metrics RUN``); ``umb eval`` makes
    the same files during the run and writes :func:`memory_metrics_entry` into ``results.json`` with
    the run's other figures.

    Args:
        run_dir: A run directory of ``umb eval`` with traces.
        bench: The benchmark directory (default: the one the run's header names).
        write: Write ``memory_metrics.json``/``.jsonl``, and the summary into the run's
            ``results.json`` when it has one.
        seed: Bootstrap seed of the intervals.

    Returns:
        The contents of ``memory_metrics.json``.

    Raises:
        ConfigError: The run has no trace, or names no benchmark.
        DataError: The run's or the benchmark's files are broken.
    """
    out = MemoryMetricsRun(run_dir, bench=bench, seed=seed).finish(write=write)
    if write and RunDirectory(Path(run_dir)).has_results():
        add_to_results(Path(run_dir), "memory_metrics", memory_metrics_entry(out))
    return out


def memory_metrics_entry(metrics: dict[str, Any]) -> dict[str, Any]:
    """What ``results.json`` says of a run's memory metrics (the contents of
    ``memory_metrics.json``): each measured system's headline rates, and what was skipped."""
    headline = {
        system: {rate: value["value"] for rate, value in entry["rates"].items()}
        for system, entry in metrics["systems"].items()
    }
    return {"file": MEMORY_METRICS, "systems": headline, "skipped": metrics["skipped"]}


def read_memory_metrics(run_dir: str | Path) -> dict[str, Any] | None:
    """A run's ``memory_metrics.json``, or None when it has none."""
    path = Path(run_dir) / MEMORY_METRICS
    if not path.exists():
        return None
    data = read_json(path)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DataError(str(path), None, "not a umb memory-metrics file")
    return data


def read_memory_detail(run_dir: str | Path) -> list[dict[str, Any]]:
    """The per-dialogue rows of ``memory_metrics.jsonl`` (empty when there are none)."""
    path = Path(run_dir) / MEMORY_METRICS_DETAIL
    if not path.exists():
        return []
    rows: Iterator[tuple[int, dict[str, Any]]] = iter_jsonl(path)
    return [row for _, row in rows]
