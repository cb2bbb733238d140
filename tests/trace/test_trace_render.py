"""Pictures of one question's evidence subgraph."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from umb import ConfigError
from umb.trace import Trace, Tracer, operation, read_trace, render_subgraph

Q_PET = "Q-D0001-IE-01"
needs_dot = pytest.mark.skipif(
    shutil.which("dot") is None, reason="Graphviz's dot program is not installed"
)


def test_dot_source_highlights_the_faulty_op(sample: Trace) -> None:
    dot = render_subgraph(sample, Q_PET, highlight_op="D0001/5", fmt="dot").decode()
    assert dot.startswith('digraph "Q-D0001-IE-01"')
    faulty = [line for line in dot.splitlines() if "FAULTY" in line]
    assert len(faulty) == 1 and "mem0.update" in faulty[0] and "penwidth=3" in faulty[0]
    assert "memory:D0001:m1 @2" in dot and "Maya adopted a dog" in dot
    assert "Q-D0001-KU-01/" not in dot  # the other question's ops stay out


def test_text_cannot_break_the_dot_source(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with Tracer(path) as tr, tr.activate(), tr.question("Q1"):
        with operation('say "hi"\\', "response") as op:
            op.write("answer:Q1", 'a "quoted" \\l backslash')
    dot = render_subgraph(read_trace(path), "Q1", fmt="dot").decode()
    assert "\\\\l backslash" in dot and 'say \\"hi\\"' in dot
    if shutil.which("dot"):
        assert b"backslash" in render_subgraph(read_trace(path), "Q1", fmt="svg")


@needs_dot
def test_svg_and_png(sample: Trace) -> None:
    svg = render_subgraph(sample, Q_PET, highlight_op="D0001/5", fmt="svg")
    assert svg.lstrip().startswith(b"<?xml") and b"<svg" in svg and b"FAULTY" in svg
    png = render_subgraph(sample, Q_PET, fmt="png")
    assert png.startswith(b"\x89PNG\r\n\x1a\n")


def test_bad_requests(sample: Trace) -> None:
    with pytest.raises(ConfigError, match="unknown picture format"):
        render_subgraph(sample, Q_PET, fmt="gif")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="no operation of question"):
        render_subgraph(sample, "Q-nope")
    with pytest.raises(ConfigError, match="no operation 'X/1'"):
        render_subgraph(sample, Q_PET, highlight_op="X/1")
