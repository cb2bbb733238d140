"""``umb attribute RUN``: attribute every failed question of a run and write the results.

Reads ``RUN/header.json`` (to find the benchmark), ``RUN/records.jsonl`` and the run's traces
(``RUN/traces/<system>.jsonl.gz``);
writes ``RUN/attributions.jsonl`` (one line per failed question) and
``RUN/attribution_summary.json`` (counts per system × error type, and per family).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from umb._errors import ConfigError
from umb._jsonio import atomic_write_bytes, dumps, dumps_pretty, iter_jsonl
from umb.attribute._attributor import DialogueAttributor, failed_by_dialogue
from umb.attribute._dialogues import dialogue_pairs
from umb.attribute._evidence import FactChecker
from umb.attribute._files import ATTRIBUTION_SUMMARY, ATTRIBUTIONS, failed, kept_part
from umb.attribute._types import ERROR_TYPES, UNATTRIBUTED, Attribution
from umb.bench import Dialogue
from umb.run import RunDirectory, read_header, trace_paths
from umb.trace import DialogueTrace

if TYPE_CHECKING:
    pass

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


def run_traces(run_dir: Path) -> dict[str, Path]:
    """A run's trace files by system: ``RUN/traces/<system>.jsonl.gz`` (or one ``RUN/trace.jsonl``
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


OnDialogue = Callable[[str, DialogueTrace, list[Dialogue]], None]
"""``on_dialogue(system, dialogue_trace, dialogues)``: a dialogue's trace and its benchmark
dialogues, as attribution reads them (``system`` is ``""`` for one trace of every system)."""


def attribute_run(
    run_dir: str | Path,
    *,
    bench: str | Path | None = None,
    checker: FactChecker | None = None,
    write: bool = True,
    progress: bool | None = False,
    on_dialogue: OnDialogue | None = None,
) -> AttributionRun:
    """Attribute every failed question of a run directory.

    Each system's trace is read in one pass, a dialogue at a time
    (:func:`umb.trace.iter_dialogue_traces`), beside the benchmark's dialogues: memory holds the
    dialogues being read, not the trace.

    Args:
        run_dir: A run directory of ``umb eval`` with traces (``traces/<system>.jsonl.gz``).
        bench: The benchmark directory (default: the one the run's header names).
        checker: Optional judge of "does this text state this fact" for what value matching
            cannot tell (an :class:`~umb.trace.LLMFactChecker`); off by default.
        write: Write ``attributions.jsonl`` and ``attribution_summary.json`` into the run.
        progress: A progress bar on stderr (questions attributed, and the phase: loading the
            benchmark, reading a trace); None shows it when stderr is a terminal.
        on_dialogue: Called with each dialogue read, so a later stage can use it without
            reading it again; with it, every dialogue of every trace is read, failed or not.

    Returns:
        An :class:`AttributionRun`.

    Raises:
        ConfigError: The run has no trace (it ran with ``--no-trace``) or names no benchmark.
        DataError: The run's files are broken.
    """

    run = Path(run_dir)
    header = read_header(run)
    paths = run_traces(run)
    if not paths:
        raise ConfigError(f"{run}: no traces (was the run made with --no-trace?)")
    records = RunDirectory(run).records(keep=kept_part)  # one per key: a repeat is refused
    root = Path(bench) if bench is not None else header.benchmark_dir()
    show = sys.stderr.isatty() if progress is None else progress
    todo = [r for r in records if failed(r)]
    from tqdm import tqdm  # here: the worker that shares this module reports no bar

    with tqdm(total=len(todo), file=sys.stderr, disable=not show, unit="q",
              desc="attribute") as bar:  # fmt: skip
        bar.set_postfix_str("loading the benchmark")
        wanted = {str(r.get("dialogue_id")) for r in (records if on_dialogue else todo)}
        attributor = DialogueAttributor(root, wanted, checker, bar)
        _stream(paths, records, todo, attributor, on_dialogue)
        attributor.finish(todo)
    return finish_attribution(run, records, attributor.found, write=write)


def finish_attribution(
    run: Path,
    records: list[dict[str, Any]],
    found: dict[tuple[str, str], Attribution],
    *,
    write: bool = True,
) -> AttributionRun:
    """The attributions in record order and their summary (written into ``run`` when
    ``write``)."""
    order = {key: i for i, key in enumerate((str(r["system"]), str(r["question_id"]))
                                            for r in records)}  # fmt: skip
    attributions = sorted(found.values(), key=lambda a: order.get((a.system, a.question_id), 0))
    summary = summarize(attributions, records)
    if write:
        atomic_write_bytes(run / ATTRIBUTIONS, b"".join(dumps(a.to_dict()) + b"\n"
                                                        for a in attributions))  # fmt: skip
        atomic_write_bytes(run / ATTRIBUTION_SUMMARY, dumps_pretty(summary))
    return AttributionRun(attributions, summary)


def _stream(
    paths: dict[str, Path],
    records: list[dict[str, Any]],
    todo: list[dict[str, Any]],
    attributor: DialogueAttributor,
    on_dialogue: OnDialogue | None,
) -> None:
    failed = failed_by_dialogue(todo)
    systems = list(dict.fromkeys(str(r["system"]) for r in records))
    bar = attributor.bar
    for system, path in paths.items():
        names = systems if system == "" else [system]

        def keep(did: str, names: list[str] = names) -> bool:
            return on_dialogue is not None or any((n, did) in failed for n in names)

        if on_dialogue is None and not any(s in names for s, _ in failed):
            continue
        if bar is not None:
            bar.set_postfix_str(f"reading the trace of {system}" if system else "reading")
        for dt, dialogues in dialogue_pairs(path, attributor.source, keep=keep):
            if bar is not None:
                bar.set_postfix_str(system)
            mine = [r for did in dt.dialogue_ids for n in names
                    for r in failed.get((n, did), ())]  # fmt: skip
            attributor.attribute(mine, dt.trace, dialogues)
            if on_dialogue is not None:
                on_dialogue(system, dt, dialogues)


def read_attributions(run_dir: str | Path) -> list[Attribution]:
    """Read ``RUN/attributions.jsonl`` (empty when the run was never attributed)."""
    path = Path(run_dir) / ATTRIBUTIONS
    if not path.exists():
        return []
    rows: list[tuple[int, dict[str, Any]]] = list(iter_jsonl(path))
    return [Attribution.from_dict(d) for _, d in rows]
