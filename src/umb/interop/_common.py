"""Helpers every importer and exporter shares: reading the peer file, the native sidecar,
writing the benchmark directory and reading a question's main answer."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson

from umb._errors import DataError
from umb._jsonio import (
    atomic_write_bytes,
    check_nesting,
    dumps_pretty,
    json_error,
    read_bytes,
    read_json,
)
from umb.bench import Dialogue, Question, sha256_file, write_benchmark
from umb.families import PRIMARY_FIELDS
from umb.interop._log import InteropLog

#: Sidecar file holding what the benchmark records cannot (native speaker names, date strings,
#: image fields, generated RAG databases, …), so that an export gives the peer file back.
NATIVE_FILE = "native.json"

IMPORTER_VERSION = "1"

def primary_answer(q: Question) -> str:
    """The question's gold answer as one string (the family's main answer field)."""
    # The family's one-line answer field, where a peer format has one answer.
    value = q.gold.get(PRIMARY_FIELDS.get(q.family, "answer"), "")
    return "" if value is None else str(value)


def native_answer_text(q: Question) -> str:
    """The peer's own gold answer as a string when imported, else :func:`primary_answer`."""
    if "native_answer" in q.meta and q.meta["native_answer"] is not None:
        return str(q.meta["native_answer"])
    return primary_answer(q)


#: Keys that mark one top-level item of each peer's file, to name the right importer.
_SIGNATURES: dict[str, tuple[frozenset[str], str]] = {
    "locomo": (frozenset({"conversation"}), "a LoCoMo file is a JSON list of samples"),
    "longmemeval": (
        frozenset({"haystack_sessions"}),
        "a LongMemEval file is a JSON list of instances",
    ),
    "umb-release": (
        frozenset({"dialogue"}),
        "a UMB release file is a JSON list (or JSONL) of dialogue objects",
    ),
}


def _looks_like(item: Any) -> str | None:
    if isinstance(item, dict):
        for name, (keys, _) in _SIGNATURES.items():
            if keys <= item.keys():
                return name
    return None


def _shape(data: Any) -> str:
    if isinstance(data, list):
        kinds = sorted({type(x).__name__ for x in data})
        return f"a list of {len(data)} item(s) ({', '.join(kinds)})" if data else "an empty list"
    return f"a JSON {type(data).__name__}"


def check_peer_shape(data: Any, peer: str, path: Path) -> None:
    """Refuse a file that is not ``peer``'s shape, naming the importer it looks made for.

    Raises:
        DataError: What was expected and what the file holds.
    """
    expected = _SIGNATURES[peer][1]
    items = data if isinstance(data, list) else [data]
    kinds = [_looks_like(x) for x in items]
    if peer in kinds:
        return
    other = next((k for k in kinds if k is not None), None)
    if other is not None:
        raise DataError(
            str(path), None, f"this looks like a {other} file: use `umb import {other}`"
        )
    raise DataError(str(path), None, f"{expected}; this file holds {_shape(data)}")


def read_peer_json(path: Path, peer: str | None = None) -> Any:
    """Load a peer JSON file (a JSONL file is read as a list of its lines).

    Args:
        peer: When given, the file must have that peer's shape (:func:`check_peer_shape`).

    Raises:
        DataError: Empty file, JSON syntax error (at its real line and column), or wrong shape.
    """
    raw = read_bytes(path)
    if not raw.strip():
        what = _SIGNATURES[peer][1] if peer else "JSON"
        raise DataError(str(path), None, f"empty file; {what}")
    data = _parse(path, raw)
    if peer is not None:
        check_peer_shape(data, peer, path)
    return data


def _parse(path: Path, raw: bytes) -> Any:
    check_nesting(path, raw)
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as whole:
        lines = raw.splitlines()
        first = next((x for x in lines if x.strip()), b"")
        try:
            orjson.loads(first)
        except orjson.JSONDecodeError:
            # Not JSONL either: one document with a syntax error at its real place.
            raise json_error(path, raw, whole) from None
    rows = []
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rows.append(orjson.loads(line))
        except orjson.JSONDecodeError as e:
            raise json_error(path, line, e, lineno - 1) from None
    return rows


def source_info(path: Path, fmt: str, **extra: Any) -> dict[str, Any]:
    """What the manifest says about the imported file (its name only, never its path)."""
    info: dict[str, Any] = {
        "format": fmt,
        "file": path.name,
        "sha256": sha256_file(path),
        "bytes": path.stat().st_size,
    }
    info.update(extra)
    return info


def write_imported(
    out: Path,
    *,
    fmt: str,
    dialogues: Iterable[Dialogue],
    questions: Iterable[Question],
    native: dict[str, Any],
    source: dict[str, Any],
    log: InteropLog,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Write an imported benchmark: the sidecar first, then the records and the manifest."""
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(out / NATIVE_FILE, orjson.dumps({"format": fmt, **native}))
    manifest_extra: dict[str, Any] = {
        "source": source,
        "native_file": {
            "name": NATIVE_FILE,
            "sha256": sha256_file(out / NATIVE_FILE),
            "bytes": (out / NATIVE_FILE).stat().st_size,
        },
    }
    manifest_extra.update(extra or {})
    manifest_extra.update(log.manifest_fields())
    return write_benchmark(
        out,
        world=None,
        dialogues=dialogues,
        questions=questions,
        facts=(),
        generator=f"umb.interop.{fmt}/{IMPORTER_VERSION}",
        config={"source_format": fmt, "source_file": source["file"]},
        extra_manifest=manifest_extra,
    )


def read_native(root: Path, fmt: str) -> dict[str, Any]:
    """The sidecar of a benchmark imported from ``fmt``; ``{}`` for any other benchmark."""
    path = root / NATIVE_FILE
    if not path.exists():
        return {}
    data = read_json(path)
    if not isinstance(data, dict) or data.get("format") != fmt:
        return {}
    return data


def write_export(path: Path, data: Any) -> None:
    """Write an exported peer file atomically (indented, like the peers' own releases)."""
    atomic_write_bytes(path, dumps_pretty(data))


def text_hash(text: str) -> str:
    """Short sha256 of a text (prompt templates are recorded by this hash)."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def umb_question_extension(q: Question) -> dict[str, Any]:
    """The ``umb_question`` key an export adds so a re-import restores umb's own fields.

    Turn ids are left out: the peer format carries them in its own evidence field.
    """
    return {
        "id": q.id,
        "family": q.family,
        "asked_at": q.asked_at,
        "gold": q.gold,
        "answer_components": list(q.answer_components),
        "evidence": {
            "event_ids": list(q.evidence.event_ids),
            "fact_ids": list(q.evidence.fact_ids),
            "session_ids": list(q.evidence.session_ids),
        },
        "meta": q.meta,
    }
