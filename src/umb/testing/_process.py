"""Start the test server as a subprocess and talk to its control endpoints (stdlib only)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

READY_PREFIX = "UMB-OPENAI-SERVER READY "
"""The line the server prints on stdout, followed by its root URL, once it accepts requests."""


class OpenAIServer:
    """A handle on a running test server.

    Attributes:
        url: Root URL, e.g. ``http://127.0.0.1:43121``.
        base_url: OpenAI base URL (``url + "/v1"``): pass it as ``ModelOptions.base_url``.
    """

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")
        self.base_url = self.url + "/v1"

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(
            self.url + path, data=data, method=method, headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def control(self, **settings: Any) -> dict[str, Any]:
        """Change settings (``latency``, ``rules``, ``default_reply``, ``reject_response_format``,
        ``usage``, ``model``; ``reset_stats=True`` zeroes the counters). Returns the stats."""
        result: dict[str, Any] = self._call("POST", "/_control", settings)
        return result

    def set_rules(self, *rules: dict[str, Any]) -> None:
        """Replace the scripted rules (see :class:`~umb.testing.Rule` for the keys)."""
        self.control(rules=list(rules))

    def reset(self) -> None:
        """Back to the start-up settings, counters zeroed."""
        self._call("POST", "/_reset", {})

    def stats(self) -> dict[str, Any]:
        """Counters since the last reset: ``requests``, ``statuses``, ``max_in_flight``, …"""
        result: dict[str, Any] = self._call("GET", "/_stats")
        return result

    def requests(self) -> list[dict[str, Any]]:
        """The last 200 chat requests: ``model``, ``messages``, ``json_mode``."""
        result: list[dict[str, Any]] = self._call("GET", "/_requests")
        return result


def _read_ready_line(stream: IO[str], timeout_s: float) -> str | None:
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        lines.put(stream.readline())

    threading.Thread(target=pump, daemon=True).start()
    try:
        return lines.get(timeout=timeout_s)
    except queue.Empty:
        return None


def stop_process(proc: subprocess.Popen[Any], timeout_s: float = 10.0) -> None:
    """End a server process we started: SIGTERM, then SIGKILL if it is still there after
    ``timeout_s``."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextmanager
def running_server(
    *,
    latency: float = 0.0,
    rules: list[dict[str, Any]] | None = None,
    default_reply: str | None = None,
    reject_response_format: bool = False,
    usage: bool = True,
    startup_timeout_s: float = 30.0,
) -> Iterator[OpenAIServer]:
    """Run the test server in a subprocess on 127.0.0.1 and a free port for the ``with`` block.

    The arguments become the start-up settings that :meth:`OpenAIServer.reset` returns to.

    Args:
        latency: Seconds before each answer.
        rules: Scripted behaviours, as JSON objects (see :class:`~umb.testing.Rule`).
        default_reply: Completion text when no rule replies (default: a JSON echo).
        reject_response_format: Answer 400 to requests that ask for JSON mode.
        usage: Report token usage in responses.
        startup_timeout_s: How long to wait for the server to come up.

    Yields:
        The server's handle.

    Raises:
        RuntimeError: The server did not start; the message holds its stderr.

    Example:
        >>> with running_server(latency=0.05) as server:  # doctest: +SKIP
        ...     options = ModelOptions(base_url=server.base_url)
    """
    settings: dict[str, Any] = {
        "latency": latency,
        "rules": rules or [],
        "default_reply": default_reply,
        "reject_response_format": reject_response_format,
        "usage": usage,
    }
    with tempfile.TemporaryDirectory(prefix="umb-openai-server-") as tmp:
        config = Path(tmp) / "settings.json"
        config.write_text(json.dumps(settings), encoding="utf-8")
        errors = open(Path(tmp) / "stderr.txt", "w+", encoding="utf-8")
        command = [sys.executable, "-m", "umb.testing.openai_server"]
        command += ["--host", "127.0.0.1", "--port", "0", "--responder", str(config)]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        proc = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=errors,
            stdin=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        try:
            assert proc.stdout is not None
            line = _read_ready_line(proc.stdout, startup_timeout_s)
            if not line or not line.startswith(READY_PREFIX):
                errors.seek(0)
                raise RuntimeError(f"test server did not start: {errors.read()[-2000:]}")
            yield OpenAIServer(line[len(READY_PREFIX) :].strip())
        finally:
            stop_process(proc)
            if proc.stdout is not None:
                proc.stdout.close()
            errors.close()
