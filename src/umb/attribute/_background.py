"""Attribution and the memory metrics of a traced run, made while it runs, in a second process.

``umb eval`` starts this worker beside the run (:class:`BackgroundAnalysis`). It follows each
system's trace file as it grows (:class:`~umb.trace._split.TraceTail`), measures every dialogue
whose scopes have all ended, and attributes that dialogue's failed questions once the runner
says the job is done (it sends the job's records). When the run ends, the worker reads what is
left, attributes what no job announced (the records of an earlier, resumed invocation, a second
reading of a dialogue recorded again), and writes the same files ``umb attribute`` and ``umb
memory-metrics`` write. On another core the work then costs the run only its last dialogues.

Protocol, JSON lines: on stdin the settings (``run``, ``bench``, ``seed``), then one
``{"job": [system, dialogue], "failed": [records]}`` per finished job, then ``{"finish": true}``
once ``results.json`` is written; on stdout ``{"attributed": k, "total": n}`` while the last
part runs, and last ``{"ok": true}`` or ``{"error": "..."}``. A closed stdin without ``finish``
(the run was stopped) ends the worker without writing anything.
"""

from __future__ import annotations

import contextlib
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import orjson

from umb._errors import UmbError
from umb.attribute._dialogues import DialogueSource
from umb.attribute._memory_metrics_run import MemoryMetricsRun
from umb.attribute._run import (
    DialogueAttributor,
    _latest,
    failed,
    failed_by_dialogue,
    finish_attribution,
)
from umb.bench import Dialogue
from umb.run._capture import RUN_LOG
from umb.run._log import HEADER, RECORDS, read_records
from umb.run._traces import trace_path
from umb.trace import BenchmarkTurns, DialogueTrace, iter_dialogue_traces, read_dialogues
from umb.trace._gc import paused_gc
from umb.trace._split import DialogueSplitter, TraceTail

_POLL_S = 0.05
_READY_MAX = 256
"""Dialogues measured but not yet announced by the runner that the worker keeps built; beyond
that the oldest is dropped and attributed by a second reading at the end."""

Key = tuple[str, str]


class _Follow:
    """One system's trace being followed: its tail, the dialogues in it, the benchmark's."""

    def __init__(self, system: str, path: Path, source: DialogueSource) -> None:
        self.system = system
        self.path = path
        self.tail = TraceTail(path)
        self.split = DialogueSplitter(path)
        self.source = source

    def pair(self, dt: DialogueTrace) -> tuple[DialogueTrace, list[Dialogue]]:
        dialogues = [d for did in dt.dialogue_ids if (d := self.source.get(did)) is not None]
        dt.trace.inputs = BenchmarkTurns.of(dialogues)
        return dt, dialogues

    def take(self, did: str) -> tuple[DialogueTrace, list[Dialogue]]:
        with paused_gc():
            return self.pair(DialogueTrace((did,), self.split.take(did)))


class _Worker:
    def __init__(self, run: Path, bench: Path, seed: int, emit: Any) -> None:
        self.run = run
        self.bench = bench
        self.seed = seed
        self.emit = emit
        header = orjson.loads((run / HEADER).read_bytes())  # written before the first job
        self.systems = [str(s) for s in header.get("systems") or []]
        self.attributor = DialogueAttributor(bench, None)
        self.metrics: MemoryMetricsRun | None = None
        self.follow: dict[str, _Follow] = {}
        self.jobs: dict[Key, list[dict[str, Any]]] = {}
        self.ready: dict[Key, tuple[DialogueTrace, list[Dialogue]]] = {}

    def run_until_finished(self, commands: queue.Queue[dict[str, Any] | None]) -> bool:
        """Follow the traces until ``finish`` (True) or a closed stdin (False)."""
        finishing = False
        while True:
            while True:
                try:
                    cmd = commands.get_nowait()
                except queue.Empty:
                    break
                if cmd is None:
                    return False
                if cmd.get("finish"):
                    finishing = True
                elif "job" in cmd:
                    system, did = cmd["job"]
                    self._announced((str(system), str(did)), list(cmd.get("failed") or ()))
            moved = self._poll()
            if finishing and not moved:
                return True
            if not moved:
                time.sleep(_POLL_S)

    def _announced(self, key: Key, failed_records: list[dict[str, Any]]) -> None:
        got = self.ready.pop(key, None)
        if got is not None:
            self.attributor.attribute(failed_records, got[0].trace, got[1])
        else:
            self.jobs[key] = failed_records

    def _poll(self) -> bool:
        moved = False
        for system in self.systems:
            if system not in self.follow:
                path = trace_path(self.run, system)
                if not path.exists():
                    continue
                source = DialogueSource(self.attributor.bench, None)
                self.follow[system] = _Follow(system, path, source)
            f = self.follow[system]
            for lineno, rec in f.tail.read():
                moved = True
                done = f.split.feed(lineno, rec)
                if done is not None:
                    self._complete(f, *f.take(done))
        return moved

    def _complete(self, f: _Follow, dt: DialogueTrace, dialogues: list[Dialogue]) -> None:
        if self.metrics is None:
            self.metrics = MemoryMetricsRun(self.run, bench=self.bench, seed=self.seed)
        self.metrics.add_dialogue(f.system, dt, dialogues)
        for did in dt.dialogue_ids:
            key = (f.system, did)
            todo = self.jobs.pop(key, None)
            if todo is not None:
                self.attributor.attribute(todo, dt.trace, dialogues)
            elif not dt.again:
                self.ready[key] = (dt, dialogues)
                if len(self.ready) > _READY_MAX:
                    del self.ready[next(iter(self.ready))]

    def finish(self) -> None:
        """Read what is left, attribute what no job announced, write the files."""
        for f in self.follow.values():
            f.tail.close()
            for did in f.split.unfinished():
                self._complete(f, *f.take(did))
            if f.split.again:
                again = sorted(f.split.again)
                with paused_gc():
                    trace = read_dialogues(f.path, again)
                self._complete(f, *f.pair(DialogueTrace(tuple(again), trace, again=True)))
        self.ready.clear()
        records = _latest(read_records(self.run / RECORDS))
        todo = [r for r in records if failed(r)]
        latest = {(str(r["system"]), str(r["question_id"])) for r in todo}
        found = self.attributor.found
        for key in [k for k in found if k not in latest]:
            del found[key]
        self.emit({"attributed": len(found), "total": len(todo)})
        rest = [r for r in todo if (str(r["system"]), str(r["question_id"])) not in found]
        missing = failed_by_dialogue(rest)
        for system, followed in self.follow.items():
            # What no job announced (an earlier invocation's): one more pass over the trace.
            if not any(s == system for s, _ in missing):
                continue
            followed.source.restart()
            keep = {did for s, did in missing if s == system}
            for dt in iter_dialogue_traces(followed.path, keep=keep.__contains__):
                dt, dialogues = followed.pair(dt)
                mine = [r for did in dt.dialogue_ids for r in missing.get((system, did), ())]
                self.attributor.attribute(mine, dt.trace, dialogues)
                self.emit({"attributed": len(found), "total": len(todo)})
        self.attributor.finish(todo)
        finish_attribution(self.run, records, found)
        if self.metrics is None:
            self.metrics = MemoryMetricsRun(self.run, bench=self.bench, seed=self.seed)
        self.metrics.finish()


