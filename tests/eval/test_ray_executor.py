"""``--executor ray`` on a local Ray cluster: the same records as a local run, and kills survived.

One cluster (2 CPUs, the session's ``ray_address`` fixture) serves every test: the in-process
runs use it as this process's cluster, and the command-line drivers join it by address.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from _kill import complete_lines, kill_after

from umb import evaluate
from umb._errors import UmbError
from umb.models import ModelOptions
from umb.run import ExecutorOptions, RunConfig, read_records, run_eval
from umb.testing import OpenAIServer

ray = pytest.importorskip("ray", reason="the ray extra is not installed")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL and /proc")

SYSTEMS = ("no_context", "rag_bm25")
TIMING = {"latency_s", "retrieve_latency_s", "write_latency_s"}


def _records(run: Path) -> dict[tuple[str, str], dict[str, Any]]:
    out = {}
    for r in read_records(run / "records.jsonl"):  # strict: a repeated key raises
        out[(r["system"], r["question_id"])] = {k: v for k, v in r.items() if k not in TIMING}
    return out


def _scores(run: Path) -> list[Any]:
    results = json.loads((run / "results.json").read_text())
    return [
        {k: v for k, v in group.items() if k not in ("usage", "latency_s")}
        for group in results["groups"]
    ]


def test_ray_gives_the_records_scores_and_attributions_of_a_local_run(
    ray_address: str, demo_bench: Path, tmp_path: Path
) -> None:
    local = RunConfig(bench=demo_bench, out=tmp_path / "local", systems=SYSTEMS, limit=70)
    on_ray = replace(
        local, out=tmp_path / "ray", executor=ExecutorOptions(kind="ray", workers=2)
    )
    evaluate(local)
    outcome = evaluate(on_ray)
    assert outcome.written == 2 * 70 and not (tmp_path / "ray" / "parts").exists()
    assert _records(tmp_path / "ray") == _records(tmp_path / "local")
    assert _scores(tmp_path / "ray") == _scores(tmp_path / "local")
    local_usage = json.loads((tmp_path / "local" / "results.json").read_text())["usage"]
    ray_usage = json.loads((tmp_path / "ray" / "results.json").read_text())["usage"]
    assert ray_usage == local_usage and ray_usage["answerer"]["requests"] == 140

    def attributions(run: Path) -> list[str]:
        return sorted((run / "attributions.jsonl").read_text().splitlines())

    assert attributions(tmp_path / "ray") == attributions(tmp_path / "local")
    summary = json.loads((tmp_path / "ray" / "attribution_summary.json").read_text())
    assert summary == json.loads((tmp_path / "local" / "attribution_summary.json").read_text())


def _parent(pid: int) -> int:
    # /proc/PID/stat: "pid (name) state ppid ..."; the name may hold spaces, so split after it.
    try:
        return int((Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def _unit_workers() -> list[int]:
    """Workers of this session's cluster (its raylet is a child of this process) running a unit.

    Ray names a worker's process after the task it runs (``ray::run_unit``); other clusters on
    the machine are left alone.
    """
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if not cmdline.startswith(b"ray::run_unit"):
            continue
        pid = int(entry.name)
        while pid > 1 and pid != os.getpid():
            pid = _parent(pid)
        if pid == os.getpid():
            found.append(int(entry.name))
    return found


def test_a_killed_worker_fails_the_unit_and_the_rerun_loses_and_repeats_nothing(
    ray_address: str, demo_bench: Path, tmp_path: Path, openai_server: OpenAIServer
) -> None:
    openai_server.control(latency=0.03, default_reply='{"answerable": false, "answer": "no"}')
    config = RunConfig(
        bench=demo_bench, out=tmp_path / "run", systems=SYSTEMS, limit=70,
        model="openai/umb-test", options=ModelOptions(base_url=openai_server.base_url,
                                                      concurrency=1),
        executor=ExecutorOptions(kind="ray", workers=2, task_retries=0),
    )  # fmt: skip
    failure: list[BaseException] = []

    def drive() -> None:
        try:
            run_eval(config, progress=False)
        except BaseException as e:  # noqa: BLE001 - handed to the test thread
            failure.append(e)

    driver = threading.Thread(target=drive)
    driver.start()
    deadline = time.monotonic() + 120
    killed = None
    while killed is None and time.monotonic() < deadline and driver.is_alive():
        workers = _unit_workers()
        # Kill once the first units are merged, so the kill lands in the middle of the run.
        if workers and len(complete_lines(config.out / "records.jsonl")) >= 17:
            killed = workers[0]
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.02)
    driver.join(timeout=120)
    assert killed is not None, "no unit was running to kill"
    assert len(failure) == 1 and isinstance(failure[0], UmbError), failure
    assert "died" in str(failure[0]) and "rerun" in str(failure[0])
    before = complete_lines(config.out / "records.jsonl")
    assert 17 <= len(before) < 140

    outcome = run_eval(config, progress=False)
    assert outcome.written == 140 - len(before) and outcome.skipped == len(before)
    lines = complete_lines(config.out / "records.jsonl")
    assert lines[: len(before)] == before and len(lines) == 140
    assert len(_records(config.out)) == 140
    assert outcome.results["complete"]


def test_a_killed_driver_resumes_from_the_merged_units(
    ray_address: str, demo_bench: Path, tmp_path: Path, openai_server: OpenAIServer
) -> None:
    openai_server.control(latency=0.02, default_reply='{"answerable": false, "answer": "no"}')
    out = tmp_path / "run"
    command = [
        sys.executable, "-m", "umb", "eval", "--bench", str(demo_bench),
        "--system", ",".join(SYSTEMS), "--model", "openai/umb-test",
        "--base-url", openai_server.base_url, "--out", str(out), "--limit", "70",
        "--concurrency", "2", "--no-progress", "--executor", "ray", "--workers", "2",
        "--ray-address", ray_address,
    ]  # fmt: skip
    # Read now: joining the cluster takes what ray.init put in this process's environment.
    env = {**os.environ, "OPENAI_API_KEY": "sk-ray-test"}
    before = kill_after(command, out / "records.jsonl", 17, env)
    assert 17 <= len(before) < 140
    finish = subprocess.run(command, env=env, capture_output=True, text=True, timeout=180)
    assert finish.returncode == 0, finish.stderr
    lines = complete_lines(out / "records.jsonl")
    assert lines[: len(before)] == before and len(lines) == 140
    assert len(_records(out)) == 140
    assert f"{140 - len(before)} records written, {len(before)} already there" in finish.stdout
    assert not (out / "parts").exists()

