"""The LLaMA-Factory files, checked against the fields its data README documents.

LLaMA-Factory itself is not installed, so the test reads the files the way it does: the
``dataset_info.json`` entry (``file_name`` relative to the dataset dir, ``formatting``,
``columns`` mapping roles to record keys) and, for alpaca data, a prompt built from the
``prompt`` and ``query`` columns joined by a newline and a ``response`` column.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from umb.parametric import PrepareConfig, check_llamafactory, prepare

DOCUMENTED_ENTRY_KEYS = {
    "hf_hub_url", "ms_hub_url", "script_url", "file_name", "file_sha1", "formatting", "ranking",
    "subset", "folder", "split", "num_samples", "columns", "tags",
}  # fmt: skip
DOCUMENTED_COLUMNS = {
    "prompt", "query", "response", "history", "messages", "system", "tools", "images", "videos",
    "audios", "chosen", "rejected", "kto_tag",
}  # fmt: skip


def _load_like_llamafactory(root: Path, name: str) -> list[tuple[str, str]]:
    """(prompt, response) pairs as LLaMA-Factory's alpaca converter builds them."""
    entry = json.loads((root / "dataset_info.json").read_text())[name]
    columns = entry.get(
        "columns", {"prompt": "instruction", "query": "input", "response": "output"}
    )
    out = []
    for line in (root / entry["file_name"]).read_text().splitlines():
        record = json.loads(line)
        parts = [
            record[columns[k]] for k in ("prompt", "query") if k in columns and record[columns[k]]
        ]
        out.append(("\n".join(parts), record.get(columns.get("response", ""), "")))
    return out


@pytest.mark.parametrize("style", ["alpaca", "text"])
def test_dataset_info_follows_the_documented_fields(
    small_bench: Path, tmp_path: Path, style: str
) -> None:
    config = PrepareConfig(stages=2, max_chunk_tokens=300, overlap_tokens=50)
    prepare(small_bench, tmp_path, replace(config, pt_record_style=style))
    info = json.loads((tmp_path / "dataset_info.json").read_text())
    assert set(info) == {"umb_stage_01_pt", "umb_stage_01_qa_sft", "umb_stage_02_pt",
                         "umb_stage_02_qa_sft"}  # fmt: skip
    for name, entry in info.items():
        assert set(entry) <= DOCUMENTED_ENTRY_KEYS
        assert entry.get("formatting", "alpaca") == "alpaca"
        assert set(entry["columns"]) <= DOCUMENTED_COLUMNS
        assert (tmp_path / entry["file_name"]).suffix == ".jsonl"
        pairs = _load_like_llamafactory(tmp_path, name)
        assert pairs and all(prompt for prompt, _ in pairs)
        if name.endswith("_qa_sft"):
            assert all(json.loads(response) for _, response in pairs)
            lines = (tmp_path / entry["file_name"]).read_text().splitlines()
            for (prompt, _), line in zip(pairs, lines, strict=True):
                assert prompt.endswith("\n" + json.loads(line)["input"])
        elif style == "text":
            assert entry["columns"] == {"prompt": "text"}
        else:
            # Pre-training trains on the prompt: header and dialogue window together.
            assert all("\n" in prompt and "[Session " in prompt for prompt, _ in pairs)
    assert check_llamafactory(tmp_path) == []


def test_checker_finds_what_would_break_loading(small_bench: Path, tmp_path: Path) -> None:
    prepare(small_bench, tmp_path, PrepareConfig(stages=1))
    info_path = tmp_path / "dataset_info.json"
    info = json.loads(info_path.read_text())
    info["umb_stage_01_pt"]["format"] = "alpaca"  # misspelt key
    info["umb_stage_01_qa_sft"]["columns"]["answer"] = "output"  # not a role
    info["missing"] = {"file_name": "nope.jsonl"}
    info["weird"] = {"file_name": "train_pt/stage_01_pt.jsonl", "formatting": "csv"}
    info_path.write_text(json.dumps(info))
    sft = tmp_path / "train_qa_sft" / "stage_01.jsonl"
    lines = sft.read_text().splitlines()
    bad = json.loads(lines[1])
    bad["metadata"]["dialogue_stage"] = "one"  # a column whose type changes breaks the table
    bad["output"] = {"answer": "x"}
    sft.write_text("\n".join([lines[0], json.dumps(bad), *lines[2:]]) + "\n")
    problems = "\n".join(check_llamafactory(tmp_path))
    assert "undocumented key 'format'" in problems
    assert "unknown column role 'answer'" in problems
    assert "nope.jsonl does not exist" in problems
    assert "formatting 'csv'" in problems
    assert "response column 'output' is not a string" in problems
    assert "metadata.dialogue_stage mixes" in problems
