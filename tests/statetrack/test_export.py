"""The exporter against the original release's layout (spec §11)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from umb import ConfigError
from umb.statetrack import Ladder, LadderOptions, build_ladder, export_original, parse_levels

# The file name and fact line as the spec gives them.
FILE = re.compile(
    r"^schema_longest_ladder_L(?P<level>\d{2})_tok(?P<tokens>\d{4,})_c(?P<c>\d+)_s(?P<s>\d+)"
    r"_f(?P<f>\d+)_n(?P<n>\d+)_seed(?P<seed>\d+)\.json$"
)
LINE = re.compile(r"^schema=【(?P<schema>.*?)】 \| day_ts=(?P<day>-?\d+) \| fact=(?P<fact>.*)$")
META_KEYS = {
    "seed", "token_char_ratio", "num_characters", "max_schemas_per_character",
    "max_facts_per_schema", "shuffle_facts", "chosen_characters", "chosen_schemas", "stats",
}  # fmt: skip


def spec_gold(prompt: str, people: list[str]) -> dict:
    """schema_longest as spec §11 states it, from the prompt text alone."""
    block = prompt.split("Now process the following facts:")[1]
    block = block.split("Make sure the output is in valid JSON format.")[0]
    groups: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for raw in block.strip().splitlines():
        m = LINE.match(raw)
        assert m, raw
        person = next((p for p in people if m["fact"].startswith(p)), None)
        if person is not None:
            groups.setdefault((person, m["schema"]), []).append((int(m["day"]), m["fact"]))
    out: dict = {}
    for (person, schema), facts in groups.items():
        facts.sort(key=lambda x: x[0])  # stable: ties keep input order
        answer = facts[0][1]
        if len({d for d, _ in facts}) > 1:
            best = -1
            for (d0, f0), (d1, _) in zip(facts, facts[1:], strict=False):
                if d1 - d0 > best:
                    best, answer = d1 - d0, f0
        out.setdefault(person, {"schema_longest": {}})["schema_longest"][schema] = answer
    return out


@pytest.fixture(scope="module")
def exported(dense_ladder: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("st-export")
    export_original(dense_ladder, out)
    return out


def test_file_names_and_sizes_follow_the_spec(dense_ladder: Path, exported: Path):
    files = sorted((exported / "fact_track_schema_longest").iterdir())
    ladder = Ladder.open(dense_ladder)
    assert [f.name[22:25] for f in files] == [lv.name for lv in ladder.levels()]
    for path in files:
        m = FILE.match(path.name)
        assert m, path.name
        lv = parse_levels(f"L{m['level']}")[0]
        assert (int(m["c"]), int(m["s"]), int(m["f"])) == (lv.characters, lv.schemas, lv.facts)
        samples = json.loads(path.read_text())
        assert isinstance(samples, list) and len(samples) == int(m["n"]) == 3
        assert int(m["seed"]) == 42
        tokens = [s["data"][0]["Stats"]["est_tokens"] for s in samples]
        assert int(m["tokens"]) == round(sum(tokens) / len(tokens))


def test_sample_records_follow_the_spec(exported: Path):
    for path in sorted((exported / "fact_track_schema_longest").iterdir()):
        for i, sample in enumerate(json.loads(path.read_text()), start=1):
            assert set(sample) == {"sample_id", "meta", "data"}
            assert sample["sample_id"] == f"s{i:06d}"
            meta = sample["meta"]
            assert set(meta) == META_KEYS and meta["token_char_ratio"] == 4.0
            assert meta["chosen_characters"] == sorted(meta["chosen_characters"])
            assert set(meta["chosen_schemas"]) == set(meta["chosen_characters"])
            (entry,) = sample["data"]
            assert set(entry) == {"Task", "Prompt", "GT", "Stats"}
            assert entry["Task"] == "schema_longest"
            prompt = entry["Prompt"]
            stats = entry["Stats"]
            assert stats == {
                "chars": len(prompt),
                "est_tokens": max(1, round(len(prompt) / 4)),
                "task": "schema_longest",
                "facts_lines": meta["stats"]["facts_lines"],
            }
            assert meta["stats"]["prompts"] == {
                "schema_longest": {"chars": len(prompt), "est_tokens": stats["est_tokens"]}
            }
            expected = (
                meta["num_characters"]
                * meta["max_schemas_per_character"]
                * meta["max_facts_per_schema"]
            )
            assert stats["facts_lines"] == expected
            assert entry["GT"] == spec_gold(prompt, meta["chosen_characters"])


def test_facts_json_is_copied_with_the_contract(dense_ladder: Path, exported: Path):
    assert (exported / "facts.json").read_bytes() == (dense_ladder / "facts.json").read_bytes()


def test_other_styles_export_with_day_ts_and_unknown_tasks_are_refused(
    dense_bench: Path, tmp_path: Path
):
    opts = LadderOptions(samples=1, dates="iso", order="shuffled", tasks=("latest",))
    build_ladder(dense_bench, tmp_path / "ladder", opts, parse_levels("L03"))
    with pytest.raises(ConfigError):
        export_original(tmp_path / "ladder", tmp_path / "out")
    (path,) = export_original(tmp_path / "ladder", tmp_path / "out", tasks=("latest",))
    assert path.name.startswith("latest_ladder_L03_tok")
    (sample,) = json.loads(path.read_text())
    assert sample["meta"]["shuffle_facts"] is True
    assert (
        "| day_ts=" in sample["data"][0]["Prompt"] and "| date=" not in sample["data"][0]["Prompt"]
    )
