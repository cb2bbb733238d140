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
import warnings
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from _kill import complete_lines

from umb import UmbError, evaluate
from umb.bench import Benchmark, Question
from umb.models import ModelOptions
from umb.run import ExecutorOptions, RunConfig, read_records, run_eval
from umb.run._log import LOCK
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


def _jobs_told(config: RunConfig) -> dict[tuple[str, str], list[str]]:
    """(system, dialogue) -> the question ids of the records ``on_job`` was told of."""
    told: dict[tuple[str, str], list[str]] = {}

    def on_job(system: str, dialogue: str, records: list[dict[str, Any]]) -> None:
        assert (system, dialogue) not in told
        told[(system, dialogue)] = sorted(r["question_id"] for r in records)

    run_eval(config, on_job=on_job)
    return told


def test_ray_tells_on_job_of_each_job_as_a_local_run_does(
    ray_address: str, demo_bench: Path, tmp_path: Path
) -> None:
    local = RunConfig(bench=demo_bench, out=tmp_path / "local", systems=SYSTEMS, limit=30)
    on_ray = replace(local, out=tmp_path / "ray", executor=ExecutorOptions(kind="ray"))
    told = _jobs_told(on_ray)
    assert told == _jobs_told(local)
    assert sum(len(ids) for ids in told.values()) == 2 * 30


