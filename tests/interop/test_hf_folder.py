"""``umb export --format hf`` / ``umb import hf``: the folder loads with ``datasets``, its
Croissant validates with ``mlcroissant``, the card is complete and the round trip is exact."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyarrow", reason="the hub extra (pyarrow) is not installed")
datasets = pytest.importorskip("datasets", reason="the hub extra (datasets) is not installed")

import yaml  # noqa: E402 - a dependency of datasets

from umb.bench import Benchmark, benchmark_stats  # noqa: E402
from umb.bench._validate import validate  # noqa: E402
from umb.interop.hf._card import manifest_leaves  # noqa: E402
from umb.interop.hf._export import export_hf  # noqa: E402
from umb.interop.hf._import import import_hf  # noqa: E402

RECORD_FILES = ("manifest.json", "world.json", "dialogues.jsonl", "questions.jsonl", "facts.jsonl")


@pytest.fixture(scope="module")
def demo_hf(demo_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hf") / "umb-demo-hf"
    log = export_hf(demo_bench, out)
    assert log.entries == []
    return out


def _manifest(bench: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((bench / "manifest.json").read_text())
    return data


def _load(folder: Path, config: str, cache: Path) -> Any:
    return datasets.load_dataset(str(folder), config, split="test", cache_dir=str(cache))


def test_load_dataset_questions_and_dialogues(
    demo_bench: Path, demo_hf: Path, tmp_path: Path
) -> None:
    counts = _manifest(demo_bench)["counts"]
    questions = _load(demo_hf, "questions", tmp_path)
    dialogues = _load(demo_hf, "dialogues", tmp_path)
    assert questions.num_rows == counts["questions"] > 100
    assert dialogues.num_rows == counts["dialogues"] == 10
    assert sum(len(d["sessions"]) for d in dialogues) == counts["sessions"]

    # Typed features: nested turns are lists of structs, not JSON strings.
    string = datasets.Value("string")
    assert questions.features["evidence"]["turn_ids"] == datasets.List(string)
    sessions = dialogues.features["sessions"]
    assert isinstance(sessions, datasets.List) and isinstance(
        sessions.feature["turns"], datasets.List
    )
    assert sessions.feature["turns"].feature["text"] == string
    assert sessions.feature["turns"].feature["fact_ids"] == datasets.List(string)

    turns = {t["id"]: t for d in dialogues for s in d["sessions"] for t in s["turns"]}
    original = {
        t["id"]: t["text"]
        for line in (demo_bench / "dialogues.jsonl").open()
        for s in json.loads(line)["sessions"]
        for t in s["turns"]
    }
    q = next(q for q in questions if q["family"] == "IE")
    assert q["evidence"]["turn_ids"]
    for turn_id in q["evidence"]["turn_ids"]:
        assert turns[turn_id]["text"] == original[turn_id]
    stated = {f for i in q["evidence"]["turn_ids"] for f in turns[i]["fact_ids"]}
    assert set(q["evidence"]["fact_ids"]) & stated
    assert json.loads(q["gold"])["answer"] == q["answer"]


def test_every_config_loads_with_the_manifest_counts(
    demo_bench: Path, demo_hf: Path, tmp_path: Path
) -> None:
    counts = _manifest(demo_bench)["counts"]
    sessions = _load(demo_hf, "sessions", tmp_path)
    assert sessions.num_rows == counts["sessions"]
    assert sum(len(s["turns"]) for s in sessions) == counts["turns"]
    assert _load(demo_hf, "facts", tmp_path).num_rows == counts["facts"]
    world = _load(demo_hf, "world", tmp_path)
    assert world.num_rows == counts["dialogues"]
    events = json.loads((demo_bench / "world.json").read_text())["events"]
    assert sum(len(c["events"]) for c in world) == len(events)


def test_croissant_validates_and_every_record_set_iterates(demo_bench: Path, demo_hf: Path) -> None:
    mlc = pytest.importorskip("mlcroissant", reason="the hub extra (mlcroissant) is not installed")
    ds = mlc.Dataset(demo_hf / "croissant.json")
    assert ds.metadata.ctx.issues.errors == set()
    counts = _manifest(demo_bench)["counts"]
    expected = {
        "dialogues": counts["dialogues"],
        "sessions": counts["sessions"],
        "questions": counts["questions"],
        "facts": counts["facts"],
        "world": counts["dialogues"],
    }
    seen = {}
    for rs in ds.metadata.record_sets:
        records = list(ds.records(rs.uuid))
        seen[rs.uuid] = len(records)
    assert seen == expected
    first_turn = next(iter(ds.records("sessions")))["sessions/turns"][0]
    assert first_turn["sessions/turns/id"] == b"D0001:S001:T0001"


def test_round_trip_is_byte_identical_and_valid(
    demo_bench: Path, demo_hf: Path, tmp_path: Path
) -> None:
    back = tmp_path / "back"
    manifest = import_hf(demo_hf, back)
    assert manifest == _manifest(demo_bench)
    for name in RECORD_FILES:
        assert (back / name).read_bytes() == (demo_bench / name).read_bytes(), name
    assert validate(back) == []


def test_shards_stay_under_the_limit_and_still_round_trip(demo_bench: Path, tmp_path: Path) -> None:
    limit_mb = 0.05
    out = tmp_path / "sharded"
    export_hf(demo_bench, out, max_shard_mb=limit_mb)
    shards = {p.parent.name: [] for p in out.glob("data/*/*.parquet")}
    for p in out.glob("data/*/*.parquet"):
        shards[p.parent.name].append(p)
        assert p.stat().st_size < limit_mb * (1 << 20), p
    assert min(len(v) for v in shards.values()) > 1
    n = len(shards["questions"])
    assert sorted(p.name for p in shards["questions"]) == [
        f"test-{i:05d}-of-{n:05d}.parquet" for i in range(n)
    ]
    assert (
        _load(out, "questions", tmp_path).num_rows == _manifest(demo_bench)["counts"]["questions"]
    )
    back = tmp_path / "back"
    import_hf(out, back)
    for name in RECORD_FILES:
        assert (back / name).read_bytes() == (demo_bench / name).read_bytes(), name


def _front_matter(card: str) -> dict[str, Any]:
    head, sep, _ = card.removeprefix("---\n").partition("\n---\n")
    assert sep, "no YAML front matter"
    data: dict[str, Any] = yaml.safe_load(head)
    return data


def test_card_renders_every_manifest_field_and_no_placeholder(
    demo_bench: Path, demo_hf: Path
) -> None:
    card = (demo_hf / "README.md").read_text()
    meta = _front_matter(card)
    assert meta["license"] == "cc-by-4.0" and meta["language"] == ["en"]
    assert "question-answering" in meta["task_categories"]
    assert meta["size_categories"] == ["1K<n<10K"]  # facts: 1,750 rows
    assert [c["config_name"] for c in meta["configs"]] == [
        "dialogues", "sessions", "questions", "facts", "world",
    ]  # fmt: skip
    info = {c["config_name"]: c for c in meta["dataset_info"]}
    assert info["questions"]["splits"] == [
        {
            "name": "test",
            "num_bytes": info["questions"]["dataset_size"],
            "num_examples": _manifest(demo_bench)["counts"]["questions"],
        }
    ]
    manifest = _manifest(demo_bench)
    leaves = list(manifest_leaves(manifest))
    assert len(leaves) > 30
    for key, shown in leaves:
        assert f"| `{key}` | {shown} |" in card, key
    for family, n in manifest["counts"]["questions_per_family"].items():
        assert f"| `{family}` |" in card and f"| {n:,} |" in card
    assert "umb generate --preset demo --characters 10 --seed 0" in card
    # The vectorised counts of the export agree with `umb stats`.
    stats = benchmark_stats(Benchmark.open(demo_bench))
    for key in ("tokens_per_dialogue", "sessions_per_dialogue", "turns_per_dialogue"):
        s = stats[key]
        row = f"| {key.replace('_', ' ')} | {s['min']:,} | {s['mean']:,} | {s['max']:,} |"
        assert row in card, key
    assert "```bibtex\n@misc{umb_demo_seed0," in card
    body = card.split("\n---\n", 1)[1]
    for placeholder in ("More Information Needed", "TODO", "TBD", "{%", "None", "PATH"):
        assert placeholder not in body, placeholder
    # No template or f-string field left unfilled (bibtex's {{Title}} is not one).
    assert re.search(r"\{\{\s*\w+\s*\}\}|\{[a-z_]+\}", body) is None
    assert "| (none) |" not in body.replace("`sessions.rendered_by`", "")


def test_benchmark_without_world_or_facts(umb_bench: Path, tmp_path: Path) -> None:
    out = tmp_path / "hf"
    export_hf(umb_bench, out, license="apache-2.0")
    assert not (out / "data" / "world").exists()
    meta = _front_matter((out / "README.md").read_text())
    assert meta["license"] == "apache-2.0"
    assert "world" not in [c["config_name"] for c in meta["configs"]]
    back = tmp_path / "back"
    import_hf(out, back)
    for name in ("manifest.json", "dialogues.jsonl", "questions.jsonl", "facts.jsonl"):
        assert (back / name).read_bytes() == (umb_bench / name).read_bytes(), name


def test_imported_peer_keeps_its_license_and_sidecar(locomo_bench: Path, tmp_path: Path) -> None:
    out = tmp_path / "locomo-hf"
    export_hf(locomo_bench, out)
    card = (out / "README.md").read_text()
    assert _front_matter(card)["license"] == "cc-by-nc-4.0"
    assert "umb import locomo locomo10.json -o bench" in card
    assert "None" not in card.split("\n---\n", 1)[1]  # an import has no seed to print
    back = tmp_path / "back"
    import_hf(out, back)
    for name in ("manifest.json", "native.json", "dialogues.jsonl", "questions.jsonl"):
        assert (back / name).read_bytes() == (locomo_bench / name).read_bytes(), name
    assert validate(back) == []
