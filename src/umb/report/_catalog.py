"""``docs/catalog.md``: every registered extension, as it describes itself.

The page is generated from the registries (memory systems, model providers, peer scorers, peers,
question families), so the docs' lists cannot drift from the code: ``tests/report/
test_catalog.py`` fails when the file differs from what :func:`catalog_markdown` writes, and
says how to write it again.
"""

from __future__ import annotations

from collections.abc import Sequence

from umb._peer import PEERS
from umb.families import FAMILY_REGISTRY
from umb.memory import MEMORY_SYSTEMS
from umb.models import PROVIDERS
from umb.scoring import JUDGE_SCORERS, PEER_SCORERS

REGENERATE = (
    "python -c \"import umb.report as r; print(r.catalog_markdown(), end='')\" > docs/catalog.md"
)
"""The command that writes the page again."""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


def catalog_markdown() -> str:
    """The text of ``docs/catalog.md``, from the registries as they are in this process."""
    systems = [(f"`{n}`", MEMORY_SYSTEMS[n].description) for n in MEMORY_SYSTEMS]
    providers = [
        (f"`{p.form}`", "yes" if p.llm else "no", "yes" if p.endpoint else "no", p.description)
        for p in (PROVIDERS[n] for n in PROVIDERS)
    ]
    scorers = [
        (
            f"`{n}`",
            "retrieval" if hasattr(cls, "score_ranking") else "answer",
            "yes" if n in JUDGE_SCORERS else "no",
            str(getattr(cls, "description", "")),
        )
        for n, cls in PEER_SCORERS.items()
    ]
    peers = [
        (
            f"`{p.name}`",
            p.title,
            "yes" if p.importer else "no",
            "yes" if p.exporter else "no",
            ", ".join(f"`{s}`" for s in p.scorers) or "—",
        )
        for p in (PEERS[n] for n in PEERS)
    ]
    families = [(f"`{f.code}`", f.name, f"`{f.scorer}`", f.goal) for f in FAMILY_REGISTRY.values()]
    lines = [
        "# Catalogue of extensions",
        "",
        "Every memory system, model provider, peer scorer, peer and question family umb has "
        "registered, with what each says of itself. This page is generated from the "
        "registries; a test fails when it is out of date. Write it again with:",
        "",
        "```bash",
        REGENERATE,
        "```",
        "",
        "How to add one of each: [architecture.md](architecture.md), Extending umb.",
        "",
        "## Memory systems (`umb eval --system`)",
        "",
        *_table(("name", "what it does"), systems),
        "",
        "## Model providers (`--model`, `--judge`, `--extractor`)",
        "",
        *_table(("spec", "language model", "HTTP endpoint", "what it is"), providers),
        "",
        "## Peer scorers (`umb eval --scorer`, `umb score --scorer`)",
        "",
        *_table(("name", "scores", "needs --judge", "what it measures"), scorers),
        "",
        "## Peers (`umb import`, `umb export`)",
        "",
        *_table(("format", "benchmark", "import", "export", "scorers"), peers),
        "",
        "## Question families",
        "",
        *_table(("code", "name", "rule scorer", "what the answerer is asked to do"), families),
    ]
    return "\n".join(lines) + "\n"