def _parent(pid: int) -> int:
    # /proc/PID/stat: "pid (name) state ppid ..."; the name may hold spaces, so split after it.
    try:
        return int((Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def _mine(pid: int) -> bool:
    """Whether ``pid`` descends from this process (the session cluster's raylet is a child)."""
    while pid > 1 and pid != os.getpid():
        pid = _parent(pid)
    return pid == os.getpid()


def _lock_holders(parts: Path) -> list[int]:
    """Processes of this session holding a unit partition's lock open under ``parts``.

    A worker opens ``parts/<unit>/.lock`` when its unit starts and closes it when the unit
    ends, so the holders are exactly the workers in the middle of a unit.
    """
    prefix = str(parts.resolve()) + os.sep
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or not _mine(int(entry.name)):
            continue
        try:
            targets = [os.readlink(fd) for fd in (entry / "fd").iterdir()]
        except OSError:  # the process ended while it was read
            continue
        if any(t.startswith(prefix) and t.endswith(os.sep + LOCK) for t in targets):
            found.append(int(entry.name))
    return found


def _held_question(bench: Path) -> tuple[Question, int]:
    """A question of the run (``limit=70``) for the server to hold, and its dialogue's size."""
    questions = Benchmark.open(bench).questions[:70]
    last = [q for q in questions if q.dialogue_id == questions[-1].dialogue_id]
    held = last[1]
    assert [q.id for q in questions if held.query in q.query] == [held.id]  # the rule's match
    return held, len(last)


class DriverEnded(AssertionError):
    """The driver ended before the scripted held state was reached (a precondition, not the
    behaviour under test)."""


ATTEMPTS = 2
"""Tries at reaching the held state. In about one full suite in three on a 2-core machine the
driver ends before it, for a cause not yet found (the message names the driver's error); the
second try is made with a warning that carries the first try's cause."""


def _retry_or_raise(attempt: int, error: DriverEnded) -> None:
    if attempt == ATTEMPTS:
        raise error
    warnings.warn(f"retrying the held-unit set-up: {error}", stacklevel=2)


def _wait_for(what: str, ready: Callable[[], object], alive: Callable[[], bool]) -> None:
    # Polls for an event the code under test signals; the deadline only ends a broken run.
    deadline = time.monotonic() + 180
    while not ready():
        assert alive(), f"the run ended before {what}"
        assert time.monotonic() < deadline, f"never {what}"
        time.sleep(0.02)


def test_a_killed_worker_fails_the_unit_and_the_rerun_loses_and_repeats_nothing(
    ray_address: str, demo_bench: Path, tmp_path: Path, openai_server: OpenAIServer
) -> None:
    held, size = _held_question(demo_bench)
    for attempt in range(1, ATTEMPTS + 1):
        openai_server.reset()
        openai_server.control(default_reply='{"answerable": false, "answer": "no"}')
        # One unit of the held question's dialogue blocks on it until its worker is killed.
        openai_server.set_rules({"match": held.query, "times": 1, "latency": 600})
        config = RunConfig(
            bench=demo_bench, out=tmp_path / f"run{attempt}", systems=SYSTEMS, limit=70,
            model="openai/umb-test", options=ModelOptions(base_url=openai_server.base_url,
                                                          concurrency=1, timeout_s=900),
            executor=ExecutorOptions(kind="ray", workers=2, task_retries=0),
        )  # fmt: skip
        failure: list[BaseException] = []

        def drive(config: RunConfig = config, failure: list[BaseException] = failure) -> None:
            try:
                run_eval(config, progress=False)
            except BaseException as e:  # noqa: BLE001 - handed to the test thread
                failure.append(e)

        driver = threading.Thread(target=drive)
        driver.start()

        def driving(driver: threading.Thread = driver, failure: list = failure) -> bool:
            if driver.is_alive():
                return True
            raise DriverEnded(f"the driver ended early: {failure!r}")

        # Every other unit merged: the held unit is the one left, its worker waiting on the server.
        records = config.out / "records.jsonl"
        try:
            _wait_for(
                "the other units were merged",
                lambda records=records: len(complete_lines(records)) == 140 - size,
                driving,
            )
        except DriverEnded as e:
            driver.join(timeout=180)
            _retry_or_raise(attempt, e)
            continue
        break
    try:
        def holders() -> list[int]:
            return _lock_holders(config.out / "parts")

        _wait_for("the held unit's worker was found", lambda: len(holders()) == 1, driver.is_alive)
        assert openai_server.stats()["in_flight"] == 1
        os.kill(holders()[0], signal.SIGKILL)
    finally:
        driver.join(timeout=180)
    assert len(failure) == 1 and isinstance(failure[0], UmbError), failure
    assert "died" in str(failure[0]) and "rerun" in str(failure[0])
    before = complete_lines(config.out / "records.jsonl")
    assert len(before) == 140 - size

    outcome = run_eval(config, progress=False)  # the rule is spent: nothing is held now
    assert outcome.written == size and outcome.skipped == 140 - size
    lines = complete_lines(config.out / "records.jsonl")
    assert lines[: len(before)] == before and len(lines) == 140
    assert len(_records(config.out)) == 140
    assert outcome.results["complete"]


def test_a_killed_driver_resumes_from_the_merged_units(
    ray_address: str, demo_bench: Path, tmp_path: Path, openai_server: OpenAIServer
) -> None:
    held, size = _held_question(demo_bench)
    # Read now: joining the cluster takes what ray.init put in this process's environment.
    env = {**os.environ, "OPENAI_API_KEY": "sk-ray-test"}
    for attempt in range(1, ATTEMPTS + 1):
        openai_server.reset()
        openai_server.control(default_reply='{"answerable": false, "answer": "no"}')
        openai_server.set_rules({"match": held.query, "times": 1, "latency": 600})
        out = tmp_path / f"run{attempt}"
        command = [
            sys.executable, "-m", "umb", "eval", "--bench", str(demo_bench),
            "--system", ",".join(SYSTEMS), "--model", "openai/umb-test",
            "--base-url", openai_server.base_url, "--out", str(out), "--limit", "70",
            "--concurrency", "2", "--timeout", "900", "--no-progress", "--executor", "ray",
            "--workers", "2", "--ray-address", ray_address,
        ]  # fmt: skip
        proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

        def driving(proc: subprocess.Popen[bytes] = proc) -> bool:
            if proc.poll() is None:
                return True
            assert proc.stderr is not None
            raise DriverEnded(f"the driver exited {proc.returncode}: {proc.stderr.read()!r}")

        try:
            # The driver dies with every unit but the held one merged.
            _wait_for(
                "the other units were merged",
                lambda out=out: len(complete_lines(out / "records.jsonl")) == 140 - size,
                driving,
            )
        except DriverEnded as e:
            _retry_or_raise(attempt, e)
            continue
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        break
    try:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        assert proc.stderr is not None
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    # Its job's worker may outlive it, held by the server: end it, as Ray ends a dead job's.
    for pid in _lock_holders(out / "parts"):
        os.kill(pid, signal.SIGKILL)
    before = complete_lines(out / "records.jsonl")
    assert len(before) == 140 - size
    finish = subprocess.run(command, env=env, capture_output=True, text=True, timeout=180)
    assert finish.returncode == 0, finish.stderr
    lines = complete_lines(out / "records.jsonl")
    assert lines[: len(before)] == before and len(lines) == 140
    assert len(_records(out)) == 140
    assert f"{size} records written, {140 - size} already there" in finish.stdout
    assert not (out / "parts").exists()
