"""Checks of ``manifest.json`` and ``world.json``: declarations, format, hashes, counts."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from umb._errors import DataError
from umb._jsonio import read_typed
from umb.bench._io import (
    DIALOGUES,
    FACTS,
    FORMAT_NAME,
    FORMAT_VERSION,
    MANIFEST,
    QUESTIONS,
    WORLD,
)
from umb.bench._problems import Problems
from umb.bench._write import sha256_file


@dataclass(frozen=True)
class FileEntry:
    """What the manifest says about one record file."""

    sha256: str
    bytes: int = 0


@dataclass(frozen=True)
class Manifest:
    """The fields of ``manifest.json`` that validation relies on (others are kept as written)."""

    format: str
    format_version: int
    files: dict[str, FileEntry]
    counts: dict[str, Any] = field(default_factory=dict)
    source: dict[str, Any] | None = None
    """Set by importers: the benchmark keeps a peer's data as published."""


@dataclass(frozen=True)
class WorldEvent:
    id: str
    at: str
    caused_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class TimelinePoint:
    at: str


@dataclass(frozen=True)
class World:
    events: list[WorldEvent] = field(default_factory=list)
    timelines: dict[str, dict[str, list[TimelinePoint]]] = field(default_factory=dict)


#: Manifest count -> the name the record checks count it under.
COUNTED = ("dialogues", "sessions", "turns", "questions", "facts")


def load_manifest(root: Path, problems: Problems) -> Manifest | None:
    """The manifest, or None after recording why it cannot be used."""
    path = root / MANIFEST
    try:
        manifest = read_typed(path, Manifest)
    except DataError as e:
        problems.add_error(e)
        return None
    if manifest.format != FORMAT_NAME:
        problems.add(path, None, f"format: {manifest.format!r} is not {FORMAT_NAME!r}")
        return None
    if manifest.format_version != FORMAT_VERSION:
        problems.add(
            path,
            None,
            f"format_version: {manifest.format_version} is not supported "
            f"(this umb reads version {FORMAT_VERSION})",
        )
        return None
    return manifest


def check_manifest(
    root: Path, manifest: Manifest, counted: dict[str, int], problems: Problems
) -> None:
    """Every record file listed with its true sha256, and the counts as the records are."""
    path = root / MANIFEST
    for name in (DIALOGUES, QUESTIONS, FACTS):
        if name not in manifest.files and (root / name).exists():
            problems.add(path, None, f"files: {name} is not listed (its sha256 cannot be checked)")
    for name, info in manifest.files.items():
        target = root / name
        if not target.exists():
            if name != WORLD:  # a missing world is named by the world's own check
                problems.add(target, None, "listed in the manifest but missing")
            continue
        try:
            digest = sha256_file(target)
        except DataError as e:
            problems.add_error(e)
            continue
        if digest != info.sha256:
            problems.add(target, None, "sha256 differs from the manifest (file was edited)")
    for key in COUNTED:
        claimed = manifest.counts.get(key)
        if isinstance(claimed, int) and key in counted and claimed != counted[key]:
            problems.add(
                path, None, f"counts.{key}: {claimed} but the files hold {counted[key]}"
            )


def check_world(path: Path, problems: Problems) -> None:
    """Unique event ids, causes that exist and precede, timelines in time order."""
    try:
        world = read_typed(path, World)
    except DataError as err:
        problems.add_error(err)
        return
    at = {e.id: e.at for e in world.events}
    if len(at) != len(world.events):
        problems.add(path, None, "duplicate event ids")
    for e in world.events:
        for cause in e.caused_by:
            if cause not in at:
                problems.add(path, None, f"event {e.id}: unknown cause {cause}")
            elif at[cause] >= e.at:
                problems.add(path, None, f"event {e.id}: cause {cause} does not precede it")
    for cid, timelines in world.timelines.items():
        for attr, points in timelines.items():
            times = [p.at for p in points]
            if times != sorted(times):
                problems.add(path, None, f"{cid}: {attr} timeline is not in time order")
