"""Report sections for imported benchmarks: native categories beside the canonical families,
and the peers' retrieval metrics; plus the same as plain text for the terminal.

Both read the ``native``, ``retrieval`` and ``peer`` blocks that :func:`umb.scoring.aggregate`'s
groups get in a run's ``results.json`` (:mod:`umb.scoring._native`); a run without them (a umb
benchmark, or a run made before they existed) leaves the sections out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from umb._peer import PEERS

if TYPE_CHECKING:  # the page's sections load the templates; the terminal's text needs neither
    from umb.report._context import ReportContext, Section

#: Source -> how the page names it.


def _title(source: str) -> str:
    peer = PEERS.get(source)
    return peer.title if peer else source


# Micro/macro rows of a native block, in display order: (key, label).
_OVERALLS = (
    ("overall_micro", "overall (micro)"),
    ("overall_micro_non_adversarial", "non-adversarial (micro)"),
    ("abstention", "abstention"),
)


def scorer_label(header: dict[str, Any]) -> str:
    """``locomo_f1@1`` from a run header (``umb`` for the family rules or an older run)."""
    block = header.get("scorer") or {"name": "umb"}
    version = block.get("version")
    return f"{block['name']}@{version}" if version else str(block["name"])


def _columns(blocks: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The native categories of every entry, in order of first appearance."""
    seen: dict[str, dict[str, Any]] = {}
    for block in blocks:
        for cat in block["categories"]:
            seen.setdefault(cat["id"], {k: cat[k] for k in ("id", "name", "family")})
    return list(seen.values())


def _peer_numbers(peer: dict[str, Any] | None) -> list[tuple[str, str]]:
    """The peer aggregate's top-level numbers (its own headline figures), formatted."""
    out: list[tuple[str, str]] = []
    for k, v in (peer or {}).items():
        if isinstance(v, bool) or not isinstance(v, int | float):
            continue
        out.append((k, f"{v:,}" if isinstance(v, int) else f"{v:.3f}"))
    return out


def native_categories(ctx: ReportContext) -> Section | None:
    """Per source, each entry's score per native category, next to its canonical family."""
    from umb.report._context import Section

    headers = {run.label: run.header for run in ctx.data.runs}
    sources: dict[str, list[dict[str, Any]]] = {}
    for e in ctx.data.entries:
        for source, block in (e.group.get("native") or {}).items():
            sources.setdefault(source, []).append(
                {
                    "entry": e,
                    "block": block,
                    "cats": {c["id"]: c for c in block["categories"]},
                    "scorer": scorer_label(headers.get(e.run, {})),
                    "peer": _peer_numbers(e.group.get("peer")),
                }
            )
    if not sources:
        return _peer_only(ctx, headers)
    tables = [
        {
            "source": source,
            "title": _title(source),
            "columns": _columns(r["block"] for r in rows),
            "overalls": [
                (key, label) for key, label in _OVERALLS if any(key in r["block"] for r in rows)
            ],
            "rows": rows,
        }
        for source, rows in sorted(sources.items())
    ]
    html = ctx.render("native.html.j2", tables=tables, peers=[])
    return Section("native", "Native categories", html)


def _peer_only(ctx: ReportContext, headers: dict[str, dict[str, Any]]) -> Section | None:
    """A peer scorer's own summary per entry, for a benchmark without native categories."""
    from umb.report._context import Section

    rows = [
        {"entry": e, "scorer": scorer_label(headers.get(e.run, {})), "peer": numbers}
        for e in ctx.data.entries
        if (numbers := _peer_numbers(e.group.get("peer")))
    ]
    if not rows:
        return None
    return Section("native", "Peer scorer", ctx.render("native.html.j2", tables=[], peers=rows))


def retrieval_metrics(ctx: ReportContext) -> Section | None:
    """Each entry's peer retrieval metrics (LoCoMo recall@k, LongMemEval recall/NDCG@k)."""
    from umb.report._context import Section

    scorers: dict[str, list[dict[str, Any]]] = {}
    for e in ctx.data.entries:
        for name, summary in (e.group.get("retrieval") or {}).items():
            scorers.setdefault(name, []).append({"entry": e, "summary": summary})
    if not scorers:
        return None
    tables = []
    for name, rows in sorted(scorers.items()):
        keys: list[str] = []
        for r in rows:
            keys += [k for k in r["summary"] if _is_metric(k) and k not in keys]
        tables.append({"name": name, "rows": rows, "metrics": keys})
    return Section("retrieval", "Retrieval", ctx.render("retrieval.html.j2", tables=tables))


def _is_metric(key: str) -> bool:
    return key.startswith("recall") or "/" in key


def format_native(results: dict[str, Any]) -> str:
    """Native categories and retrieval of a ``results.json`` as plain text ('' if none)."""
    lines: list[str] = []
    for g in results.get("groups", []):
        for source, block in (g.get("native") or {}).items():
            title = _title(source)
            lines.append(f"{g['system']} · {g['model']} — {title} categories:")
            for c in block["categories"]:
                lines.append(
                    f"  {c['id']:>3} {c['name']:<28} ({c['family']:<3}) "
                    f"{_num(c['mean'])}  n={c['questions']}"
                )
            for key, label in _OVERALLS:
                if key in block:
                    b = block[key]
                    lines.append(f"      {label:<34} {_num(b['mean'])}  n={b['n']}")
        for name, summary in (g.get("retrieval") or {}).items():
            metrics = [(k, v) for k, v in summary.items() if _is_metric(k) and v is not None]
            shown = ", ".join(f"{k} {v:.3f}" for k, v in metrics[:8])
            lines.append(f"  {name} ({summary.get('unit')}): {shown}")
    return "\n".join(lines)


def _num(value: Any) -> str:
    return "    –" if value is None else f"{float(value):.3f}"
