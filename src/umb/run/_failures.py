"""How many model calls of a run failed, so ``umb eval`` never passes a broken run off as a score.

A failed answerer call is recorded (``error`` set) and scored 0, which keeps the leaderboard
honest about the model but can hide a dead endpoint behind a table of zeros. This module counts
the failures of the records a call was asked for, and those of the other roles (judge,
extractor) in this invocation, and says so in one line.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from umb.run._log import RecordKey, record_key


@dataclass(frozen=True)
class CallFailures:
    """Failed model calls behind one ``umb eval``.

    Attributes:
        answered: Records of the selection (one answerer call each).
        failed: Of them, records whose answerer call failed.
        first_error: The error of the first failed record (in record order), or of another role.
        other_roles: Role -> failed calls in this invocation, for roles other than the answerer.
    """

    answered: int
    failed: int
    first_error: str | None = None
    other_roles: dict[str, int] = field(default_factory=dict)

    @property
    def any(self) -> bool:
        """Whether any model call failed."""
        return self.failed > 0 or any(self.other_roles.values())

    @property
    def all_failed(self) -> bool:
        """Whether every answerer call failed: the run measured the endpoint, not the model."""
        return self.answered > 0 and self.failed == self.answered

    def message(self) -> str:
        """One line: how many calls failed, per role, and the first error."""
        parts = [f"{self.failed} of {self.answered} answerer calls failed"]
        parts += [f"{n} {role} calls failed" for role, n in sorted(self.other_roles.items()) if n]
        first = f"; first error: {self.first_error}" if self.first_error else ""
        return ", ".join(parts) + first


def count_failures(
    records: Iterable[dict[str, Any]],
    selection: set[RecordKey],
    usage: Mapping[str, Mapping[str, Any]],
) -> CallFailures:
    """Count the failed calls of ``selection``'s records and of ``usage``'s other roles.

    Args:
        records: Every record of the run.
        selection: The (system, question id) pairs this call was asked for.
        usage: This invocation's usage per role (:meth:`UsageMeter.to_dict`).
    """
    answered = failed = 0
    first: str | None = None
    for r in records:
        if record_key(r) not in selection:
            continue
        answered += 1
        if r.get("error"):
            failed += 1
            first = first or str(r["error"])
    others: dict[str, int] = {}
    for role, u in sorted(usage.items()):
        if role == "answerer" or not int(u.get("errors", 0)):
            continue
        others[role] = int(u["errors"])
        if first is None and u.get("first_error"):
            first = f"{role}: {u['first_error']}"
    return CallFailures(answered, failed, first, others)
