"""``docs/catalog.md`` is what the registries say: a built-in added, renamed or described anew
without writing the page again fails here, with the command that writes it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from umb.report._catalog import REGENERATE

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _generated() -> str:
    # A fresh interpreter: other tests register plug-ins of their own in this process.
    code = "import sys, umb.report as r; sys.stdout.write(r.catalog_markdown())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout


def test_the_catalogue_in_the_docs_is_the_registries() -> None:
    assert (DOCS / "catalog.md").read_text(encoding="utf-8") == _generated(), (
        f"docs/catalog.md is out of date; write it again with: {REGENERATE}"
    )


def test_the_catalogue_lists_every_registered_extension() -> None:
    code = (
        "import json\n"
        "from umb.families import FAMILY_REGISTRY\n"
        "from umb.memory import MEMORY_SYSTEMS\n"
        "from umb.scoring import PEER_SCORERS\n"
        "print(json.dumps([*MEMORY_SYSTEMS, *PEER_SCORERS, *FAMILY_REGISTRY]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    text = _generated()
    for name in json.loads(done.stdout):
        assert f"| `{name}` |" in text, name
