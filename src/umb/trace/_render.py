"""Draw one question's evidence subgraph with graphviz, the faulty operation highlighted."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from umb._errors import ConfigError, UmbError
from umb.trace._graph import Trace
from umb.trace._model import Operation, VarVersion

Format = Literal["svg", "png", "dot"]
FORMATS: tuple[str, ...] = ("svg", "png", "dot")

_ROLE_COLOUR = {
    "turn": "#dbeafe",
    "session": "#dbeafe",
    "query": "#e0e7ff",
    "memory": "#fef9c3",
    "context": "#e5e7eb",
    "answer": "#dcfce7",
    "judgement": "#f3e8ff",
}
_HIGHLIGHT = "#dc2626"


def _esc(text: str) -> str:
    # graphviz passes backslashes through as DOT escapes; user text must not form any.
    return text.replace("\\", "\\\\")


def _var_label(trace: Trace, n: VarVersion) -> str:
    head = _esc(f"{n.identity} @{n.version}")
    if n.deleted:
        return f"{head}\\n(deleted)"
    preview = trace.preview(n)
    return f"{head}\\n{_esc(preview[:60])}" if preview else head


def _op_label(op: Operation, faulty: bool) -> str:
    us = op.duration_us
    took = f"{us / 1000:.1f} ms" if us >= 1000 else f"{us:.0f} µs"
    lines = [("FAULTY: " if faulty else "") + op.name, f"{op.category} · #{op.seq} · {took}"]
    if op.status != "ok":
        lines.append(f"{op.status}: {(op.error or '')[:50]}")
    return "\\n".join(_esc(x) for x in lines)


def render_subgraph(
    trace: Trace,
    question_id: str,
    highlight_op: str | None = None,
    fmt: Format = "svg",
    *,
    sources: Iterable[str] | None = None,
    max_nodes: int | None = 120,
    also: Iterable[str] = (),
) -> bytes:
    """Draw the evidence subgraph of one question.

    Args:
        trace: The trace.
        question_id: The question whose operations (and their upstream lineage) are drawn.
        highlight_op: Id of the operation to mark as faulty (drawn red, labelled FAULTY).
        fmt: ``svg`` or ``png`` (rendered by Graphviz's ``dot``), or ``dot`` (the DOT source).
        sources: Identities to draw paths from (e.g. the gold evidence turns); default: all
            upstream lineage.
        max_nodes: At most this many variable versions, nearest to the question first.
        also: Operation ids and versions (``identity@version``) to draw as well, such as an
            attribution's evidence path; the highlighted operation is always drawn.

    Returns:
        The picture (or DOT source) as bytes.

    Raises:
        ConfigError: Unknown format, a question with no operation, or an unknown operation id.
        UmbError: Graphviz's ``dot`` program is not installed (svg/png only).
    """
    if fmt not in FORMATS:
        raise ConfigError(f"unknown picture format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if highlight_op is not None and highlight_op not in {o.id for o in trace.ops}:
        raise ConfigError(f"the trace holds no operation {highlight_op!r}")
    extra = [*also, highlight_op] if highlight_op is not None else list(also)
    sub = trace.question_subgraph(question_id, sources=sources, max_nodes=max_nodes, also=extra)
    if not any(o.question_id == question_id for o in sub.ops):
        raise ConfigError(f"the trace holds no operation of question {question_id}")
    import graphviz  # a core dependency, imported here to keep `import umb.trace` light

    title = f"{question_id}" + (" (cut to the nearest nodes)" if sub.truncated else "")
    g = graphviz.Digraph(
        name=question_id,
        graph_attr={"rankdir": "LR", "label": _esc(title), "labelloc": "t", "fontsize": "12",
                    "fontname": "Helvetica"},
        node_attr={"fontname": "Helvetica", "fontsize": "10"},
        edge_attr={"color": "#6b7280", "arrowsize": "0.7"},
    )  # fmt: skip
    # DOT reads "a:b" as node a, port b, so graphviz ids are synthetic.
    node_ids: dict[tuple[str, int], str] = {}
    for i, n in enumerate(sorted(sub.nodes, key=lambda n: (n.identity, n.version))):
        nid = node_ids[n.key] = f"v{i}"
        attrs: dict[str, Any] = {
            "shape": "ellipse",
            "style": "filled,dashed" if n.deleted else "filled",
            "fillcolor": _ROLE_COLOUR.get(n.role, "#ffffff"),
        }
        g.node(nid, _var_label(trace, n), **attrs)
    for j, op in enumerate(sub.ops):
        faulty = op.id == highlight_op
        fill = "#fecaca" if faulty else ("#fed7aa" if op.status != "ok" else "#f1f5f9")
        g.node(
            f"o{j}",
            _op_label(op, faulty),
            shape="box",
            style="rounded,filled,bold" if faulty else "rounded,filled",
            fillcolor=fill,
            color=_HIGHLIGHT if faulty else "#334155",
            penwidth="3" if faulty else "1",
        )
        edge_colour = _HIGHLIGHT if faulty else "#6b7280"
        for k in dict.fromkeys(op.reads):
            if k in node_ids:
                g.edge(node_ids[k], f"o{j}", color=edge_colour)
        for k in dict.fromkeys(op.writes):
            if k in node_ids:
                g.edge(f"o{j}", node_ids[k], color=edge_colour, style="bold")
    if fmt == "dot":
        return g.source.encode()
    try:
        return bytes(g.pipe(format=fmt))
    except graphviz.ExecutableNotFound:
        raise UmbError(
            "Graphviz's dot program was not found on PATH; install Graphviz "
            "(Debian: apt-get install graphviz)"
        ) from None
