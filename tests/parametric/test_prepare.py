"""Project preparation: stages, splits, windows, records and their gold outputs."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from umb import ConfigError, DataError
from umb._tokens import estimate_tokens
from umb.bench import Benchmark
from umb.parametric import PrepareConfig, Project, prepare
from umb.parametric import _layout as L
from umb.parametric._chunks import chunk_lines, dialogue_lines
from umb.parametric._records import answer_object, render_output, upweight
from umb.parametric._stages import assign_stages, split_sizes
from umb.scoring import score_reply


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def project(small_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("proj") / "p"
    prepare(small_bench, out, PrepareConfig(stages=2, max_chunk_tokens=200, overlap_tokens=60,
                                            train_ratio=0.67, control_ratio=0.25))  # fmt: skip
    return out


def test_stage_assignment_is_seeded_and_balanced() -> None:
    ids = [f"D{i:04d}" for i in range(1, 24)]
    stages = assign_stages(ids, 5, seed=42)
    assert sorted(stages) == ids
    sizes = Counter(stages.values())
    assert set(sizes) == {1, 2, 3, 4, 5} and max(sizes.values()) - min(sizes.values()) <= 1
    assert assign_stages(list(reversed(ids)), 5, seed=42) == stages
    assert assign_stages(ids, 5, seed=43) != stages


@pytest.mark.parametrize(
    ("n", "train", "control", "expected"),
    [(100, 0.8, 0.1, (72, 18, 10)), (4, 0.67, 0.25, (2, 1, 1)), (3, 0.5, 0.34, (1, 1, 1)),
     (2, 0.8, 0.1, (1, 1, 0)), (1, 0.8, 0.1, (1, 0, 0)), (10, 1.0, 0.0, (10, 0, 0))],
)  # fmt: skip
def test_split_sizes(n: int, train: float, control: float, expected: tuple[int, int, int]) -> None:
    assert split_sizes(n, train, control) == expected


def test_splits_decide_what_is_trained(project: Path) -> None:
    rows = json.loads((project / L.DIALOGUE_ASSIGNMENTS).read_text())
    split_of = {r["dialogue_id"]: r["split"] for r in rows}
    assert set(split_of.values()) == {"seen", "held_out", "control"}
    for stage in (1, 2):
        pt = {r["metadata"]["dialogue_id"] for r in _jsonl(project / L.pt_file(stage))}
        sft = {r["metadata"]["dialogue_id"] for r in _jsonl(project / L.sft_file(stage))}
        assert {split_of[d] for d in pt} == {"seen", "held_out"}
        assert {split_of[d] for d in sft} == {"seen"}
        for split in ("seen", "held_out", "control"):
            ids = {
                r["metadata"]["dialogue_id"] for r in _jsonl(project / L.eval_file(stage, split))
            }
            assert ids and {split_of[d] for d in ids} == {split}
    # The control's dialogues appear in no training file at all, not even as text.
    control = [d for d, s in split_of.items() if s == "control"]
    train_text = "".join((project / L.pt_file(s)).read_text() for s in (1, 2))
    train_text += "".join((project / L.sft_file(s)).read_text() for s in (1, 2))
    for dialogue_id in control:
        assert f'"{dialogue_id}"' not in train_text


def test_control_text_never_reaches_training(project: Path, small_bench: Path) -> None:
    rows = json.loads((project / L.DIALOGUE_ASSIGNMENTS).read_text())
    control = {r["dialogue_id"] for r in rows if r["split"] == "control"}
    train_text = "".join(
        (project / name).read_text() for s in (1, 2) for name in (L.pt_file(s), L.sft_file(s))
    )
    for d in Benchmark.open(small_bench).iter_dialogues():
        if d.id in control:
            # Assistant turns are specific to the character; none may leak into training text.
            lines = [t.text for t in d.turns() if t.role == "assistant" and len(t.text) > 60]
            assert lines and not any(json.dumps(x)[1:-1] in train_text for x in lines)


def test_windows_snap_to_turns_and_respect_budgets(small_bench: Path) -> None:
    dialogue = next(Benchmark.open(small_bench).iter_dialogues())
    lines = dialogue_lines(dialogue, "session")
    windows = chunk_lines(lines, mode="sliding_window", max_tokens=150, overlap_tokens=40)
    assert windows[0].start == 0 and windows[-1].end == len(lines)
    for prev, w in zip(windows, windows[1:], strict=False):
        assert prev.start < w.start <= prev.end  # progress, no gap
        shared = sum(estimate_tokens(lines[i].text) + 1 for i in range(w.start, prev.end))
        assert shared <= 40
    for w in windows:
        assert w.text.startswith("[Session ")  # every window carries its session date
        body = [x for x in w.text.split("\n") if x and not x.startswith("[Session ")]
        assert body == [lines[i].text for i in range(w.start, w.end)]
        assert w.end - w.start == 1 or w.approx_tokens <= 150 + 8
    one = chunk_lines(lines, mode="turn_overlap", max_tokens=150, overlap_tokens=0)
    assert all(b.start == a.end - 1 for a, b in zip(one, one[1:], strict=False))
    role = dialogue_lines(dialogue, "role")
    assert role[0].text.startswith(("user: ", "assistant: ")) and not role[0].session_header


def test_gold_outputs_are_family_json_that_scores_full(small_bench: Path) -> None:
    for q in Benchmark.open(small_bench).questions:
        text, spans = render_output(q)
        assert json.loads(text) == answer_object(q)
        assert text == json.dumps(answer_object(q), ensure_ascii=False)
        values = json.dumps(answer_object(q), ensure_ascii=False)
        for a, b in spans:
            assert values[a:b] and values[a:b] in text
        _, score = score_reply(q, text)
        assert score.value == 1.0, (q.id, score.details)


def test_sft_and_eval_records(project: Path) -> None:
    sft = _jsonl(project / L.sft_file(1))
    seen = {r["metadata"]["question_id"]: r for r in _jsonl(project / L.eval_file(1, "seen"))}
    assert sft and len(sft) == len(seen)
    for r in sft:
        meta = r["metadata"]
        assert meta["training_mode"] == "qa_sft" and r["input"] == meta["query"]
        assert json.loads(r["output"])  # the family JSON
        ev = seen[meta["question_id"]]
        assert ev["prompt"] == f"{r['instruction']}\n{r['input']}"  # trained prompt == eval prompt
        assert ev["metadata"]["output"] == r["output"]
        assert ev["id"].startswith(f"{meta['dialogue_id']}::{meta['task_type']}::")
    held = _jsonl(project / L.EVAL_ALL_HELD_OUT)
    assert len(held) == sum(len(_jsonl(project / L.eval_file(s, "held_out"))) for s in (1, 2))
    items = Project.open(project).eval_items(1, "seen")
    assert {i.question.id for i in items} == set(seen)


def test_upweighting_matches_the_original_rule(small_bench: Path) -> None:
    qs = [q for q in Benchmark.open(small_bench).questions if q.dialogue_id == "D0001"]
    picked = upweight(qs, 24)
    assert len(picked) == 24
    assert picked[0][0].family == "TR"  # the heaviest family comes first
    assert Counter(copy for _, copy in picked)[0] == len(qs)
    cut = upweight(qs, 3)
    assert [q.family for q, _ in cut] == ["TR", "TR", "TR"]


def test_fact_records_and_text_style(small_bench: Path, tmp_path: Path) -> None:
    config = PrepareConfig(stages=1, pt_mode="facts", pt_record_style="text",
                           pt_header_style="structured", families=("IE", "TR"))  # fmt: skip
    prepare(small_bench, tmp_path, config)
    pt = _jsonl(tmp_path / L.pt_file(1))
    bench = Benchmark.open(small_bench)
    facts = {f.text for f in bench.facts.values()}
    assert pt and all(set(r) == {"text", "metadata"} for r in pt)
    assert all(r["text"].split("\n")[-1] in facts for r in pt)
    assert pt[0]["text"].startswith("Character: ")
    families = {r["metadata"]["task_type"] for r in _jsonl(tmp_path / L.sft_file(1))}
    assert families == {"IE", "TR"}


def test_bad_settings_are_refused(small_bench: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        PrepareConfig(stages=0)
    with pytest.raises(ConfigError):
        PrepareConfig(overlap_tokens=5000)
    with pytest.raises(ConfigError):
        PrepareConfig(families=("XX",))
    with pytest.raises(DataError):
        prepare(small_bench, tmp_path, PrepareConfig(stages=50))


def test_prepare_is_deterministic(small_bench: Path, project: Path, tmp_path: Path) -> None:
    prepare(small_bench, tmp_path, PrepareConfig(stages=2, max_chunk_tokens=200, overlap_tokens=60,
                                                 train_ratio=0.67, control_ratio=0.25))  # fmt: skip
    a = json.loads((project / L.PROJECT_FILE).read_text())["files"]
    b = json.loads((tmp_path / L.PROJECT_FILE).read_text())["files"]
    assert a == b


def test_public_api() -> None:
    import umb.parametric as api

    assert sorted(api.__all__) == sorted(
        ["METRICS", "PRESETS", "SPLITS", "EvalConfig", "EvalItem", "Preset", "PrepareConfig",
         "Project", "RetentionConfig", "SplitRetention", "TinyModelConfig", "TrainConfig",
         "check_llamafactory", "dataset_info", "evaluate", "prepare", "retention", "run_preset",
         "train", "write_retention"]
    )  # fmt: skip
    assert all(hasattr(api, name) for name in api.__all__)
