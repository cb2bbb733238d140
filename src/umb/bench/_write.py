"""Write a benchmark directory: the record files, then a manifest with their sha256."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from umb._jsonio import AtomicJsonlWriter, atomic_write_bytes, dumps_pretty, open_regular
from umb.bench._io import (
    DIALOGUES,
    FACTS,
    FORMAT_NAME,
    FORMAT_VERSION,
    MANIFEST,
    QUESTIONS,
    WORLD,
)
from umb.bench._records import Dialogue, Fact, Question


def sha256_file(path: Path) -> str:
    """The hex sha256 of a file, read in 1 MiB blocks."""
    h = hashlib.sha256()
    with open_regular(path) as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_manifest(
    root: Path,
    *,
    generator: str,
    config: dict[str, Any],
    counts: dict[str, Any],
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Hash every record file in ``root`` and write ``manifest.json`` last."""
    files = {}
    for name in (WORLD, DIALOGUES, QUESTIONS, FACTS):
        path = root / name
        if path.exists():
            files[name] = {"sha256": sha256_file(path), "bytes": path.stat().st_size}
    manifest: dict[str, Any] = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "generator": generator,
        "seed": config.get("seed"),
        "config": config,
        "counts": counts,
        "files": files,
    }
    if extra:
        manifest.update(extra)
    atomic_write_bytes(root / MANIFEST, dumps_pretty(manifest))
    return manifest


def write_benchmark(
    root: Path,
    *,
    world: dict[str, Any] | None,
    dialogues: Iterable[Dialogue],
    questions: Iterable[Question],
    facts: Iterable[Fact],
    generator: str,
    config: dict[str, Any],
    extra_manifest: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Write a whole benchmark directory from records (importers and small generators).

    ``dialogues`` may be a generator: it is streamed to disk.
    """
    root.mkdir(parents=True, exist_ok=True)
    if world is not None:
        atomic_write_bytes(root / WORLD, dumps_pretty(world))
    n_dialogues = n_sessions = n_turns = 0
    with AtomicJsonlWriter(root / DIALOGUES) as w:
        for d in dialogues:
            w.write(d)
            n_dialogues += 1
            n_sessions += len(d.sessions)
            n_turns += sum(len(s.turns) for s in d.sessions)
    qs = list(questions)
    with AtomicJsonlWriter(root / QUESTIONS) as w:
        w.write_many(qs)
    n_facts = 0
    with AtomicJsonlWriter(root / FACTS) as w:
        for f in facts:
            w.write(f)
            n_facts += 1
    per_family: dict[str, int] = {}
    for q in qs:
        per_family[q.family] = per_family.get(q.family, 0) + 1
    counts = {
        "dialogues": n_dialogues,
        "sessions": n_sessions,
        "turns": n_turns,
        "questions": len(qs),
        "facts": n_facts,
        "questions_per_family": dict(sorted(per_family.items())),
    }
    return write_manifest(
        root, generator=generator, config=config, counts=counts, extra=extra_manifest
    )


def write_world(
    root: Path, characters: list[Any], events: dict[str, Any], timelines: dict[str, Any]
) -> None:
    """Write ``world.json``: characters in id order, events sorted by id (shard-independent)."""
    world = {
        "format": "umb-world",
        "format_version": 1,
        "characters": characters,
        "events": [events[k] for k in sorted(events)],
        "timelines": timelines,
    }
    atomic_write_bytes(root / WORLD, dumps_pretty(world))
