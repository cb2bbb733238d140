"""What a reader sees in headless Chromium at 1280 px: a leaderboard that fits, a glossary, every
picture loaded; and one leaderboard per benchmark when runs on different benchmarks are combined."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from umb import evaluate
from umb.pipeline import generate, resolve_config
from umb.report import build_report
from umb.run import RunConfig

SYSTEMS = ("full_context", "no_context", "oracle_evidence", "rag_bm25", "mem0_style")

# Appended to a copy of the page: measures it once everything has loaded and leaves the numbers
# in a <pre> that --dump-dom prints.
_PROBE = """<script>
window.addEventListener("load", function () {
  var out = {width: window.innerWidth, boards: [], images: []};
  document.querySelectorAll("table.leaderboard").forEach(function (t) {
    var box = t.parentElement;
    out.boards.push({id: t.id, scroll: box.scrollWidth, client: box.clientWidth,
                     right: t.getBoundingClientRect().right});
  });
  out.page = [document.documentElement.scrollWidth, document.documentElement.clientWidth];
  document.querySelectorAll("img").forEach(function (i) {
    out.images.push({alt: i.alt, complete: i.complete, width: i.naturalWidth});
  });
  var g = document.getElementById("glossary");
  out.glossary = g ? g.querySelectorAll("dt").length : -1;
  out.terms = Array.from(document.querySelectorAll("a.term")).map(function (a) {
    return a.getAttribute("href");
  });
  out.anchors = Array.from(document.querySelectorAll("#glossary dt")).map(function (d) {
    return d.id;
  });
  var pre = document.createElement("pre");
  pre.id = "umb-probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("chromium is not installed (CI installs it with apt)")


def _measure(index: Path, width: int = 1280) -> dict[str, Any]:
    probe = index.with_name("probe.html")
    probe.write_text(index.read_text(encoding="utf-8").replace("</body>", _PROBE + "</body>"))
    result = subprocess.run(
        [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", f"--window-size={width},900",
         "--virtual-time-budget=10000", "--dump-dom", probe.resolve().as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    found = re.search(r'<pre id="umb-probe">(.*?)</pre>', result.stdout, re.DOTALL)
    assert found is not None, result.stdout[:2000]
    measured: dict[str, Any] = json.loads(found.group(1).replace("&quot;", '"'))
    return measured


@pytest.fixture(scope="module")
def two_benchmarks(demo_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("browser")
    other = root / "bench-seed1"
    generate(resolve_config("demo", seed=1, characters=3), other)
    big = RunConfig(bench=demo_bench, out=root / "demo-run", limit=60, systems=SYSTEMS)
    small = RunConfig(bench=other, out=root / "seed1-run", limit=20, systems=("full_context",))
    evaluate(big, progress=False)
    evaluate(small, progress=False)
    return [root / "demo-run", root / "seed1-run"]


def test_leaderboard_fits_1280_px_with_a_glossary_and_every_image_loaded(
    two_benchmarks: list[Path], tmp_path: Path
) -> None:
    index = build_report(two_benchmarks[:1], tmp_path / "one").index
    seen = _measure(index)
    assert seen["width"] == 1280
    assert seen["boards"], "no leaderboard table"
    for board in seen["boards"]:
        assert board["scroll"] <= board["client"], board  # no horizontal scroll bar
        assert board["right"] <= 1280, board
    assert seen["page"][0] <= seen["page"][1]  # nor on the page
    assert seen["images"] and all(i["complete"] and i["width"] > 0 for i in seen["images"])
    assert seen["glossary"] >= 7 + 10  # the families and the columns at least
    anchors = {f"#{a}" for a in seen["anchors"]}
    assert seen["terms"] and set(seen["terms"]) <= anchors  # every header link lands


def test_runs_on_different_benchmarks_get_one_leaderboard_each(
    two_benchmarks: list[Path], tmp_path: Path
) -> None:
    html = build_report(two_benchmarks, tmp_path / "both").index.read_text(encoding="utf-8")
    tables = re.findall(r'<table class="leaderboard" id="([^"]+)">(.*?)</table>', html, re.DOTALL)
    assert [t[0] for t in tables] == ["leaderboard-table", "leaderboard-table-2"]
    assert html.count('<td class="system">') == len(SYSTEMS) + 1
    assert "full_<wbr>context" in tables[1][1] and "rag_<wbr>bm25" not in tables[1][1]
    assert "different benchmarks" in html and "runs: seed1-run" in html


def test_one_number_format_and_legends(two_benchmarks: list[Path], tmp_path: Path) -> None:
    html = build_report(two_benchmarks[:1], tmp_path / "fmt").index.read_text(encoding="utf-8")
    board = re.search(r'<table class="leaderboard".*?</table>', html, re.DOTALL)
    assert board is not None
    numbers = re.findall(r'<td class="num">(\d+\.\d+)(?:<br>|</td>)', board.group(0))
    assert numbers and all(len(n.split(".")[1]) == 3 for n in numbers)
    assert "heuristic reader, not a" in html  # what `offline` is, said where it ranks
    assert 'class="legend">After each question, one' in html
    assert '<sup class="muted">1</sup>' in html  # each score carries its entry's number
    invalid = re.search(r'<table id="invalid-table">.*?</table>', html, re.DOTALL)
    assert invalid is not None and "per family" not in invalid.group(0)  # nothing to show
