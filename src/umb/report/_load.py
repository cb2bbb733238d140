"""Reading run directories into what the report shows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from umb._errors import DataError
from umb._jsonio import read_json
from umb.families import FAMILIES
from umb.run._log import HEADER, RECORDS, RESULTS, read_records
from umb.run._results import aggregate_run, load_results, sort_records


@dataclass
class RunData:
    """One run directory, loaded.

    Attributes:
        path: The directory.
        label: A short name unique within the report (the directory name, numbered if needed).
        header: ``header.json``.
        results: ``results.json``, or an aggregate made on the spot for a run that never got to
            write one (killed, still running).
        records: Every complete record, in the results' order.
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


def load_run(path: Path, label: str | None = None) -> RunData:
    """Load a run directory.

    Raises:
        DataError: It has no header, or its records are broken.
    """
    header = read_json(path / HEADER)
    if not isinstance(header, dict):
        raise DataError(str(path / HEADER), None, "header is not a JSON object")
    records = sort_records(read_records(path / RECORDS), header.get("systems", []))
    if (path / RESULTS).exists():
        results = load_results(path)
    else:
        results = {"records": len(records), "complete": False, **aggregate_run(records, header)}
    return RunData(path, label or path.name, header, results, records)


def load_report_data(
    paths: Sequence[Path], *, on_run: Callable[[], None] | None = None
) -> ReportData:
    """Load several runs and pair each aggregate group with its records (``on_run()`` after
    each run)."""
    labels: list[str] = []
    for p in paths:
        base = p.resolve().name or "run"
        label, n = base, 2
        while label in labels:
            label, n = f"{base}-{n}", n + 1
        labels.append(label)
    runs = []
    for p, label in zip(paths, labels, strict=True):
        runs.append(load_run(p, label))
        if on_run is not None:
            on_run()
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
