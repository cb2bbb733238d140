"""The list of loader pitfalls met while importing or exporting a peer file.

Peer files have known defects (malformed evidence ids, integer answers, date keys without
sessions, …). Importers never stop on them: they repair what they can, record one entry per
problem here, and the list lands in the benchmark's manifest under ``import_warnings`` so a
reader can see exactly what was changed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

logger = logging.getLogger("umb.interop")


@dataclass
class InteropLog:
    """Warnings of one import or export, in the order they were met."""

    entries: list[dict[str, Any]] = field(default_factory=list)

    def warn(self, code: str, where: str, detail: str, *, count: int = 1) -> None:
        """Record one problem.

        Args:
            code: a stable machine-readable kind, e.g. ``evidence_malformed``.
            where: the native location, e.g. ``conv-26 qa[37]``.
            detail: what was found and what was done about it.
            count: how many items this entry stands for (aggregated notes use > 1).
        """
        entry: dict[str, Any] = {"code": code, "where": where, "detail": detail}
        if count != 1:
            entry["count"] = count
        self.entries.append(entry)
        logger.debug("%s at %s: %s", code, where, detail)

    def counts(self) -> dict[str, int]:
        """Items per warning code (an aggregated entry adds its ``count``)."""
        out: dict[str, int] = {}
        for e in self.entries:
            out[e["code"]] = out.get(e["code"], 0) + int(e.get("count", 1))
        return dict(sorted(out.items()))

    def manifest_fields(self) -> dict[str, Any]:
        """The manifest keys that carry this log."""
        return {"import_warnings": self.entries, "import_warning_counts": self.counts()}
