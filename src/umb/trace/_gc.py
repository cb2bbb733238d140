"""Pausing the cyclic garbage collector while a large object graph is built.

Reading a trace makes millions of small objects (records, operations, tuples) that live on:
every full collection walks all of them again, and on a long trace those collections took half
the reading time. Nothing built there is cyclic, so reference counting frees what is dropped;
the collector runs again when the pause ends.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Disable the cyclic garbage collector inside the block (re-entrant; restores its state)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
