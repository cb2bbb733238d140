"""The hf export's numbers in docs/interop.md are benchmarks/hf_export.py's output."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_measured_table_is_the_scripts_output() -> None:
    results = (ROOT / "benchmarks" / "results" / "hf_export.txt").read_text()
    first_run = results.split("\n$ ", 1)[0]
    docs = (ROOT / "docs" / "interop.md").read_text().split("## Hugging Face datasets folder")[1]
    labels = {
        "export": "`umb export --format hf`",
        "import": "`umb import hf`",
        "validate": "`umb validate` of the import",
    }
    for step, label in labels.items():
        found = re.search(rf"^{step}\s+([\d.]+)\s+([\d.]+)\s+(\d+)$", first_run, re.MULTILINE)
        assert found is not None, step
        secs, cpu, mib = found.groups()
        assert f"| {label} | {secs} | {cpu} | {mib} |" in docs, step
    largest = re.findall(r"^dialogues\s+[\d,]+\s+\d+\s+([\d.]+)", results, re.MULTILINE)
    assert len(largest) == 2
    assert f"`sessions` {largest[0]} MiB each" in docs
    assert f"the largest {largest[1]} MiB" in docs
    assert results.count("round trip: 5/5 files byte-identical") == 2
    assert results.count("mlcroissant: 0 errors") == 2
