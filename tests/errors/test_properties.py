"""Property tests: mutated benchmarks, run directories and peer files end in exit 0 or exit 2
with one line, never a traceback, within a time bound."""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis", reason="needs the dev extra (hypothesis)")

from _umbcli import umb  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from umb import export_benchmark  # noqa: E402
from umb.run import RunConfig, run_eval  # noqa: E402

#: Wall-clock bound of one command on the demo benchmark (generous: CI machines are shared).
BOUND_S = 60.0

SETTINGS = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,  # the same examples on every machine: a failure reproduces
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)  # fmt: skip


def _paths(obj: Any, prefix: tuple[Any, ...] = (), depth: int = 5) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if depth == 0:
        return
    if isinstance(obj, dict):
        items = list(obj.items())
    elif isinstance(obj, list):
        items = list(enumerate(obj))
    else:
        items = []
    for key, value in items[:6]:
        yield from _paths(value, (*prefix, key), depth - 1)


def _mutate(obj: Any, data: st.DataObject) -> Any:
    """Replace or delete the value at a drawn path of ``obj``."""
    paths = list(_paths(obj))
    path = data.draw(st.sampled_from(paths))
    if not path:
        return data.draw(JSON_VALUES)
    parent = obj
    for key in path[:-1]:
        parent = parent[key]
    if isinstance(parent, dict) and data.draw(st.booleans()):
        del parent[path[-1]]
    else:
        parent[path[-1]] = data.draw(JSON_VALUES)
    return obj


def _mutate_file(path: Path, data: st.DataObject) -> None:
    raw = path.read_bytes()
    how = data.draw(st.sampled_from(["value", "truncate", "bytes"]))
    if how == "truncate":
        path.write_bytes(raw[: data.draw(st.integers(0, len(raw)))])
    elif how == "bytes":
        at = data.draw(st.integers(0, len(raw)))
        path.write_bytes(raw[:at] + data.draw(st.binary(min_size=1, max_size=8)) + raw[at:])
    elif path.suffix == ".jsonl":
        rows = raw.decode().splitlines()
        i = data.draw(st.integers(0, max(len(rows) - 1, 0)))
        if rows:
            rows[i] = json.dumps(_mutate(json.loads(rows[i]), data))
        path.write_text("".join(r + "\n" for r in rows))
    else:
        path.write_text(json.dumps(_mutate(json.loads(raw), data)))


@contextmanager
def _copy(src: Path) -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as tmp:
        dst = Path(tmp) / src.name
        if src.is_dir():
            shutil.copytree(src, dst)
        else:
            shutil.copy(src, dst)
        yield dst


def _clean(capsys: pytest.CaptureFixture[str], *args: str | Path, one_line: bool = True) -> int:
    started = time.perf_counter()
    code, _, err = umb(capsys, *args)
    assert time.perf_counter() - started < BOUND_S, args
    assert code in (0, 2), err
    assert "Traceback" not in err, err
    if code == 2 and one_line:
        assert len(err.strip().splitlines()) == 1 and err.startswith("umb: error: "), err
    return code


def _eval(capsys: pytest.CaptureFixture[str], bench: Path, out: Path) -> int:
    return _clean(capsys, "eval", "--bench", bench, "--out", out, "--system", "no_context",
                  "--limit", "4", "--no-progress")  # fmt: skip


BENCH_FILES = ["questions.jsonl", "dialogues.jsonl", "facts.jsonl", "manifest.json", "world.json"]


@SETTINGS
@given(name=st.sampled_from(BENCH_FILES), data=st.data())
def test_a_mutated_benchmark_is_refused_or_accepted_cleanly(
    name: str, data: st.DataObject, demo_bench: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with _copy(demo_bench) as bench:
        _mutate_file(bench / name, data)
        valid = _clean(capsys, "validate", bench, one_line=False) == 0
        evaluated = _eval(capsys, bench, bench.parent / "run") == 0
        assert evaluated == valid  # eval refuses exactly what validate refuses


@pytest.fixture(scope="module")
def a_run(demo_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run") / "run"
    run_eval(RunConfig(bench=demo_bench, out=out, systems=("no_context",), limit=4), progress=False)
    return out


RUN_FILES = ["header.json", "records.jsonl", "bench-check.json", "invocations.jsonl"]


@SETTINGS
@given(name=st.sampled_from(RUN_FILES), data=st.data())
def test_a_mutated_run_directory_resumes_or_is_refused_cleanly(
    name: str, data: st.DataObject, a_run: Path, demo_bench: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    with _copy(a_run) as run:
        _mutate_file(run / name, data)
        _eval(capsys, demo_bench, run)
        _clean(capsys, "report", run, "--out", run.parent / "report")


@pytest.fixture(scope="module")
def locomo_file(demo_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("peer") / "locomo.json"
    export_benchmark(demo_bench, "locomo", path)
    path.write_text(json.dumps(json.loads(path.read_text())[:2]))  # two samples: fast
    return path


@SETTINGS
@given(data=st.data())
def test_a_mutated_peer_file_imports_or_is_refused_cleanly(
    data: st.DataObject, locomo_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with _copy(locomo_file) as path:
        _mutate_file(path, data)
        out = path.parent / "bench"
        if _clean(capsys, "import", "locomo", path, "--out", out) == 0:
            _clean(capsys, "validate", out, one_line=False)
