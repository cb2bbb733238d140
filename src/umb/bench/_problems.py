"""The problems a validation collects, each one line ``file:line: reason``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from umb._errors import DataError


@dataclass
class Problems:
    """Collected problems; stops collecting after ``limit``."""

    limit: int = 50
    items: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """Things kept as a peer published them (imports), reported but not failing."""
    total: int = 0
    """Every problem found, including those past ``limit``."""
    notes: list[str] = field(default_factory=list)
    """What does not apply to this benchmark, and why (neither a problem nor a warning)."""

    def add(self, path: Path, line: int | None, reason: str) -> None:
        text = str(DataError(path.name, line, reason))
        if text in self.items:  # an unreadable file is met by several checks: name it once
            return
        self.total += 1
        if len(self.items) < self.limit:
            self.items.append(text)

    def add_error(self, err: DataError) -> None:
        """Record a DataError raised by a reader (named by file name, like the others)."""
        self.add(Path(err.path), err.line, err.reason)

    def note(self, path: Path, reason: str) -> None:
        self.notes.append(f"{path.name}: {reason}")

    def warn(self, path: Path, line: int | None, reason: str) -> None:
        self.warnings.append(f"{DataError(path.name, line, reason)} (as published)")