def main() -> None:
    """The worker process: ``python -m umb.attribute._background`` (settings on stdin)."""
    out = sys.stdout.buffer

    def emit(msg: dict[str, Any]) -> None:
        out.write(orjson.dumps(msg) + b"\n")
        out.flush()

    stdin = sys.stdin.buffer
    settings = orjson.loads(stdin.readline())
    commands: queue.Queue[dict[str, Any] | None] = queue.Queue()

    def read_commands() -> None:
        for line in stdin:
            if line.strip():
                commands.put(orjson.loads(line))
        commands.put(None)  # the run is gone

    threading.Thread(target=read_commands, daemon=True).start()
    try:
        worker = _Worker(Path(settings["run"]), Path(settings["bench"]), settings["seed"], emit)
        if worker.run_until_finished(commands):
            worker.finish()
            emit({"ok": True})
    except (UmbError, OSError, ValueError, KeyError) as e:
        emit({"error": f"{type(e).__name__}: {e}"})
        sys.exit(1)


class BackgroundAnalysis:
    """The run's side of the worker: starts it at the first finished job (the run directory
    and its header exist by then), tells it of each job, waits for its files.

    Args:
        run: The run directory.
        bench: The benchmark directory.
        seed: Bootstrap seed of the memory metrics' intervals.
    """

    def __init__(self, run: Path, bench: Path, seed: int) -> None:
        self.run = run
        self.settings = {"run": str(run), "bench": str(bench), "seed": seed}
        self.error: str | None = None
        """Why the worker did not finish its work, when it did not."""
        self._proc: subprocess.Popen[bytes] | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        # The worker's own messages (a crash's traceback) go where other libraries' do.
        with (self.run / RUN_LOG).open("ab") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "umb.attribute._background"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
            )  # fmt: skip
        self._proc = proc
        self._send(self.settings)
        return proc

    def _send(self, msg: dict[str, Any]) -> None:
        proc = self._proc or self._start()
        stdin: IO[bytes] | None = proc.stdin
        if self.error is not None or stdin is None:
            return
        try:
            stdin.write(orjson.dumps(msg, default=str) + b"\n")
            stdin.flush()
        except OSError as e:  # the worker is gone; finish() says why
            self.error = f"the background worker stopped ({e.strerror or e})"

    def job_done(self, system: str, dialogue_id: str, records: Sequence[dict[str, Any]]) -> None:
        """Tell the worker a job has finished (:data:`umb.run.OnJob`)."""
        self._send({"job": [system, dialogue_id], "failed": [r for r in records if failed(r)]})

    @property
    def started(self) -> bool:
        """Whether a job has finished, so the worker runs."""
        return self._proc is not None

    def finish(self, bar: Any = None) -> bool:
        """Let the worker write its files and wait for it; True when it did (False, with no
        :attr:`error`, when no job finished in this run). ``bar`` (a tqdm bar, or None)
        follows the questions it attributes at the end."""
        proc = self._proc
        if proc is None:
            return False
        self._send({"finish": True})
        if proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()
        ok = False
        assert proc.stdout is not None
        for line in proc.stdout:
            msg = orjson.loads(line)
            if "total" in msg and bar is not None:
                bar.total = msg["total"]
                bar.update(msg["attributed"] - bar.n)
            if msg.get("ok"):
                ok = True
            elif "error" in msg:
                self.error = str(msg["error"])
        code = proc.wait()
        if not ok and self.error is None:
            self.error = f"the background worker exited with status {code}"
        return ok

    def abandon(self) -> None:
        """Stop the worker without letting it write anything (the run did not finish)."""
        proc = self._proc
        if proc is None:
            return
        if proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


if __name__ == "__main__":
    main()
