"""Every registered memory system, peer scorer and model provider has its glossary entry, so a
plug-in registered without one is caught here rather than shown undescribed in a report."""

from __future__ import annotations

import pytest

import umb.models._providers  # noqa: F401 - registers the built-in providers
from umb._registry import Registry
from umb.memory import MEMORY_SYSTEMS
from umb.models._provider import PROVIDERS
from umb.report._terms import TERMS
from umb.scoring import PEER_SCORERS


def _undescribed(prefix: str, registry: Registry[object]) -> list[str]:
    return [n for n in registry if f"{prefix}:{n}" not in TERMS]


@pytest.mark.parametrize(
    ("prefix", "registry"),
    [("system", MEMORY_SYSTEMS), ("scorer", PEER_SCORERS), ("model", PROVIDERS)],
)
def test_every_registered_plug_in_has_a_glossary_entry(
    prefix: str, registry: Registry[object]
) -> None:
    assert _undescribed(prefix, registry) == []


def test_a_plug_in_registered_without_an_entry_is_named() -> None:
    PEER_SCORERS.add("undescribed_metric", type("UndescribedMetric", (), {}))
    try:
        assert _undescribed("scorer", PEER_SCORERS) == ["undescribed_metric"]
    finally:
        PEER_SCORERS.remove("undescribed_metric")
