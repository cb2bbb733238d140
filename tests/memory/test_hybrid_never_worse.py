"""``rag_hybrid`` ranks turns at least as well as the better of its parts, on the small preset.

The figures are those of ``benchmarks/rag_retrieval.py`` (docs/interop.md), which this test runs
on the three shipped rankers: recall@k of the evidence turns at k = 5, 10, 25 and 50.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import umb
from umb.memory._ranker import with_neighbours

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "rag_retrieval.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rag_retrieval", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_turn_borrows_only_from_a_neighbouring_question() -> None:
    scores = np.array([1.0, 0.0, 2.0, 0.0], dtype=np.float32)
    sessions = np.array([0, 0, 0, 1])
    asks = np.array([False, False, True, False])
    out = with_neighbours(scores, sessions, 0.5, asks)
    # Turn 1 sits between a statement (1.0) and a question (2.0): only the question lends.
    # Turn 3 is in the next session: nothing crosses a session's edge.
    assert out.tolist() == [1.0, 1.0, 2.0, 0.0]
    assert with_neighbours(scores, sessions, 0.5).tolist() == [1.0, 1.5, 2.0, 0.0]


@pytest.mark.slow
def test_hybrid_is_never_worse_than_its_parts_on_the_small_preset(tmp_path: Path) -> None:
    rr = _script()
    bench = umb.generate(tmp_path / "small", preset="small")
    rows = {name: rr.measure(bench, name, ranker).recall for name, ranker in rr.SYSTEMS.items()}
    for k in rr.KS:
        best_part = max(rows["rag_bm25"][k], rows["rag_dense"][k])
        assert rows["rag_hybrid"][k] >= best_part, (k, rows)
