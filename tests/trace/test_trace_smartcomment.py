"""smartcomment itself loads our export: ``ExecNetwork.import_graph`` + ``filter_by_operation``.

smartcomment needs Python >= 3.12, so the check runs in a separate virtual environment made with
pyenv's 3.12 (or ``UMB_PYTHON312``) and cached under pytest's cache directory. The test is skipped,
with the reason, when no Python 3.12 is found or smartcomment cannot be installed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from umb.interop.memtracebench import export_memtrace
from umb.trace import Trace, Tracer, operation, read_trace

CHECK = r"""
import json, sys
from smartcomment.runtime import ExecNetwork

report = []
for name in sys.argv[1:]:
    data = json.load(open(name))
    graph = ExecNetwork.import_graph(data)
    want = {}
    for e in data["data"]["edges"]:
        want.setdefault(e["op_id"], set()).add(e["edge_id"])
    per_op = {}
    for op in data["data"]["operations"]:
        sub = graph.filter_by_operation(op["op_id"])
        got = {e.edge_id for e in sub.edges}
        per_op[op["op_id"]] = {
            "same_edges": got == want.get(op["op_id"], set()),
            "edges": len(got),
            "ops": [o.op_id for o in sub.ops],
        }
    again = graph.export_graph()["data"]
    report.append({
        "file": name,
        "per_op": per_op,
        "nodes": [len(again["nodes"]), len(data["data"]["nodes"])],
        "edges": [len(again["edges"]), len(data["data"]["edges"])],
        "operations": [len(again["operations"]), len(data["data"]["operations"])],
    })
print(json.dumps(report))
"""


def _python312() -> str | None:
    explicit = os.environ.get("UMB_PYTHON312")
    if explicit:
        return explicit
    pyenv = shutil.which("pyenv")
    if pyenv:
        try:
            root = subprocess.run(
                [pyenv, "root"], capture_output=True, text=True, timeout=30, check=True
            ).stdout.strip()
        except (subprocess.SubprocessError, OSError):
            root = ""
        found = sorted(Path(root, "versions").glob("3.12*/bin/python3.12")) if root else []
        if found:
            return str(found[-1])
    return shutil.which("python3.12")


def _venv_python(cache_dir: Path, base: str) -> Path:
    vpy = cache_dir / "venv" / "bin" / "python"
    probe = [str(vpy), "-c", "import smartcomment.runtime"]
    if vpy.exists() and subprocess.run(probe, capture_output=True, timeout=60).returncode == 0:
        return vpy
    shutil.rmtree(cache_dir / "venv", ignore_errors=True)
    made = subprocess.run(
        [base, "-m", "venv", str(cache_dir / "venv")], capture_output=True, text=True, timeout=120
    )
    if made.returncode != 0:
        pytest.skip(f"cannot create a Python 3.12 venv: {made.stderr.strip()[-300:]}")
    pip = subprocess.run(
        [str(vpy), "-m", "pip", "install", "-q", "smartcomment"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if pip.returncode != 0:
        pytest.skip(f"smartcomment is not installable here: {pip.stderr.strip()[-300:]}")
    return vpy


@pytest.fixture(scope="module")
def smartcomment_python(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    base = _python312()
    if base is None or shutil.which(base) is None:
        pytest.skip("no Python 3.12 found (pyenv versions or UMB_PYTHON312); smartcomment needs it")
    cache = getattr(request.config, "cache", None)  # absent under -p no:cacheprovider
    where = (
        cache.mkdir("umb-smartcomment-py312")
        if cache is not None
        else tmp_path_factory.mktemp("umb-smartcomment-py312")
    )
    return _venv_python(where, base)


def _edge_cases(path: Path) -> Trace:
    """A dialogue whose ops cover the sentinel cases: failed before writing, no inputs at all."""
    with Tracer(path) as tr, tr.activate(), tr.dialogue("D0002"):
        with pytest.raises(TimeoutError), operation("extract", "extraction") as op:
            op.read("turn:D0002:S001:T0001", "hello")
            raise TimeoutError("endpoint")
        with operation("seed", "initialization") as op:
            op.write("prompt:extract", "Extract the facts.")
        with operation("noop"):
            pass
    return read_trace(path)


def test_smartcomment_loads_our_export(
    smartcomment_python: Path, sample: Trace, tmp_path: Path
) -> None:
    files = export_memtrace(sample, tmp_path / "out", split="mem0")
    files += export_memtrace(_edge_cases(tmp_path / "edge.jsonl"), tmp_path / "out", split="mem0")
    proc = subprocess.run(
        [str(smartcomment_python), "-c", CHECK, *map(str, files)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(report) == 2
    for graph in report:
        assert graph["nodes"][0] == graph["nodes"][1]
        assert graph["edges"][0] == graph["edges"][1]
        assert graph["operations"][0] == graph["operations"][1]
        for op_id, got in graph["per_op"].items():
            assert got["same_edges"] and got["edges"] >= 1, (graph["file"], op_id)
            assert got["ops"] == [op_id]
    assert set(report[0]["per_op"]) == {o.id for o in sample.ops}
