"""Kill a running ``umb eval`` at a chosen point, as a crash would."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path


def complete_lines(path: Path) -> list[bytes]:
    """The lines of ``path`` that end in a newline (a torn last line is left out)."""
    if not path.exists():
        return []
    return [line for line in path.read_bytes().splitlines(keepends=True) if line.endswith(b"\n")]


def kill_after(
    command: list[str], records: Path, at_least: int, env: dict[str, str]
) -> list[bytes]:
    """Start ``command``, SIGKILL it once ``records`` holds ``at_least`` lines; return them."""
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while len(complete_lines(records)) < at_least:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, "the run never got going"
            time.sleep(0.005)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    return complete_lines(records)
