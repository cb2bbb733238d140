"""Reading a run's ``header.json`` back: the one reader every layer that opens a run uses.

The header is written by :func:`umb.run.build_header` when a run starts (``umb eval``, ``umb
score``); what reads it (the report, attribution, memory metrics, the background worker, trace
pictures, a resumed run) goes through :func:`read_header`, so a broken header is refused with the
same message everywhere, and where the benchmark is is worked out in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from umb._errors import ConfigError, DataError
from umb._jsonio import read_json
from umb.run._log import HEADER


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


def read_header(run_dir: Path) -> RunHeader:
    """The header of the run in ``run_dir``.

    Raises:
        DataError: ``header.json`` is missing, is not JSON, or is not a JSON object.
    """
    path = run_dir / HEADER
    header = read_json(path)
    if not isinstance(header, dict):
        raise DataError(str(path), None, "header is not a JSON object")
    return RunHeader(run_dir, header)
