"""Numbers quoted in the README, the docs and the help texts are the benchmark scripts' output.

``benchmarks/results/NAME.txt`` is what ``python benchmarks/NAME.py`` printed when the docs were
last measured; these tests compare every figure the docs quote from it, so a new measurement
that is not carried into the docs (or a figure typed by hand) fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from umb._cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"


def _generate_results() -> dict[str, dict[str, list[str]]]:
    """preset -> step -> the numbers of its line in generate.txt."""
    found: dict[str, dict[str, list[str]]] = {}
    for line in (RESULTS / "generate.txt").read_text().splitlines()[1:]:
        preset, step, *numbers = line.split()
        found.setdefault(preset, {})[step] = numbers
    return found


def _quickstart_results() -> dict[str, list[str]]:
    lines = (RESULTS / "quickstart.txt").read_text().splitlines()[1:]
    return {line.split()[0]: line.split()[1:] for line in lines}


def test_the_generation_table_is_the_scripts_output() -> None:
    results = _generate_results()
    text = (ROOT / "docs" / "performance.md").read_text()
    for preset, steps in results.items():
        row = re.search(rf"^\| {preset} \|(.*)\|$", text, re.MULTILINE)
        assert row is not None, preset
        cells = [c.strip() for c in row.group(1).split("|")]
        _, questions, _, gen_s, gen_cpu, gen_mib, val_s, val_cpu, val_mib, size = cells
        g_secs, g_cpu, g_mib, g_size, g_questions = steps["generate"]
        v_secs, v_cpu, v_mib = steps["validate"]
        assert questions == g_questions, preset
        assert (gen_s, gen_cpu, gen_mib, size) == (
            f"{g_secs} s", f"{g_cpu} s", f"{g_mib} MiB", f"{g_size} MiB"
        ), preset
        assert (val_s, val_cpu, val_mib) == (f"{v_secs} s", f"{v_cpu} s", f"{v_mib} MiB"), preset


def test_question_counts_in_readme_and_help_are_the_scripts_output() -> None:
    counts = {p: steps["generate"][-1] for p, steps in _generate_results().items()}
    readme = " ".join((ROOT / "README.md").read_text().split())
    help_text = " ".join(CliRunner().invoke(cli, ["generate", "--help"]).output.split())
    for preset, n in counts.items():
        assert re.search(rf"`{preset}` \([^)]*\b{re.escape(n)} questions", readme), preset
        assert f"{preset}: " in help_text and f"{n} questions" in help_text, preset


def test_the_quick_start_time_is_quoted_once_from_the_script() -> None:
    fresh, again = _quickstart_results()["fresh"], _quickstart_results()["again"]
    perf = (ROOT / "docs" / "performance.md").read_text()
    quoted = ("`umb run` (generate the demo benchmark, evaluate the six systems, write the "
              f"report) takes {fresh[0]} s")  # fmt: skip
    assert quoted in " ".join(perf.split())
    assert f"{fresh[1]} MiB peak" in perf and f"takes {again[0]} s" in " ".join(perf.split())
    # Nowhere else: other pages point to docs/performance.md instead of quoting a time.
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        text = " ".join(page.read_text().split())
        times = re.findall(r"`umb run`[^.]{0,80}?(?:about )?\d+(?:\.\d+)? s\b", text)
        expected = 2 if page.name == "performance.md" else 0  # fresh, and run again
        assert len(times) <= expected, (page.name, times)


def test_the_smollm2_table_is_the_scripts_output() -> None:
    rows = [line.split() for line in (RESULTS / "llamacpp_smollm2.txt").read_text().splitlines()
            if line.startswith("rag_bm25")]  # fmt: skip
    text = (ROOT / "docs" / "models.md").read_text()
    assert len(rows) == 3
    for row in rows:
        system, setting, score, *_, records, errors, invalid, share, speed, _ = row
        cells = (f"| `{system}` | `{setting}`", f"| {records} | {errors} | {invalid} {share} | "
                 f"{score} |", f"| {speed} |")  # fmt: skip
        line = next((x for x in text.splitlines() if all(c in x for c in cells)), None)
        assert line is not None, row
