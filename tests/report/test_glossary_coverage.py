"""Every registered memory system, peer scorer and model provider has its glossary entry, so a
plug-in registered without one is caught here rather than shown undescribed in a report."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from umb._registry import Registry
from umb.report._terms import TERMS
from umb.scoring import PEER_SCORERS


def _undescribed(prefix: str, registry: Registry[object]) -> list[str]:
    return [n for n in registry if f"{prefix}:{n}" not in TERMS]


@pytest.mark.parametrize("prefix", ["system", "scorer", "model"])
def test_every_registered_plug_in_has_a_glossary_entry(prefix: str) -> None:
    # A fresh interpreter: other tests register plug-ins of their own in this process.
    code = (
        "import json\n"
        "from umb.memory import MEMORY_SYSTEMS\n"
        "from umb.models import PROVIDERS\n"
        "from umb.report._terms import TERMS\n"
        "from umb.scoring import PEER_SCORERS\n"
        "registry = {'system': MEMORY_SYSTEMS, 'scorer': PEER_SCORERS, 'model': PROVIDERS}\n"
        f"print(json.dumps([n for n in registry[{prefix!r}] if f'{prefix}:{{n}}' not in TERMS]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == []


def test_a_plug_in_registered_without_an_entry_is_named() -> None:
    PEER_SCORERS.add("undescribed_metric", type("UndescribedMetric", (), {}))
    try:
        assert _undescribed("scorer", PEER_SCORERS) == ["undescribed_metric"]
    finally:
        PEER_SCORERS.remove("undescribed_metric")
