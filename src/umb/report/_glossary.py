"""The glossary section: every abbreviation, system, model and scorer the page names.

Column headers link to its entries (``ctx.term``); it lists the families and columns always, and
the systems, models, scorers and error types of the runs shown.
"""

from __future__ import annotations

from typing import Any

from umb.attribute import ERROR_TYPES
from umb.report._context import ReportContext, Section, anchor
from umb.report._terms import GROUPS, describe, model_key

_ERROR_TYPES = (*ERROR_TYPES, "Unattributed")  # the label of a failure no stage explains


def _entry(key: str, title: str | None = None, unknown: str = "") -> dict[str, str]:
    found = describe(key)
    text = found[1] if found else unknown
    return {"anchor": f"g-{anchor(key)}", "title": title or (found[0] if found else key),
            "text": text}  # fmt: skip


def _described(prefix: str, names: list[str], unknown: str) -> list[dict[str, str]]:
    return [_entry(f"{prefix}:{n}", n, unknown) for n in names]


def glossary(ctx: ReportContext) -> Section:
    """Families, columns, then the systems, models, scorers and error types on the page."""
    groups: list[dict[str, Any]] = [
        {"title": title, "entries": [_entry(k) for k in keys]} for title, keys in GROUPS
    ]
    systems = sorted({e.system for e in ctx.data.entries})
    groups.append(
        {"title": "Memory systems",
         "entries": _described("system", systems, "A memory system registered outside umb.")}
    )  # fmt: skip
    models = sorted({e.model for e in ctx.data.entries})
    groups.append(
        {"title": "Models",
         "entries": [_entry(model_key(m), m) if describe(model_key(m))
                   else _entry(m, m, "A model spec of a registered provider.") for m in models]}
    )  # fmt: skip
    scorers = sorted({str((r.header.get("scorer") or {}).get("name", "umb"))
                      for r in ctx.data.runs})  # fmt: skip
    groups.append(
        {"title": "Scorers", "entries": _described("scorer", scorers, "A registered peer scorer.")}
    )
    if "attributions" in ctx.shared or any(t in ctx.terms for t in _ERROR_TYPES):
        groups.append(
            {"title": "Error types (attribution)", "entries": [_entry(t) for t in _ERROR_TYPES]}
        )
    return Section("glossary", "Glossary", ctx.render("glossary.html.j2", groups=groups))
