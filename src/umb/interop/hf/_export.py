"""``umb export --format hf``: a benchmark directory -> a Hugging Face datasets folder.

The folder holds Parquet shards under ``data/<config>/``, the dataset card ``README.md``,
``croissant.json`` and ``umb-manifest.json`` (the benchmark's own manifest, byte for byte, so
``umb import hf`` can check and restore it). Everything is written into a temporary sibling
folder that replaces ``out`` only once complete.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from umb._errors import ConfigError, DataError, MissingDependencyError

try:
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
except ImportError as _e:  # pragma: no cover - the hub extra is missing
    raise MissingDependencyError("pyarrow", "hub") from _e

import msgspec

from umb._jsonio import (
    atomic_write_bytes,
    iter_jsonl,
    read_bytes,
    read_json,
    validation_reason,
)
from umb.bench import DIALOGUES, FACTS, MANIFEST, QUESTIONS, WORLD, Benchmark
from umb.interop._common import NATIVE_FILE
from umb.interop._log import InteropLog
from umb.interop.hf import _schema as S
from umb.interop.hf._card import write_card
from umb.interop.hf._configs import ConfigOut
from umb.interop.hf._croissant import write_croissant
from umb.interop.hf._read import arrow_batches, misfit
from umb.interop.hf._shards import ShardWriter, schema_with_metadata

UMB_MANIFEST = "umb-manifest.json"
UMB_NATIVE = "umb-native.json"
DEFAULT_MAX_SHARD_MB = 500
#: Rows per Arrow table built from Python objects (questions, world).
_CHUNK = 2000


def export_hf(
    root: str | Path,
    out: str | Path,
    *,
    max_shard_mb: float = DEFAULT_MAX_SHARD_MB,
    license: str | None = None,
) -> InteropLog:
    """Write the benchmark at ``root`` as a ``datasets``-loadable folder ``out``.

    Args:
        max_shard_mb: No Parquet file is larger (MiB), unless one row alone is.
        license: The card's license id; None: the source's (``cc-by-4.0`` for generated).
    """
    if max_shard_mb <= 0:
        raise ConfigError(f"--max-shard-mb must be positive, not {max_shard_mb}")
    bench = Benchmark.open(root)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp"))
    try:
        log = _write_folder(bench, tmp, out.name, int(max_shard_mb * (1 << 20)), license)
        _replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return log


def _replace(tmp: Path, out: Path) -> None:
    # The caller has refused an existing ``out`` unless told to overwrite it.
    if out.is_dir() and not out.is_symlink():
        shutil.rmtree(out)
    elif out.exists() or out.is_symlink():
        out.unlink()
    os.replace(tmp, out)


def _write_folder(
    bench: Benchmark, folder: Path, name: str, limit: int, license: str | None
) -> InteropLog:
    log = InteropLog()
    manifest = bench.manifest
    features = _features_metadata()
    configs: list[ConfigOut] = []

    def writer(name: str, extra: dict[str, Any] | None = None) -> ShardWriter:
        meta = {"huggingface": features(name), **({"umb": extra} if extra else {})}
        schema = schema_with_metadata(S.SCHEMAS[name], meta)
        return ShardWriter(folder / "data" / name, schema, limit, S.SPLIT, log)

    def finish(name: str, w: ShardWriter) -> None:
        configs.append(ConfigOut(name, w.close(), w.arrow_bytes))

    dw, sw = writer("dialogues"), writer("sessions")
    stats = _DialogueStats()
    for batch in arrow_batches(bench.root / DIALOGUES, S.DIALOGUES):
        batch = pa.RecordBatch.from_arrays(batch.columns, schema=dw.schema)
        dw.write(batch)
        sw.write(_sessions(batch, sw.schema))
        stats.add(batch)
    finish("dialogues", dw)
    finish("sessions", sw)

    qw = writer("questions")
    for rows in _chunks(_question_rows(bench.root / QUESTIONS)):
        qw.write(pa.Table.from_pylist(rows, schema=qw.schema))
    finish("questions", qw)

    if (bench.root / FACTS).exists():
        fw = writer("facts")
        for batch in arrow_batches(bench.root / FACTS, S.FACTS):
            fw.write(pa.RecordBatch.from_arrays(batch.columns, schema=fw.schema))
        finish("facts", fw)

    if (bench.root / WORLD).exists():
        world = read_json(bench.root / WORLD)
        layout = S.world_layout(world)
        ww = writer("world", {"world_layout": layout})
        for table in _world_tables(world, layout, ww.schema, bench.root / WORLD):
            ww.write(table)
        del world
        finish("world", ww)

    _check_counts(manifest, configs, log)
    atomic_write_bytes(folder / UMB_MANIFEST, read_bytes(bench.root / MANIFEST))
    if (bench.root / NATIVE_FILE).exists():
        # An imported benchmark's sidecar, so that a re-import can export the peer file again.
        atomic_write_bytes(folder / UMB_NATIVE, read_bytes(bench.root / NATIVE_FILE))
    write_card(folder, name, manifest, configs, stats.summary(), license)
    write_croissant(folder, name, manifest, configs, license)
    return log


def _features_metadata() -> Any:
    try:
        import datasets
    except ImportError as e:  # pragma: no cover - the hub extra is missing
        raise MissingDependencyError("datasets", "hub") from e

    def of(name: str) -> dict[str, Any]:
        feats = datasets.Features.from_arrow_schema(S.SCHEMAS[name])
        return {"info": {"features": feats.to_dict()}}

    return of


def _sessions(batch: pa.RecordBatch, schema: pa.Schema) -> pa.RecordBatch:
    """The ``sessions`` rows of a batch of dialogues: one per session, dialogue ids beside."""
    sessions = batch.column("sessions")
    parent = pc.list_parent_indices(sessions)
    offsets = sessions.offsets.to_numpy()
    positions = np.arange(len(parent), dtype=np.int64) + offsets[0]
    index = pa.array(positions - offsets[parent.to_numpy()], type=pa.int32())
    flat = sessions.flatten()
    columns = [pc.take(batch.column("id"), parent), index]
    columns += [pc.take(batch.column("character_id"), parent), *flat.flatten()]
    return pa.RecordBatch.from_arrays(columns, schema=schema)


def _field(structs: pa.StructArray, name: str) -> pa.Array:
    # ``flatten`` honours the array's offset; ``field`` would not.
    return structs.flatten()[structs.type.get_field_index(name)]


class _DialogueStats:
    """Tokens (ceil(chars / 4), as everywhere in umb), sessions and turns per dialogue."""

    def __init__(self) -> None:
        self.tokens: list[np.ndarray] = []
        self.sessions: list[np.ndarray] = []
        self.turns: list[np.ndarray] = []
        self.renderers: dict[str, int] = {}

    def add(self, batch: pa.RecordBatch) -> None:
        sessions = batch.column("sessions")
        flat = sessions.flatten()
        turns = _field(flat, "turns")
        texts = _field(turns.flatten(), "text")
        tokens = (pc.utf8_length(texts).to_numpy(zero_copy_only=False) + 3) // 4
        turn_session = pc.list_parent_indices(turns).to_numpy()
        session_dialogue = pc.list_parent_indices(sessions).to_numpy()
        n = batch.num_rows
        per_session = pc.list_value_length(turns).to_numpy(zero_copy_only=False)
        self.tokens.append(np.bincount(session_dialogue[turn_session], tokens, minlength=n))
        self.sessions.append(pc.list_value_length(sessions).to_numpy(zero_copy_only=False))
        self.turns.append(np.bincount(session_dialogue, per_session, minlength=n))
        for value in pc.value_counts(_field(flat, "rendered_by")).to_pylist():
            key = value["values"] or "unknown"
            self.renderers[key] = self.renderers.get(key, 0) + value["counts"]

    def summary(self) -> dict[str, Any]:
        def spread(parts: list[np.ndarray]) -> dict[str, float]:
            values = np.concatenate(parts) if parts else np.zeros(0)
            if not len(values):
                return {"min": 0, "mean": 0, "max": 0, "total": 0}
            return {
                "min": int(values.min()),
                "mean": round(float(values.mean()), 1),
                "max": int(values.max()),
                "total": int(values.sum()),
            }

        return {
            "tokens_per_dialogue": spread(self.tokens),
            "sessions_per_dialogue": spread(self.sessions),
            "turns_per_dialogue": spread(self.turns),
            "sessions_by_renderer": dict(sorted(self.renderers.items())),
        }


def _question_rows(path: Path) -> Iterator[dict[str, Any]]:
    fields = S.QUESTIONS.names
    lines: Iterator[tuple[int, Any]] = iter_jsonl(path)
    for lineno, obj in lines:
        if not isinstance(obj, dict):
            raise DataError(str(path), lineno, "a question must be a JSON object")
        unknown = [k for k in obj if k not in fields or k in S.DERIVED_QUESTION_COLUMNS]
        if unknown:
            raise DataError(str(path), lineno, f"{unknown[0]}: unknown field")
        try:
            row = S.question_row(obj)
        except msgspec.ValidationError as e:
            raise DataError(str(path), lineno, validation_reason(e)) from None
        problem = misfit(row, pa.struct(list(S.QUESTIONS)), "")
        if problem:
            raise DataError(str(path), lineno, problem)
        yield row


def _chunks(rows: Iterator[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    chunk: list[dict[str, Any]] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == _CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _world_tables(
    world: Any, layout: dict[str, Any], schema: pa.Schema, path: Path
) -> Iterator[pa.Table]:
    """The ``world`` rows in tables of a few hundred characters, once checked to read back."""
    import orjson

    if not isinstance(world, dict) or not isinstance(world.get("characters"), list):
        raise DataError(str(path), None, "a world must be an object with a characters list")
    try:
        rows = S.world_rows(world)
    except (KeyError, TypeError, AttributeError) as e:
        raise DataError(str(path), None, f"not a umb world ({type(e).__name__}: {e})") from None
    tables = []
    for start in range(0, len(rows), _CHUNK // 10):
        part = rows[start : start + _CHUNK // 10]
        for r in part:
            problem = misfit(r, pa.struct(list(schema)), "")
            if problem:
                raise DataError(str(path), None, f"character {r.get('id')}: {problem}")
        tables.append(pa.Table.from_pylist(part, schema=schema))
    back = S.world_record([r for t in tables for r in t.to_pylist()], layout)
    if orjson.dumps(back) != orjson.dumps(world):
        raise DataError(str(path), None, "the world does not read back from its rows unchanged")
    yield from tables


def _check_counts(manifest: dict[str, Any], configs: list[ConfigOut], log: InteropLog) -> None:
    counts = manifest.get("counts", {})
    rows = {c.name: c.rows for c in configs}
    for name in ("dialogues", "sessions", "questions", "facts"):
        if name in counts and name in rows and counts[name] != rows[name]:
            log.warn(
                "count_differs_from_manifest",
                name,
                f"the manifest says {counts[name]}, the records hold {rows[name]}",
            )


__all__ = ["DEFAULT_MAX_SHARD_MB", "UMB_MANIFEST", "UMB_NATIVE", "export_hf"]
