"""Read a benchmark directory (``manifest.json``, ``world.json``, three JSONL files)."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path
from typing import Any

from umb._errors import DataError
from umb._jsonio import iter_typed, read_json
from umb.bench._records import Dialogue, Fact, Question

MANIFEST = "manifest.json"
WORLD = "world.json"
DIALOGUES = "dialogues.jsonl"
QUESTIONS = "questions.jsonl"
FACTS = "facts.jsonl"
BENCH_FILES = (WORLD, DIALOGUES, QUESTIONS, FACTS)
FORMAT_NAME = "umb-benchmark"
FORMAT_VERSION = 1


_ID_KEY = b'{"id":"'


def holds_wanted_id(only: Collection[str], raw: bytes) -> bool:
    """Whether a raw record line may hold one of the ids ``only``: our writer puts the id
    first, so a record not wanted is skipped unparsed (a line of another shape is kept)."""
    if raw.startswith(_ID_KEY):
        end = raw.find(b'"', len(_ID_KEY))
        return end <= 0 or raw[len(_ID_KEY) : end].decode() in only
    return True


@dataclass(frozen=True)
class Benchmark:
    """A benchmark directory on disk; dialogues are streamed, the rest loaded on demand."""

    root: Path

    @classmethod
    def open(cls, root: str | Path) -> Benchmark:
        """Open ``root``, checking that it looks like a benchmark directory."""
        path = Path(root)
        if not path.is_dir():
            raise DataError(str(path), None, "not a benchmark directory")
        for name in (MANIFEST, DIALOGUES, QUESTIONS):
            if not (path / name).exists():
                raise DataError(str(path / name), None, "missing file")
        return cls(path)

    @cached_property
    def manifest(self) -> dict[str, Any]:
        data = read_json(self.root / MANIFEST)
        if not isinstance(data, dict):
            raise DataError(str(self.root / MANIFEST), None, "manifest is not a JSON object")
        return data

    @property
    def has_world(self) -> bool:
        """Whether ``world.json`` is there (a generated benchmark has one, an imported one not)."""
        return (self.root / WORLD).exists()

    @cached_property
    def world(self) -> dict[str, Any]:
        """The raw ``world.json`` (imported peer benchmarks may have none: then ``{}``)."""
        return self.read_world()

    def read_world(self) -> dict[str, Any]:
        """``world.json`` read again, not kept: for a reader that keeps only what it derives
        from it (a few MB of JSON objects on a large benchmark)."""
        path = self.root / WORLD
        return read_json(path) if path.exists() else {}

    def iter_dialogues(self, only: Collection[str] | None = None) -> Iterator[Dialogue]:
        """The dialogues in file order; with ``only``, just those ids (the rest are not parsed)."""
        if only is None:
            for _, d in iter_typed(self.root / DIALOGUES, Dialogue):
                yield d
            return

        for _, d in iter_typed(
            self.root / DIALOGUES, Dialogue, keep=partial(holds_wanted_id, only)
        ):
            if d.id in only:
                yield d

    def dialogue_ids(self) -> list[str]:
        return [d.id for d in self.iter_dialogues()]

    @cached_property
    def questions(self) -> list[Question]:
        return [q for _, q in iter_typed(self.root / QUESTIONS, Question)]

    @cached_property
    def facts(self) -> dict[str, Fact]:
        path = self.root / FACTS
        if not path.exists():
            return {}
        return {f.id: f for _, f in iter_typed(path, Fact)}

    @property
    def content_hash(self) -> str:
        """A hash of the benchmark's content, from the manifest's file hashes."""
        import hashlib

        files = self.manifest.get("files", {})
        h = hashlib.sha256()
        for name in sorted(files):
            h.update(f"{name}={files[name]['sha256']};".encode())
        return h.hexdigest()
