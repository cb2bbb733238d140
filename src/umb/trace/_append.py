"""Append whole trace files to another: how partitions written apart become one trace.

A partition (one unit of work recorded by another process) is a trace file of its own, with its
own opens, ``run<N>`` scopes and sequence numbers from 1. Appended, it reads as later opens of
the target: open numbers, run scopes and ``seq`` are shifted past the target's, and a scope the
target already holds (a unit merged twice after a kill) becomes a later attempt of it, so the
reader's rule, the latest committed attempt, still sees every operation once.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from umb.trace._file import dump_record, gzip_member, is_compressed, scan_trace
from umb.trace._resume import fill_op


class TraceAppender:
    """Appends partitions to one trace file; scans the target once, then keeps count.

    Args:
        path: The target trace file (created by the first append if missing; a torn last line
            left by a killed writer is cut off first). A ``.gz`` target is appended to as one
            gzip member per append.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._opens = 0
        self._seq = 0
        self._attempts: dict[str, int] = {}
        self._values: set[str] = set()
        if path.exists() and path.stat().st_size:
            raw = scan_trace(path)
            for _, rec in raw.records:
                self._count(rec)
            if raw.torn_tail:
                with path.open("r+b") as f:
                    f.truncate(raw.valid_bytes)

    def _count(self, rec: dict[str, Any]) -> None:
        rec = _filled(rec)
        t = rec["t"]
        if t == "open":
            self._opens = max(self._opens, int(rec.get("open", 0)))
        elif t == "op":
            self._seq = max(self._seq, int(rec["seq"]))
        elif t == "val":
            self._values.add(rec["h"])
        elif t == "forget":  # stored again when next used, as the tracer does
            self._values.difference_update(rec.get("h") or ())
        if t in ("op", "begin") and "a" in rec:
            key = rec["scope"]
            self._attempts[key] = max(self._attempts.get(key, 0), int(rec["a"]))

    def append(self, records: list[dict[str, Any]]) -> int:
        """Append the records of another trace file (:func:`trace_records`); returns how many."""
        records = [_filled(r) for r in records]
        runs = {r["scope"] for r in records if r["t"] == "begin" and r.get("kind") == "run"}
        opens = self._opens
        renamed: dict[str, str] = {}
        for rec in records:
            if rec["t"] == "open":
                renamed[f"run{rec['open']}"] = f"run{rec['open'] + opens}"
        shift = {
            key: self._attempts.get(key, 0)
            for key in {r["scope"] for r in records if "scope" in r}
            if key not in runs
        }
        shifted = [_shifted(r, runs, renamed, shift, opens, self._seq) for r in records]
        out: list[bytes] = []
        for rec in shifted:  # in order: a forget lets a value be stored again after it
            if rec["t"] == "val" and rec["h"] in self._values:
                continue
            out.append(dump_record(rec))
            self._count(rec)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            data = b"".join(out)
            view = memoryview(gzip_member(data) if is_compressed(self.path) else data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        return len(out)


def _filled(rec: dict[str, Any]) -> dict[str, Any]:
    # Format 2 op records leave their scope and attempt to the reader; shifting needs them.
    if rec["t"] != "op":
        return rec
    rec = dict(rec)
    fill_op(rec)
    return rec


def _shifted(
    rec: dict[str, Any],
    runs: set[str],
    renamed: dict[str, str],
    shift: dict[str, int],
    opens: int,
    seq: int,
) -> dict[str, Any]:
    rec = dict(rec)
    t = rec["t"]
    if t == "open":
        rec["open"] = rec["open"] + opens
    scope = rec.get("scope")
    if isinstance(scope, str):
        if scope in runs:
            rec["scope"] = renamed.get(scope, scope)
        elif "a" in rec:
            rec["a"] = rec["a"] + shift.get(scope, 0)
    if t == "begin" and rec.get("parent") in runs:
        rec["parent"] = renamed.get(rec["parent"], rec["parent"])
    if t == "op":
        rec["seq"] = rec["seq"] + seq
        rec["id"] = _renamed_op(rec["id"], runs, renamed)
        if "parent" in rec:
            rec["parent"] = _renamed_op(rec["parent"], runs, renamed)
    return rec


def _renamed_op(op_id: Any, runs: set[str], renamed: dict[str, str]) -> Any:
    if not isinstance(op_id, str):
        return op_id
    scope, sep, n = op_id.rpartition("/")
    return f"{renamed[scope]}{sep}{n}" if sep and scope in runs and scope in renamed else op_id


def trace_records(path: Path) -> list[dict[str, Any]]:
    """Every complete record of a trace file, in file order (a torn last line is skipped)."""
    return [rec for _, rec in scan_trace(path).records]
