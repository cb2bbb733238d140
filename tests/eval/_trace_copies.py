"""Trace files made from a real run's trace for the readers' edge cases."""

from __future__ import annotations

import gzip
import json
from pathlib import Path


def with_a_retried_question(trace: Path, copy: Path) -> str:
    """Write to ``copy`` the (compressed) ``trace`` plus a second, committed attempt of its first
    question scope, as a resumed run appends it; returns that scope."""
    lines = gzip.decompress(trace.read_bytes()).splitlines(keepends=True)
    scope = next(json.loads(x)["scope"] for x in lines if b'"kind":"question"' in x)
    again = []
    for line in lines:
        rec = json.loads(line)
        if rec.get("scope") == scope or str(rec.get("id", "")).startswith(f"{scope}/"):
            again.append(json.dumps({**rec, "a": 2}).encode() + b"\n")
    copy.write_bytes(b"".join(lines + again))
    return scope
