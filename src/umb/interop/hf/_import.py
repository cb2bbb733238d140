"""``umb import hf FOLDER``: a folder written by ``umb export --format hf`` -> a benchmark.

Each record file is written back from its config's rows, in shard order. When every file has
the sha256 the shipped ``umb-manifest.json`` names, that manifest is restored byte for byte (the
round trip is exact); otherwise a new manifest is written and the differing files are logged.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from umb._errors import DataError, MissingDependencyError

try:
    import pyarrow as pa
    import pyarrow.parquet as pq
except ImportError as _e:  # pragma: no cover - the hub extra is missing
    raise MissingDependencyError("pyarrow", "hub") from _e

from umb._jsonio import AtomicJsonlWriter, atomic_write_bytes, dumps_pretty, read_bytes, read_json
from umb.bench import DIALOGUES, FACTS, MANIFEST, QUESTIONS, WORLD, sha256_file, write_manifest
from umb.interop._common import NATIVE_FILE
from umb.interop._log import InteropLog
from umb.interop.hf import _schema as S
from umb.interop.hf._export import UMB_MANIFEST, UMB_NATIVE

#: Rows turned into Python objects at a time; a dialogue of the umb preset is ~5 MB of them.
_BATCH_ROWS = 256
_DIALOGUE_BATCH_ROWS = 8


def import_hf(path: str | Path, out: str | Path) -> dict[str, Any]:
    """Write the benchmark held by the hf folder ``path`` to ``out``; returns its manifest."""
    folder, out = Path(path), Path(out)
    if not folder.is_dir():
        raise DataError(str(folder), None, "not a folder; an hf export is a folder")
    if not (folder / UMB_MANIFEST).exists():
        raise DataError(
            str(folder / UMB_MANIFEST),
            None,
            "missing file: only folders written by `umb export --format hf` can be imported",
        )
    original = read_json(folder / UMB_MANIFEST)
    if not isinstance(original, dict):
        raise DataError(str(folder / UMB_MANIFEST), None, "manifest is not a JSON object")
    shards = {name: _shards(folder, name) for name in S.SCHEMAS}
    for name in ("dialogues", "questions"):
        if not shards[name]:
            raise DataError(str(folder / "data" / name), None, f"no {S.SPLIT}-*.parquet shards")
    out.mkdir(parents=True, exist_ok=True)
    counts = _write_dialogues(shards["dialogues"], out / DIALOGUES)
    counts.update(_write_questions(shards["questions"], out / QUESTIONS))
    counts["facts"] = _write_rows(shards["facts"], S.FACTS, out / FACTS, lambda r: r)
    if shards["world"]:
        _write_world(shards["world"], out / WORLD)
    if (folder / UMB_NATIVE).exists():
        atomic_write_bytes(out / NATIVE_FILE, read_bytes(folder / UMB_NATIVE))
    return _manifest(folder, out, original, counts)


def _shards(folder: Path, name: str) -> list[Path]:
    return sorted((folder / "data" / name).glob(f"{S.SPLIT}-*.parquet"))


def _batches(
    shards: list[Path], schema: pa.Schema, rows: int = _BATCH_ROWS
) -> Iterator[list[dict[str, Any]]]:
    """Rows of ``schema``'s columns, in order, from each shard in turn."""
    for shard in shards:
        try:
            f = pq.ParquetFile(shard)
        except (pa.ArrowInvalid, OSError) as e:
            raise DataError(str(shard), None, f"not a Parquet file ({e})") from None
        missing = [n for n in schema.names if n not in f.schema_arrow.names]
        if missing:
            raise DataError(str(shard), None, f"column {missing[0]!r} missing")
        for batch in f.iter_batches(batch_size=rows, columns=schema.names):
            yield batch.to_pylist()


def _write_rows(shards: list[Path], schema: pa.Schema, path: Path, record: Any) -> int:
    n = 0
    with AtomicJsonlWriter(path) as w:
        for rows in _batches(shards, schema):
            for row in rows:
                w.write(record(row))
            n += len(rows)
    return n


def _write_dialogues(shards: list[Path], path: Path) -> dict[str, Any]:
    counts = {"dialogues": 0, "sessions": 0, "turns": 0}
    with AtomicJsonlWriter(path) as w:
        for rows in _batches(shards, S.DIALOGUES, _DIALOGUE_BATCH_ROWS):
            for d in rows:
                for s in d["sessions"]:
                    for t in s["turns"]:
                        if t["fact_ids"] is None:  # a record that left out the default
                            t["fact_ids"] = []
                    counts["turns"] += len(s["turns"])
                counts["sessions"] += len(d["sessions"])
                w.write(d)
            counts["dialogues"] += len(rows)
    return counts


def _write_questions(shards: list[Path], path: Path) -> dict[str, Any]:
    per_family: dict[str, int] = {}
    n = 0
    with AtomicJsonlWriter(path) as w:
        for rows in _batches(shards, S.QUESTIONS):
            for row in rows:
                try:
                    w.write(S.question_record(row))
                except orjson.JSONDecodeError as e:
                    where = str(shards[0].parent)
                    raise DataError(where, None, f"question {row['id']}: {e}") from None
                per_family[row["family"]] = per_family.get(row["family"], 0) + 1
            n += len(rows)
    return {"questions": n, "questions_per_family": dict(sorted(per_family.items()))}


def _write_world(shards: list[Path], path: Path) -> None:
    raw = pq.read_schema(shards[0]).metadata or {}
    if b"umb" not in raw:
        raise DataError(str(shards[0]), None, "no umb world layout in the Parquet metadata")
    layout = orjson.loads(raw[b"umb"])["world_layout"]
    rows = [r for batch in _batches(shards, S.WORLD) for r in batch]
    atomic_write_bytes(path, dumps_pretty(S.world_record(rows, layout)))


def _manifest(
    folder: Path, out: Path, original: dict[str, Any], counts: dict[str, Any]
) -> dict[str, Any]:
    files = original.get("files") or {}
    written = [n for n in (WORLD, DIALOGUES, QUESTIONS, FACTS) if (out / n).exists()]
    differ = [n for n in written if files.get(n, {}).get("sha256") != sha256_file(out / n)]
    if not differ and sorted(written) == sorted(files):
        atomic_write_bytes(out / MANIFEST, read_bytes(folder / UMB_MANIFEST))
        return original
    log = InteropLog()
    for name in differ + [n for n in files if n not in written]:
        log.warn("file_differs_from_export", name, "not the bytes the shipped manifest names")
    extra = {k: v for k, v in original.items() if k not in _OWN_KEYS}
    extra["source"] = {"format": "hf", "file": folder.name, "original_files": files}
    extra.update(log.manifest_fields())
    counts["questions_per_family"] = counts.pop("questions_per_family")
    return write_manifest(
        out,
        generator=str(original.get("generator", "umb.interop.hf")),
        config=dict(original.get("config") or {}),
        counts=counts,
        extra=extra,
    )


_OWN_KEYS = ("format", "format_version", "generator", "seed", "config", "counts", "files")
