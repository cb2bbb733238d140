"""The audit as text: a terminal summary, a Markdown report section, and the files."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from umb._jsonio import atomic_write_bytes, dumps_pretty
from umb.families import FAMILIES

AUDIT_JSON: Final = "audit.json"
AUDIT_MD: Final = "audit.md"


def _families(report: dict[str, Any]) -> list[str]:
    present = set(report["floor"])
    for entry in report["baselines"].values():
        present |= set(entry["families"])
    return [f for f in FAMILIES if f in present]


def _cell(fig: dict[str, Any] | None, mark: str = "") -> str:
    if not fig or fig.get("mean") is None:
        return "–"
    return f"{fig['mean']:.1f}{' ' + mark if mark else ''}"


def _marks(report: dict[str, Any]) -> dict[tuple[str, str], str]:
    """``!`` on a failed check, ``?`` on a mean over its maximum within noise."""
    return {
        (c["baseline"], c["family"]): "?" if c["passed"] else "!"
        for c in report["checks"]
        if c.get("over", not c["passed"])
    }


def _check_line(c: dict[str, Any]) -> str:
    ci = c.get("ci95")
    interval = f" [95 % CI {ci[0]:.1f}–{ci[1]:.1f}]" if ci else ""
    return (
        f"{c['baseline']} on {c['family']}: {c['value']:.1f}%{interval} > {c['max']:.1f}% "
        f"(e.g. {', '.join(c['examples']) or 'no example'})"
    )


def failure_lines(report: dict[str, Any]) -> list[str]:
    """One line per failed check: baseline, family, value against the maximum, examples."""
    return [_check_line(c) for c in report["failures"]]


def noise_lines(report: dict[str, Any]) -> list[str]:
    """One line per mean over its maximum whose 95 % interval still reaches it (not failed)."""
    return [_check_line(c) for c in report["checks"] if c.get("over") and c["passed"]]


def _rows(report: dict[str, Any]) -> list[tuple[str, list[str]]]:
    fams, marks = _families(report), _marks(report)
    rows = [("no-context floor", [_cell(report["floor"].get(f)) for f in fams])]
    for name, entry in report["baselines"].items():
        cells = [_cell(entry["families"].get(f), marks.get((name, f), "")) for f in fams]
        rows.append((name, cells))
    if report.get("retrieval"):
        recall = report["retrieval"]["bm25_recall_at_5"]
        rows.append(("bm25 recall@5", [_cell(recall.get(f)) for f in fams]))
    return rows


def format_summary(report: dict[str, Any]) -> str:
    """The audit as aligned terminal lines: one row per baseline, a column per family (%)."""
    fams = _families(report)
    head = f"audit: {report['verdict']} ({_scope(report)}, ABS left out)"
    width = max(len(name) for name, _ in _rows(report))
    lines = [head, f"  {'':<{width}}  " + "  ".join(f"{f:>6}" for f in fams)]
    for name, cells in _rows(report):
        lines.append(f"  {name:<{width}}  " + "  ".join(f"{c:>6}" for c in cells))
    lines += [f"  failed: {line}" for line in failure_lines(report)]
    lines += [f"  over within noise (not failed): {line}" for line in noise_lines(report)]
    if any(c.get("over") for c in report["checks"]):
        lines.append(
            "  ('!': the whole 95 % interval is over the threshold; '?': only the mean is; "
            "docs/audit.md)"
        )
    return "\n".join(lines)


def report_markdown(report: dict[str, Any]) -> str:
    """The audit as a Markdown section: figures with 95 % CIs, thresholds, the verdict."""
    fams = _families(report)
    out = [
        "## Audit: shortcut baselines",
        "",
        f"Verdict: **{report['verdict']}** ({_scope(report)}; ABS has no threshold). "
        "Scores are the family rule scores in percent, with 95 % bootstrap intervals; "
        "first- and latest-mention count the questions whose attribute changed. "
        "A check fails (bold) when its whole interval is over the maximum; '?' marks a mean "
        "over it whose interval still reaches it.",
        "",
        "| baseline | sees | " + " | ".join(fams) + " |",
        "|---|---|" + "---:|" * len(fams),
    ]
    marks = _marks(report)

    def cells(figs: dict[str, Any], name: str) -> str:
        parts = []
        for f in fams:
            fig = figs.get(f)
            if not fig or fig.get("mean") is None:
                parts.append("–")
                continue
            ci = fig["ci95"]
            text = f"{fig['mean']:.1f} [{ci[0]:.1f}, {ci[1]:.1f}]" if ci else f"{fig['mean']:.1f}"
            mark = marks.get((name, f))
            parts.append(f"**{text}**" if mark == "!" else f"{text} ?" if mark else text)
        return " | ".join(parts)

    out.append(f"| no-context floor | the question, no history | {cells(report['floor'], '')} |")
    for name, entry in report["baselines"].items():
        out.append(f"| {name} | {entry['sees']} | {cells(entry['families'], name)} |")
    if report.get("retrieval"):
        recall = report["retrieval"]["bm25_recall_at_5"]
        sees = f"the question as a BM25 query ({report['retrieval']['dialogues']} dialogues)"
        out.append(f"| bm25 recall@5 | {sees} | {cells(recall, '')} |")
    out += ["", "Thresholds:", ""]
    out += [
        f"- {t['baseline']} ({_which(t['families'])}): {t['rule']}" for t in report["thresholds"]
    ]
    if report["failures"]:
        out += ["", "Failed:", ""] + [f"- {line}" for line in failure_lines(report)]
    if noise_lines(report):
        out += ["", "Over within noise (not failed):", ""]
        out += [f"- {line}" for line in noise_lines(report)]
    return "\n".join(out) + "\n"


def _scope(report: dict[str, Any]) -> str:
    """``1600 questions of 100 dialogues`` (``… a seeded sample of 100 of 1000 dialogues``)."""
    b = report["benchmark"]
    n, total = b.get("dialogues_audited"), b.get("dialogues")
    where = f"{n} dialogues" if n == total else f"a seeded sample of {n} of {total} dialogues"
    return f"{b['audited']} questions of {where}"


def _which(families: Any) -> str:
    return families if isinstance(families, str) else ", ".join(families)


def write_audit(report: dict[str, Any], out: str | Path) -> Path:
    """Write ``audit.json`` and ``audit.md`` into ``out`` (made if missing); returns the JSON."""
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(root / AUDIT_MD, report_markdown(report).encode())
    atomic_write_bytes(root / AUDIT_JSON, dumps_pretty(report))
    return root / AUDIT_JSON
