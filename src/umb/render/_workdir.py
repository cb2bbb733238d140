"""The render work folder ``OUT/render/``: header, per-dialogue checkpoints, cache, coverage.

Layout::

    OUT/render/header.json          what is being rendered, from what, with which settings
    OUT/render/dialogues/D0001.json one checkpoint per finished dialogue (atomic write)
    OUT/render/cache.sqlite         the response cache (default location)
    OUT/render/coverage.json        coverage per family and per dialogue, written at the end
    OUT/render/skeleton/            the template benchmark (``umb generate --renderer llm`` only)

A rerun skips every dialogue with a checkpoint; one killed mid-dialogue starts that dialogue
again, and the response cache answers every request it already made.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from umb._errors import ConfigError, DataError
from umb._jsonio import atomic_write_bytes, dumps, dumps_pretty, read_json
from umb.bench import Dialogue
from umb.render._assemble import RenderedDialogue

WORK = "render"
HEADER = "header.json"
CHECKPOINTS = "dialogues"
CACHE = "cache.sqlite"
COVERAGE = "coverage.json"
SKELETON = "skeleton"


@dataclass(frozen=True)
class Checkpoint:
    """A finished dialogue as stored on disk."""

    dialogue: Dialogue
    missing: dict[str, str]
    report: dict[str, Any]


class WorkDir:
    """``OUT/render/``: open it with the run's header; a different header is refused."""

    def __init__(self, out: Path) -> None:
        self.root = out / WORK
        self.checkpoints = self.root / CHECKPOINTS

    def open(self, header: dict[str, Any]) -> None:
        """Write the header of a new render, or check it against an existing one.

        Raises:
            ConfigError: The folder holds a render of another source or with other settings.
        """
        path = self.root / HEADER
        if path.exists():
            existing = read_json(path)
            if existing != header:
                keys = sorted(
                    k for k in set(existing) | set(header) if existing.get(k) != header.get(k)
                )
                raise ConfigError(
                    f"{self.root} holds a render with other settings ({', '.join(keys)}); "
                    "use another --out, or delete that folder to start over"
                )
        else:
            atomic_write_bytes(path, dumps_pretty(header))
        self.checkpoints.mkdir(parents=True, exist_ok=True)

    def done(self, dialogue_id: str) -> bool:
        """Whether ``dialogue_id`` has a checkpoint."""
        return (self.checkpoints / f"{dialogue_id}.json").exists()

    def save(self, rendered: RenderedDialogue) -> None:
        """Store a finished dialogue (atomically)."""
        record = {
            "format": "umb-render-checkpoint",
            "dialogue": rendered.dialogue,
            "missing": rendered.missing,
            "report": rendered.report,
        }
        atomic_write_bytes(self.checkpoints / f"{rendered.dialogue.id}.json", dumps(record))

    def load(self, dialogue_id: str) -> Checkpoint:
        """Read a finished dialogue back.

        Raises:
            DataError: The checkpoint is missing or broken.
        """
        path = self.checkpoints / f"{dialogue_id}.json"
        data = read_json(path)
        try:
            return Checkpoint(Dialogue.from_dict(data["dialogue"]), data["missing"], data["report"])
        except (KeyError, TypeError, ValueError) as e:
            raise DataError(str(path), None, f"bad checkpoint ({type(e).__name__}: {e})") from None
