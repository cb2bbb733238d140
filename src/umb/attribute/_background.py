"""The run's side of the second process that attributes a traced ``umb eval`` while it runs.

The worker itself is :mod:`umb.attribute._worker` (its docstring has the protocol); this side
only starts it, sends it each finished job's failed records and waits for its files, so the
run's own process never loads attribution. A thread writes the messages: the worker reads
nothing while it starts (about a second of imports), and a full pipe must not stop the run's
event loop meanwhile.
"""

from __future__ import annotations

import contextlib
import queue
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import orjson

from umb._registry import plugin_modules
from umb.attribute._files import attributed_part, failed
from umb.run import RUN_LOG


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
        # The plug-ins this process registered by import (a family, its rule and needs rule):
        # the worker imports the same modules, from the same path, to see the same registries.
        self.settings = {"run": str(run), "bench": str(bench), "seed": seed,
                         "plugins": plugin_modules(), "path": list(sys.path)}  # fmt: skip
        self.error: str | None = None
        """Why the worker did not finish its work, when it did not."""
        self._proc: subprocess.Popen[bytes] | None = None
        self._outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        # The worker's own messages (a crash's traceback) go where other libraries' do.
        with (self.run / RUN_LOG).open("ab") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "umb.attribute._worker"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
            )  # fmt: skip
        self._proc = proc
        self._writer = threading.Thread(target=self._write, args=(proc.stdin,), daemon=True)
        self._writer.start()
        self._send(self.settings)
        return proc

    def _send(self, msg: dict[str, Any]) -> None:
        if self._proc is None:
            self._start()
        self._outbox.put(orjson.dumps(msg, default=str) + b"\n")

    def _write(self, stdin: IO[bytes] | None) -> None:
        """The writer thread: the outbox into the worker's stdin, closed at ``None``."""
        assert stdin is not None
        try:
            while (line := self._outbox.get()) is not None:
                stdin.write(line)
                stdin.flush()
        except OSError as e:  # the worker is gone; finish() says why
            self.error = f"the background worker stopped ({e.strerror or e})"
        finally:
            with contextlib.suppress(OSError):
                stdin.close()

    def _close_stdin(self, timeout_s: float | None = None) -> None:
        """Let the writer send what is queued, then close the worker's stdin."""
        self._outbox.put(None)
        if self._writer is not None:
            self._writer.join(timeout_s)

    def job_done(self, system: str, dialogue_id: str, records: Sequence[dict[str, Any]]) -> None:
        """Tell the worker a job has finished (:data:`umb.run.OnJob`)."""
        todo = [attributed_part(r) for r in records if failed(r)]
        self._send({"job": [system, dialogue_id], "failed": todo})

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
        self._close_stdin()
        ok = False
        assert proc.stdout is not None
        for line in proc.stdout:
            msg = orjson.loads(line)
            if bar is not None and "phase" in msg:
                bar.set_postfix_str(msg["phase"])
            if bar is not None and "total" in msg:
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
        self._close_stdin(timeout_s=5)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
