"""A run directory as the layers above the run read it: :class:`RunDirectory` and its header.

The layout is in :mod:`umb.run._log`. What reads a run back (the report, attribution, memory
metrics, the background worker, trace pictures, a resumed run) goes through
:class:`RunDirectory`, so a broken header is refused with the same message everywhere, and
where the benchmark, the records and the traces are is worked out in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from umb._errors import ConfigError, DataError
from umb._jsonio import read_json
from umb.run._log import HEADER, INVOCATIONS, RECORDS, RESULTS, read_records
from umb.run._results import load_results
from umb.run._traces import trace_paths


@dataclass(frozen=True)
class RunHeader:
    """The header of a run directory, as written.

    Attributes:
        run_dir: The run directory the header is in.
        data: The header's JSON object (its fields: docs/formats.md, Run directory).
    """

    run_dir: Path
    data: dict[str, Any]

    @property
    def systems(self) -> list[str]:
        """The systems the run covers, in the order they were added."""
        return [str(s) for s in self.data.get("systems") or []]

    @property
    def models(self) -> dict[str, str | None]:
        """Role (answerer, judge, extractor) -> the model spec, None where the role is unused."""
        models = self.data.get("models") or {}
        return {str(role): None if spec is None else str(spec) for role, spec in models.items()}

    def benchmark_dir(self) -> Path:
        """The benchmark the run was made on (the header names it relative to the run).

        Raises:
            ConfigError: The header names no benchmark.
        """
        benchmark = self.data.get("benchmark")
        rel = benchmark.get("path") if isinstance(benchmark, dict) else None
        if not rel:
            raise ConfigError(f"{self.run_dir}: the header names no benchmark; pass --bench")
        return (self.run_dir / str(rel)).resolve()


@dataclass(frozen=True)
class RunDirectory:
    """The files of one ``umb eval`` run (docs/evaluation.md, The run directory).

    Attributes:
        path: The run directory.
    """

    path: Path

    @property
    def header_file(self) -> Path:
        return self.path / HEADER

    @property
    def records_file(self) -> Path:
        return self.path / RECORDS

    @property
    def results_file(self) -> Path:
        return self.path / RESULTS

    @property
    def invocations_file(self) -> Path:
        return self.path / INVOCATIONS

    def header(self) -> RunHeader:
        """The run's header.

        Raises:
            DataError: ``header.json`` is missing, is not JSON, or is not a JSON object.
        """
        header = read_json(self.header_file)
        if not isinstance(header, dict):
            raise DataError(str(self.header_file), None, "header is not a JSON object")
        return RunHeader(self.path, header)

    def records(
        self, *, keep: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    ) -> list[dict[str, Any]]:
        """Every complete record, in file order (``keep``: what to hold of each).

        Raises:
            DataError: A line other than the last is broken, or a key repeats.
        """
        return read_records(self.records_file, keep=keep)

    def has_results(self) -> bool:
        """Whether a call of ``umb eval`` has finished and written ``results.json``."""
        return self.results_file.exists()

    def results(self) -> dict[str, Any]:
        """``results.json``.

        Raises:
            DataError: The file is missing or not a results object.
        """
        return load_results(self.path)

    def traces(self) -> dict[str, Path]:
        """System name -> its trace file (none for a run made with ``--no-trace``)."""
        return trace_paths(self.path)


def read_header(run_dir: Path) -> RunHeader:
    """The header of the run in ``run_dir`` (:meth:`RunDirectory.header`).

    Raises:
        DataError: ``header.json`` is missing, is not JSON, or is not a JSON object.
    """
    return RunDirectory(run_dir).header()
