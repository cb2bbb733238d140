"""Every registered memory system, peer scorer and model provider describes itself, and the
report's glossary shows what it says: a plug-in brings its own entry, and one registered
without a description is caught here rather than shown undescribed."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from umb._registry import Registry
from umb.report._terms import describe
from umb.scoring import PEER_SCORERS


def _undescribed(prefix: str, registry: Registry[object]) -> list[str]:
    return [n for n in registry if describe(f"{prefix}:{n}") is None]


@pytest.mark.parametrize("prefix", ["system", "scorer", "model"])
def test_every_registered_plug_in_describes_itself(prefix: str) -> None:
    # A fresh interpreter: other tests register plug-ins of their own in this process.
    code = (
        "import json\n"
        "from umb.memory import MEMORY_SYSTEMS\n"
        "from umb.models import PROVIDERS\n"
        "from umb.report._terms import describe\n"
        "from umb.scoring import PEER_SCORERS\n"
        "registry = {'system': MEMORY_SYSTEMS, 'scorer': PEER_SCORERS, 'model': PROVIDERS}\n"
        f"names = [n for n in registry[{prefix!r}] if describe(f'{prefix}:{{n}}') is None]\n"
        "print(json.dumps(names))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == []


def test_the_entry_is_what_the_extension_says_of_itself() -> None:
    from umb.memory import memory_system_class
    from umb.models import PROVIDERS

    assert describe("system:rag_bm25") == ("rag_bm25", memory_system_class("rag_bm25").description)
    assert describe("model:openai") == ("openai/<model>", PROVIDERS["openai"].description)
    assert describe("scorer:locomo_f1") == ("locomo_f1", PEER_SCORERS["locomo_f1"].description)
    assert describe("system:not_installed") is None


def test_a_plug_in_brings_its_entry_and_one_without_is_named() -> None:
    described = type("DescribedMetric", (), {"description": "Counts the answer's vowels."})
    PEER_SCORERS.add("vowel_metric", described)
    PEER_SCORERS.add("undescribed_metric", type("UndescribedMetric", (), {}))
    try:
        assert describe("scorer:vowel_metric") == ("vowel_metric", "Counts the answer's vowels.")
        assert _undescribed("scorer", PEER_SCORERS) == ["undescribed_metric"]
    finally:
        PEER_SCORERS.remove("vowel_metric")
        PEER_SCORERS.remove("undescribed_metric")
