"""The benchmark check ``umb eval`` runs before its first record, cached in the run directory.

The check is ``umb validate``'s, including the sha256 of every file against the manifest, so a
run (and a resumed run) only ever sees a benchmark whose files are what its manifest, and so the
header's content hash, says. The verdict is cached per file size and mtime: a resume re-checks
only when a file changed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Final

import orjson

from umb._errors import DataError
from umb._jsonio import atomic_write_bytes, dumps_pretty
from umb.bench import BENCH_FILES, Benchmark, check

CHECK_FILE: Final = "bench-check.json"
#: Bump when validation learns a new rule, so cached verdicts are re-checked.
CHECK_VERSION: Final = 3


def _file_state(root: Path) -> dict[str, list[int]]:
    out = {}
    for name in ("manifest.json", *BENCH_FILES):
        path = root / name
        if path.exists():
            st = path.stat()
            out[name] = [st.st_size, st.st_mtime_ns]
    return out


def _cached(path: Path) -> dict[str, object]:
    try:
        data = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}  # no cache, or a broken one: check again
    return data if isinstance(data, dict) else {}


def check_benchmark(
    bench: Benchmark, run_dir: Path, progress: Callable[[int, int], None] | None = None
) -> None:
    """Refuse a benchmark that ``umb validate`` refuses, with its first problem.

    ``progress(done, total)`` is called per dialogue checked (not at all when the cached
    verdict stands).

    A generated benchmark without ``world.json`` is run: what needs the world is skipped
    (the memory metrics say so, and ``umb eval`` prints it).

    Raises:
        DataError: Naming the benchmark and its first problem (``file:line: reason``).
    """
    cache = run_dir / CHECK_FILE
    state = _file_state(bench.root)
    previous = _cached(cache)
    if previous.get("version") == CHECK_VERSION and previous.get("files") == state:
        return
    problems = check(bench.root, limit=1, progress=progress, need_world=False)
    if problems.items:
        raise DataError(
            str(bench.root),
            None,
            f"not a valid benchmark: {problems.items[0]} ({problems.total} problem(s); "
            f"`umb validate {bench.root}` lists them)",
        )
    atomic_write_bytes(cache, dumps_pretty({"version": CHECK_VERSION, "files": state}))
