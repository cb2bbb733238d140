"""The ladder: level configurations, exact sizes, shortfalls, options, determinism."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from umb import ConfigError
from umb._tokens import estimate_tokens
from umb.statetrack import LEVELS, Ladder, LadderOptions, build_ladder, parse_levels
from umb.statetrack._prompts import FACTS_END, FACTS_START

_LINE = re.compile(r"^schema=【(.+?)】 \| (day_ts|date|days_ago)=(\S+) \| fact=(.+)$")


def fact_lines(prompt: str) -> list[str]:
    block = prompt.split(FACTS_START, 1)[1].split(FACTS_END, 1)[0]
    return [line for line in block.splitlines() if line.strip()]


def test_the_34_configurations_of_the_original():
    assert len(LEVELS) == 34
    shape = {lv.name: (lv.characters, lv.schemas, lv.facts) for lv in LEVELS}
    assert shape["L01"] == (1, 1, 1) and shape["L10"] == (1, 1, 10)
    assert shape["L11"] == (1, 2, 10) and shape["L19"] == (1, 10, 10)
    assert shape["L20"] == (2, 10, 10) and shape["L28"] == (10, 10, 10)
    assert [shape[f"L{n}"][0] for n in range(29, 35)] == [15, 20, 25, 30, 35, 40]
    assert LEVELS[-1].lines == 4000


def test_level_selection_syntax():
    assert [lv.name for lv in parse_levels("L01-L03,20, 34")] == ["L01", "L02", "L03", "L20", "L34"]
    assert len(parse_levels("all")) == 34
    for bad in ("L35", "L05-L02", "x"):
        with pytest.raises(ConfigError):
            parse_levels(bad)


def test_every_sample_has_exactly_its_configured_lines_and_tokens(dense_ladder: Path):
    ladder = Ladder.open(dense_ladder)
    sizes = []
    for lv in ladder.levels():
        for sample in ladder.samples(lv):
            meta = sample["meta"]
            assert not meta["short"]
            shown = ladder.lines(sample)
            assert len(shown) == lv.lines == meta["stats"]["facts_lines"]
            per_group = Counter((f.character_id, f.schema) for f in shown)
            assert len({c for c, _ in per_group}) == lv.characters
            assert len(per_group) == lv.characters * lv.schemas
            assert set(per_group.values()) == {lv.facts}
            for (cid, schema), _ in per_group.items():
                # the first N facts of the schema in time order
                firsts = ladder.pool.groups[cid][schema][: lv.facts]
                assert [f for f in shown if (f.character_id, f.schema) == (cid, schema)] == sorted(
                    firsts, key=lambda f: f.day
                )
            for entry in sample["data"]:
                prompt = ladder.prompt(sample, entry)
                assert len(fact_lines(prompt)) == lv.lines
                assert all(_LINE.match(line) for line in fact_lines(prompt))
                assert entry["Stats"]["est_tokens"] == estimate_tokens(prompt)
                assert entry["Stats"]["chars"] == len(prompt)
            sizes.append((lv.lines, meta["stats"]["prompts"]["schema_longest"]["est_tokens"]))
    # Tokens grow with the configured number of lines, about linearly.
    by_lines = sorted(sizes)
    assert all(a[1] < b[1] for a, b in zip(by_lines, by_lines[1:], strict=False) if a[0] < b[0])
    (l1, t1), (l2, t2) = by_lines[0], by_lines[-1]
    per_line = (t2 - t1) / (l2 - l1)
    assert 10 < per_line < 40


def test_manifest_records_sizes_and_no_shortfall(dense_ladder: Path):
    manifest = json.loads((dense_ladder / "ladder.json").read_text())
    for row in manifest["levels"]:
        assert row["min_lines"] == row["max_lines"] == row["expected_lines"]
        assert row["short_samples"] == 0
        assert set(row["avg_est_tokens"]) == {"schema_longest", "latest", "value_at", "num_changes"}


def test_the_same_options_give_the_same_bytes(dense_bench: Path, tmp_path: Path):
    opts = LadderOptions(samples=2, seed=7)
    build_ladder(dense_bench, tmp_path / "a", opts, parse_levels("L05,L20"))
    build_ladder(dense_bench, tmp_path / "b", opts, parse_levels("L05,L20"))
    for name in ("facts.json", "facts.jsonl", "levels/L05.jsonl", "levels/L20.jsonl"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    build_ladder(dense_bench, tmp_path / "c", LadderOptions(samples=2, seed=8), parse_levels("L20"))
    assert (tmp_path / "a/levels/L20.jsonl").read_bytes() != (
        tmp_path / "c/levels/L20.jsonl"
    ).read_bytes()


def test_a_world_too_thin_for_a_level_is_flagged_short(demo_bench: Path, tmp_path: Path):
    manifest = build_ladder(
        demo_bench, tmp_path, LadderOptions(samples=2), parse_levels("L01,L10,L34")
    )
    rows = {r["level"]: r for r in manifest["levels"]}
    assert rows["L01"]["short_samples"] == 0
    # The 6-year demo world has no schema with 10 facts, and only 10 characters for L34's 40.
    assert rows["L10"]["eligible_characters"] == 0 and rows["L10"]["short_samples"] == 2
    assert rows["L10"]["max_lines"] < 10
    assert rows["L34"]["short_samples"] == 2 and rows["L34"]["max_lines"] < 4000
    ladder = Ladder.open(tmp_path)
    sample = next(ladder.samples(parse_levels("L34")[0]))
    assert sample["meta"]["short"] and sample["meta"]["stats"]["characters"] == 10
    assert sample["meta"]["num_characters"] == 40  # the configuration, as the original names it


def test_orders_dates_and_distractors(dense_bench: Path, tmp_path: Path):
    lv = parse_levels("L11")
    base = LadderOptions(samples=2, seed=3)
    variants = {
        "time": base,
        "shuffled": LadderOptions(samples=2, seed=3, order="shuffled"),
        "iso": LadderOptions(samples=2, seed=3, dates="iso"),
        "relative": LadderOptions(samples=2, seed=3, dates="relative"),
        "distract": LadderOptions(samples=2, seed=3, distractors=15),
    }
    got = {}
    for name, opts in variants.items():
        build_ladder(dense_bench, tmp_path / name, opts, lv)
        ladder = Ladder.open(tmp_path / name)
        sample = next(ladder.samples(lv[0]))
        got[name] = (ladder, sample, ladder.prompt(sample, sample["data"][0]))
    time_lines = [tuple(x) for x in got["time"][1]["lines"]]
    days = [got["time"][0].pool.index[k].day for k in time_lines]
    assert days == sorted(days)
    shuffled = [tuple(x) for x in got["shuffled"][1]["lines"]]
    assert sorted(shuffled) == sorted(time_lines) and shuffled != time_lines
    assert "random order" in got["shuffled"][2] and got["shuffled"][1]["meta"]["shuffle_facts"]
    assert all("| date=" in line for line in fact_lines(got["iso"][2]))
    rel = fact_lines(got["relative"][2])
    assert any("| days_ago=0 |" in line for line in rel)
    assert all(int(_LINE.match(line).group(3)) >= 0 for line in rel)  # type: ignore[union-attr]
    for a, b in zip(got["iso"][1]["data"], got["time"][1]["data"], strict=True):
        assert (a["GT"], a["Accept"], a["Query"]) == (b["GT"], b["Accept"], b["Query"])
    ladder, sample, prompt = got["distract"]
    others = [
        k
        for k in sample["lines"]
        if ladder.pool.names[k[0]] not in sample["meta"]["chosen_characters"]
    ]
    assert len(others) == 15 == sample["meta"]["stats"]["distractor_lines"]
    assert len(sample["lines"]) == 20 + 15  # L11: 1 × 2 × 10
    assert set(sample["data"][0]["GT"]) == set(sample["meta"]["chosen_characters"])
    assert "ignore them" in prompt
