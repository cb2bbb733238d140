"""What a fresh interpreter loads for the two processes of a traced ``umb eval``: the run's
start and the attribution worker import only what they use before their first request or
trace record (docs/performance.md, the whole command)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("numpy", "httpx", "asyncio", "sqlite3", "tqdm", "jinja2", "umb.interop.locomo",
         "umb.models.offline", "umb.report._context")  # fmt: skip


def _loaded(*modules: str) -> set[str]:
    code = (
        "import importlib, json, sys\n"
        f"for m in {list(modules)!r}: importlib.import_module(m)\n"
        f"print(json.dumps([m for m in {list(HEAVY)!r} if m in sys.modules]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout))


def test_the_attribution_worker_loads_no_client_event_loop_bar_or_numpy() -> None:
    assert _loaded("umb.attribute._worker") == set()


@pytest.mark.parametrize("extra", [(), ("umb.pipeline._evaluate", "umb.run._runner")])
def test_the_eval_command_loads_what_its_end_needs_only_at_the_end(extra: tuple[str, ...]) -> None:
    # The event loop and the response cache's database are the runner's; the rest waits for a
    # backend, a memory system or the results.
    assert _loaded("umb._cli.main", "umb._cli.eval", *extra) <= {"asyncio", "sqlite3"}


def test_a_plain_http_endpoint_is_spoken_to_without_httpx() -> None:
    code = (
        "import sys\n"
        "from umb.models import ModelOptions\n"
        "from umb.models._openai import OpenAIModel\n"
        "model = OpenAIModel('m', ModelOptions(base_url='http://127.0.0.1:9/v1'))\n"
        "model._client(model.base_url)\n"
        "print('httpx' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
