"""The glossary section: every abbreviation, system, model and scorer the page names.

Column headers link to its entries (``ctx.term``); it lists the families and columns always, and
the systems, models, scorers and error types of the runs shown.
"""

from __future__ import annotations

from typing import Any

from umb.attribute import ERROR_TYPES
from umb.report._context import ReportContext, Section, anchor
from umb.report._terms import GROUPS, TERMS, model_key

_ERROR_TYPES = (*ERROR_TYPES, "Unattributed")  # the label of a failure no stage explains


def _entry(key: str, title: str | None = None, text: str | None = None) -> dict[str, str]:
    found = TERMS.get(key, (key, ""))
    return {"anchor": f"g-{anchor(key)}", "title": title or found[0], "text": text or found[1]}


def _described(prefix: str, names: list[str], unknown: str) -> list[dict[str, str]]:
    return [
        _entry(f"{prefix}:{n}", n, None if f"{prefix}:{n}" in TERMS else unknown) for n in names
    ]


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
         "entries": [_entry(model_key(m), m) if model_key(m) in TERMS
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
