"""Parquet shards of one config, each kept under a size limit, written as batches arrive.

A shard's size is known only once written, so the next row group's compressed size is
estimated from the largest ratio seen so far; a new shard starts before a row group that would
cross the limit. Row groups stay small (a few MiB of Arrow data) so that memory stays bounded
and readers can seek.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pyarrow as pa
import pyarrow.parquet as pq

from umb.interop._log import InteropLog

#: Arrow bytes per row group at most (a row larger than this is a row group of its own).
ROW_GROUP_BYTES = 32 << 20
#: Left below the limit for the footer: the schema, then per row group and leaf column one
#: column chunk entry (a few hundred bytes each).
FOOTER_BASE = 64 << 10
FOOTER_PER_CHUNK = 512
COMPRESSION = "zstd"


@dataclass
class Shard:
    path: Path
    rows: int
    bytes: int


@dataclass
class ShardWriter:
    """Writes ``<folder>/<split>-NNNNN-of-MMMMM.parquet`` for one config."""

    folder: Path
    schema: pa.Schema
    limit: int
    split: str
    log: InteropLog
    shards: list[Shard] = field(default_factory=list)
    arrow_bytes: int = 0
    _writer: pq.ParquetWriter | None = None
    _file: IO[bytes] | None = None
    _rows: int = 0
    _groups: int = 0
    _ratio: float | None = None

    def write(self, data: pa.Table | pa.RecordBatch) -> None:
        """Append rows (of this writer's schema) to the current shard, starting new ones."""
        if data.num_rows == 0:
            return
        per_row = max(1, data.nbytes // data.num_rows)
        step = max(1, min(ROW_GROUP_BYTES, self.limit // 4) // per_row)
        for start in range(0, data.num_rows, step):
            self._write_group(data.slice(start, step))

    def _write_group(self, part: pa.Table | pa.RecordBatch) -> None:
        size = part.nbytes
        if self._file is not None and self._rows:
            # Until a group has been written, assume no compression at all.
            estimate = size * (1.0 if self._ratio is None else self._ratio)
            footer = FOOTER_BASE + (self._groups + 1) * self._leaves * FOOTER_PER_CHUNK
            if self._file.tell() + estimate + footer > self.limit:
                self._close_shard()
        if self._writer is None:
            self._open_shard()
        assert self._writer is not None and self._file is not None
        before = self._file.tell()
        table = part if isinstance(part, pa.Table) else pa.Table.from_batches([part])
        self._writer.write_table(table, row_group_size=part.num_rows)
        written = self._file.tell() - before
        ratio = written / max(size, 1)
        self._ratio = ratio if self._ratio is None else max(self._ratio, ratio)
        self._rows += part.num_rows
        self._groups += 1
        self.arrow_bytes += size
        if part.num_rows == 1 and self._file.tell() > self.limit:
            self.log.warn(
                "row_over_shard_limit",
                f"{self.folder.name} shard {len(self.shards)}",
                f"one row is {written} bytes, over the {self.limit}-byte limit",
            )

    def _open_shard(self) -> None:
        path = self.folder / f".{self.split}-{len(self.shards):05d}.parquet.tmp"
        self.folder.mkdir(parents=True, exist_ok=True)
        self._file = open(path, "wb")  # noqa: SIM115 - closed by _close_shard
        self._writer = pq.ParquetWriter(
            self._file, self.schema, compression=COMPRESSION, write_statistics=False
        )
        self._rows = self._groups = 0

    @property
    def _leaves(self) -> int:
        return sum(_leaf_count(f.type) for f in self.schema)

    def _close_shard(self) -> None:
        assert self._writer is not None and self._file is not None
        self._writer.close()
        size = self._file.tell()
        self._file.close()
        self.shards.append(Shard(Path(self._file.name), self._rows, size))
        self._writer = self._file = None

    def close(self) -> list[Shard]:
        """Finish the last shard and give every shard its final ``-of-`` name."""
        if self._writer is None and not self.shards:
            self._open_shard()  # a config with no rows still gets one (empty) shard
        if self._writer is not None:
            self._close_shard()
        n = len(self.shards)
        for i, shard in enumerate(self.shards):
            final = self.folder / f"{self.split}-{i:05d}-of-{n:05d}.parquet"
            os.replace(shard.path, final)
            shard.path = final
        return self.shards

    def abort(self) -> None:
        """Close an unfinished shard after a failure (the caller removes the folder)."""
        if self._writer is not None and self._file is not None:
            self._file.close()
            self._writer = self._file = None


def _leaf_count(t: pa.DataType) -> int:
    """Parquet columns under an Arrow type (a struct is one per field, a list its item's)."""
    if pa.types.is_struct(t):
        return sum(_leaf_count(t.field(i).type) for i in range(t.num_fields))
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return _leaf_count(t.value_type)
    return 1


def schema_with_metadata(schema: pa.Schema, metadata: dict[str, Any]) -> pa.Schema:
    """``schema`` with JSON key-value metadata (``datasets`` reads its ``huggingface`` key)."""
    import orjson

    return schema.with_metadata({k: orjson.dumps(v) for k, v in metadata.items()})
