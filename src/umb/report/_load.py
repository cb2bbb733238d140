"""Reading run directories into what the report shows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from umb.families import FAMILIES
from umb.run import RecordKey, RunDirectory, aggregate_run, record_key, sort_records

#: What every section reads of every record (plots, counts, which questions failed); the
#: drill-down and the examples of invalid replies get whole records.
SLIM_FIELDS = ("system", "model", "question_id", "dialogue_id", "family", "score",
               "context_tokens", "parse_status", "invalid_json", "error")  # fmt: skip
#: Invalid replies shown whole per entry (the invalid-JSON section's examples).
EXAMPLES = 3


@dataclass
class RunData:
    """One run directory, loaded.

    Attributes:
        path: The directory.
        label: A short name unique within the report (the directory name, numbered if needed).
        header: ``header.json``.
        results: ``results.json``, or an aggregate made on the spot for a run that never got to
            write one (killed, still running).
        records: Every complete record, in the results' order (loaded for a report: whole for
            the questions the page shows, :data:`SLIM_FIELDS` of the others).
    """

    path: Path
    label: str
    header: dict[str, Any]
    results: dict[str, Any]
    records: list[dict[str, Any]]


@dataclass
class Entry:
    """One (run, system, model) group: a row of the leaderboard, a colour in the plots."""

    key: str
    """Unique label, ``system · model`` (with the run's label when runs share a pair)."""
    run: str
    system: str
    model: str
    group: dict[str, Any]
    """The aggregate group (see :func:`umb.scoring.aggregate`)."""
    records: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class ReportData:
    """Everything the sections draw from: the runs and their (run, system, model) entries."""

    runs: list[RunData]
    entries: list[Entry]

    @property
    def families(self) -> list[str]:
        """Families present in any entry, in the canonical order."""

        seen = {f for e in self.entries for f in e.group.get("families", {})}
        return [f for f in FAMILIES if f in seen] + sorted(seen - set(FAMILIES))


def _slim(record: dict[str, Any]) -> dict[str, Any]:
    return {k: record[k] for k in SLIM_FIELDS if k in record}


def load_run(path: Path, label: str | None = None, *, slim: bool = False) -> RunData:
    """Load a run directory.

    Args:
        path: The run directory.
        label: Its name in a report (default: the directory's name).
        slim: Hold only :data:`SLIM_FIELDS` of each record (a run that wrote its
            ``results.json``; one that did not is aggregated from whole records).

    Raises:
        DataError: It has no header, or its records are broken.
    """
    run = RunDirectory(path)
    header = run.header().data
    has_results = run.has_results()
    keep = _slim if slim and has_results else None
    records = sort_records(run.records(keep=keep), header.get("systems", []))
    if has_results:
        results = run.results()
    else:
        results = {"records": len(records), "complete": False, **aggregate_run(records, header)}
        if slim:
            records = [_slim(r) for r in records]
    return RunData(path, label or path.name, header, results, records)


def _whole(runs: list[RunData], shown: int) -> None:
    """Read again, whole, the records the page shows: the first ``shown`` questions (by id) of
    the drill-down, and the first invalid replies of each entry."""
    # The drill-down's questions: those of records that belong to an aggregate group.
    ids = sorted({r["question_id"] for run in runs for r in run.records
                  if (r["system"], r["model"]) in _pairs(run)})[:shown]  # fmt: skip
    wanted = set(ids)
    for run in runs:
        keys: set[RecordKey] = {record_key(r) for r in run.records if r["question_id"] in wanted}
        bad: dict[tuple[str, str], int] = {}
        for r in run.records:
            if r.get("parse_status") not in (None, "ok"):
                pair = (r["system"], r["model"])
                bad[pair] = bad.get(pair, 0) + 1
                if bad[pair] <= EXAMPLES:
                    keys.add(record_key(r))
        if keys:
            whole = RunDirectory(run.path).records(keep=_whole_if(keys))
            run.records = sort_records(whole, run.header.get("systems", []))


def _pairs(run: RunData) -> set[tuple[str, str]]:
    return {(g["system"], g["model"]) for g in run.results.get("groups", [])}


def _whole_if(keys: set[RecordKey]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def keep(record: dict[str, Any]) -> dict[str, Any]:
        return record if record_key(record) in keys else _slim(record)

    return keep


def load_report_data(
    paths: Sequence[Path],
    *,
    on_run: Callable[[], None] | None = None,
    shown: int | None = None,
) -> ReportData:
    """Load several runs and pair each aggregate group with its records.

    Args:
        paths: Run directories.
        on_run: Called after each run is read.
        shown: Questions the page shows whole (the first by id); the others keep only
            :data:`SLIM_FIELDS`, so memory follows the page, not the runs. None keeps all whole.
    """
    labels: list[str] = []
    for p in paths:
        base = p.resolve().name or "run"
        label, n = base, 2
        while label in labels:
            label, n = f"{base}-{n}", n + 1
        labels.append(label)
    runs = []
    for p, label in zip(paths, labels, strict=True):
        runs.append(load_run(p, label, slim=shown is not None))
        if on_run is not None:
            on_run()
    if shown is not None:
        _whole(runs, shown)
    pairs = [(g["system"], g["model"]) for run in runs for g in run.results.get("groups", [])]
    shared = {p for p in pairs if pairs.count(p) > 1}
    entries = []
    for run in runs:
        by_pair: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for r in run.records:
            by_pair.setdefault((r["system"], r["model"]), []).append(r)
        for g in run.results.get("groups", []):
            pair = (g["system"], g["model"])
            key = f"{pair[0]} · {pair[1]}" + (f" ({run.label})" if pair in shared else "")
            entries.append(Entry(key, run.label, pair[0], pair[1], g, by_pair.get(pair, [])))
    return ReportData(runs, entries)
