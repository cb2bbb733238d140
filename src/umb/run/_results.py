"""``results.json``: the aggregate of every record of a run, plus model usage per role."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import orjson

from umb._errors import DataError
from umb._jsonio import atomic_write_bytes, dumps_pretty, read_bytes, read_json
from umb.models import SUMMED_COUNTS
from umb.run._log import INVOCATIONS, RESULTS, RecordKey, record_key
from umb.scoring import NATIVE_SCORER, aggregate, enrich_groups

RESULTS_FORMAT: Final = "umb-results"

def sort_records(records: Iterable[dict[str, Any]], systems: Sequence[str]) -> list[dict[str, Any]]:
    """Records in a stable order: systems as listed in the header, then by question id."""
    rank = {s: i for i, s in enumerate(systems)}
    return sorted(
        records, key=lambda r: (rank.get(r["system"], len(rank)), r["system"], r["question_id"])
    )


def total_usage(run_dir: Path) -> dict[str, dict[str, int]]:
    """Usage per role summed over every finished invocation of the run.

    An invocation that was killed wrote no line, so its extractor and judge calls are missing
    here; the answerer's tokens of every question are in its record regardless.
    """
    path = run_dir / INVOCATIONS
    totals: dict[str, dict[str, int]] = {}
    if not path.exists():
        return totals
    for raw in read_bytes(path).splitlines():
        try:
            line = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue  # the last line of an invocation killed while writing it
        if not isinstance(line, dict):
            continue
        for role, usage in (line.get("usage") or {}).items():
            acc = totals.setdefault(role, dict.fromkeys(SUMMED_COUNTS, 0))
            for k in SUMMED_COUNTS:
                acc[k] += int(usage.get(k, 0))
    return dict(sorted(totals.items()))


def aggregate_run(
    records: Sequence[dict[str, Any]], header: dict[str, Any], *, seed: int = 0
) -> dict[str, Any]:
    """:func:`~umb.scoring.aggregate` of a run's records, each group with its ``native``,
    ``retrieval`` and ``peer`` blocks (:func:`umb.scoring._native.enrich_groups`), and the scorer.
    """
    scorer = header.get("scorer") or {"name": NATIVE_SCORER}
    out = {"scorer": scorer, **aggregate(records, seed=seed)}
    enrich_groups(out["groups"], records, scorer, seed=seed)
    return out


def write_results(
    run_dir: Path,
    header: dict[str, Any],
    records: Sequence[dict[str, Any]],
    selection: set[RecordKey],
    *,
    seed: int = 0,
    sections: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Aggregate ``records`` and write ``results.json`` atomically, whole.

    Args:
        run_dir: The run directory.
        header: The run's header (systems order, models, benchmark hash).
        records: Every record of the run.
        selection: The (system, question id) pairs the last call was asked for; ``complete``
            says whether each has a record.
        seed: Bootstrap seed.
        sections: Top-level entries a later stage of the same call adds (``memory_metrics``
            of ``umb eval``), written with the aggregates.

    Returns:
        What was written.
    """
    ordered = sort_records(records, header.get("systems", []))
    have = {record_key(r) for r in ordered}
    results: dict[str, Any] = {
        "format": RESULTS_FORMAT,
        "format_version": 1,
        "benchmark": header.get("benchmark", {}).get("content_hash"),
        "models": header.get("models"),
        "systems": header.get("systems"),
        "records": len(ordered),
        "complete": selection <= have,
        "missing": len(selection - have),
        **aggregate_run(ordered, header, seed=seed),
        "usage": total_usage(run_dir),
        **(sections or {}),
    }
    atomic_write_bytes(run_dir / RESULTS, dumps_pretty(results))
    return results


def load_results(run_dir: Path) -> dict[str, Any]:
    """Read ``results.json`` of a run directory.

    Raises:
        DataError: The file is missing or not a results object.
    """
    data = read_json(run_dir / RESULTS)
    if not isinstance(data, dict) or data.get("format") != RESULTS_FORMAT:
        raise DataError(str(run_dir / RESULTS), None, "not a umb results file")
    return data


def add_to_results(run_dir: Path, key: str, value: Any) -> None:
    """Set one top-level entry of a finished run's ``results.json`` (a stage run later on its
    own, ``umb memory-metrics RUN``; a stage of ``umb eval`` is a ``finish`` of :func:`run_eval`).

    Raises:
        DataError: The file is missing or not a results object.
    """
    results = load_results(run_dir)
    results[key] = value
    atomic_write_bytes(run_dir / RESULTS, dumps_pretty(results))
