"""The second process of a traced ``umb eval``: attribution and the memory metrics made while
the run runs.

``umb eval`` starts it beside the run (:class:`umb.attribute._background.BackgroundAnalysis`).
It follows each system's trace file as it grows (:class:`~umb.trace._tail.TraceTail`),
measures every dialogue whose scopes have all ended, and attributes that dialogue's failed
questions once the runner says the job is done (it sends the job's records). When the run
ends, the worker reads what is left, attributes what no job announced (the records of an
earlier, resumed invocation, a second reading of a dialogue recorded again), and writes the
same files ``umb attribute`` and ``umb memory-metrics`` write. On another core the work then
costs the run only its last dialogues.

Protocol, JSON lines: on stdin the settings (``run``, ``bench``, ``seed``, and the ``plugins``
modules to import from ``path``: what the run's process registered by import), then one
``{"job": [system, dialogue], "failed": [records]}`` per finished job, then ``{"finish": true}``
once every job is done (the run writes ``results.json`` after the worker's files, with their
memory metrics); on stdout ``{"phase": "..."}`` and ``{"attributed": k,
"total": n}`` while the last part runs, and last ``{"ok": true}`` or ``{"error": "..."}``.
A closed stdin without ``finish`` (the run was stopped) ends the worker without writing
anything.
"""

from __future__ import annotations

import importlib
import os
import queue
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any

import orjson

from umb.attribute._attributor import DialogueAttributor, failed_by_dialogue
from umb.attribute._dialogues import DialogueSource, Pair, dialogue_pairs
from umb.attribute._files import failed, kept_part
from umb.attribute._memory_metrics_run import MemoryMetricsRun
from umb.attribute._run import finish_attribution
from umb.bench import Dialogue
from umb.run import RunDirectory, read_header, trace_path
from umb.trace import DialogueSplitter, DialogueTrace, TraceTail, paused_gc, read_dialogues

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

    def take(self, did: str) -> Pair:
        with paused_gc():
            return self.source.pair(DialogueTrace((did,), self.split.take(did)))


class _Worker:
    def __init__(self, run: Path, bench: Path, seed: int, emit: Any) -> None:
        self.run = run
        self.bench = bench
        self.seed = seed
        self.emit = emit
        self.systems = read_header(run).systems  # written before the first job
        self.attributor = DialogueAttributor(bench, None)
        self.metrics: MemoryMetricsRun | None = None
        self.follow: dict[str, _Follow] = {}
        self.jobs: dict[Key, list[dict[str, Any]]] = {}
        self.ready: dict[Key, Pair] = {}

    def run_until_finished(self, commands: queue.Queue[dict[str, Any] | None]) -> bool:
        """Follow the traces until ``finish`` (True) or a closed stdin (False)."""
        finishing = False
        while True:
            while True:
                try:
                    cmd = commands.get_nowait()
                except queue.Empty:
                    break
                if cmd is None:  # stdin closed: after "finish", as it should; else the run is gone
                    if not finishing:
                        return False
                    break
                if cmd.get("finish"):
                    finishing = True
                    self.emit({"phase": "the run's last records"})
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
            for did in f.split.again:
                # Recorded again (a resumed run): what was built of it is out of date.
                self.ready.pop((system, did), None)
        return moved

    def _complete(self, f: _Follow, dt: DialogueTrace, dialogues: list[Dialogue]) -> None:
        if self.metrics is None:
            self.metrics = MemoryMetricsRun(self.run, bench=self.attributor.bench, seed=self.seed)
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
        self.emit({"phase": "the last dialogues"})
        records = RunDirectory(self.run).records(keep=kept_part)
        todo = [r for r in records if failed(r)]
        by_dialogue = failed_by_dialogue(todo)
        for f in self.follow.values():
            f.tail.close()
            for did in f.split.unfinished():
                self._complete(f, *f.take(did))
                self.emit({"phase": f"the last dialogues ({f.system} {did})"})
            if f.split.again:
                # Read again whole: every failed question of these dialogues, whichever run
                # asked it, is attributed on what the trace now keeps of them.
                again = sorted(f.split.again)
                with paused_gc():
                    trace = read_dialogues(f.path, again)
                dt, dialogues = f.source.pair(DialogueTrace(tuple(again), trace, again=True))
                self._complete(f, dt, dialogues)
                mine = [r for did in again for r in by_dialogue.get((f.system, did), ())]
                self.attributor.attribute(mine, dt.trace, dialogues)
        self.ready.clear()
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
            keep = {did for s, did in missing if s == system}
            for dt, dialogues in dialogue_pairs(
                followed.path, followed.source, keep=keep.__contains__
            ):
                mine = [r for did in dt.dialogue_ids for r in missing.get((system, did), ())]
                self.attributor.attribute(mine, dt.trace, dialogues)
                self.emit({"attributed": len(found), "total": len(todo)})
        self.attributor.finish(todo)
        self.emit({"phase": "writing"})
        finish_attribution(self.run, records, found)
        # Written: the memory metrics' last step reuses what the attributions held.
        found.clear()
        del records, todo, rest
        if self.metrics is None:
            self.metrics = MemoryMetricsRun(self.run, bench=self.attributor.bench, seed=self.seed)
        self.metrics.finish()


def import_plugins(path: list[str], modules: list[str]) -> None:
    """Import the modules that registered plug-ins in the run's process, from its path."""
    sys.path[:0] = [p for p in path if p not in sys.path]
    for module in modules:
        importlib.import_module(module)


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
        import_plugins(settings.get("path") or [], settings.get("plugins") or [])
        worker = _Worker(Path(settings["run"]), Path(settings["bench"]), settings["seed"], emit)
        if worker.run_until_finished(commands):
            worker.finish()
            emit({"ok": True})
            # Its files are written and closed, and the run waits for this process to end:
            # skip the interpreter's teardown of every module (~0.1 s).
            os._exit(0)
    except Exception as e:  # any failure: the run attributes after itself instead, and says so
        traceback.print_exc()  # into RUN/run.log
        emit({"error": f"{type(e).__name__}: {e}"})
        sys.exit(1)


if __name__ == "__main__":
    main()
