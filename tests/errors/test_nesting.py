"""JSON nested deeper than umb reads: one line ``file:line: nested too deeply (limit N)``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import pytest
from _umbcli import one_error_line, umb

from umb import DataError
from umb._jsonio import MAX_NESTING, iter_jsonl, iter_typed, nesting_depth, read_json


def _nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


@dataclass
class Loose:
    id: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Fixed:
    id: str


def test_depth_counts_brackets_outside_strings_only() -> None:
    assert nesting_depth(b'{"a": [1, {"b": []}]}') == 4
    assert nesting_depth(b'{"a": "' + b"[" * 500 + b'"}') == 1
    assert nesting_depth(b'{"a": "\\"' + b"[" * 500 + b'"}') == 1  # an escaped quote
    assert nesting_depth(_nested(100_000)) == 100_000


@pytest.mark.parametrize("kind", [Loose, Fixed])
def test_the_limit_is_exact_for_any_json_and_holds_for_fixed_types(
    kind: type, tmp_path: Path
) -> None:
    path = tmp_path / "x.jsonl"
    inner = MAX_NESTING - 2  # the record's object and the "extra" object hold it
    path.write_bytes(b'{"id": "a", "extra": {"k": ' + _nested(inner) + b"}}\n")
    assert [r.id for _, r in iter_typed(path, kind)] == ["a"]
    for depth in (inner + 1, 100_000):
        path.write_bytes(b'{"id": "a"}\n{"id": "b", "extra": {"k": ' + _nested(depth) + b"}}\n")
        if kind is Fixed and depth == inner + 1:
            # no field of any JSON: the unknown field is skipped, and nothing deep is kept
            assert [r.id for _, r in iter_typed(path, kind)] == ["a", "b"]
            continue
        too_deep = rf"x.jsonl:2: nested too deeply \(limit {MAX_NESTING}\)"
        with pytest.raises(DataError, match=too_deep):
            list(iter_typed(path, kind))


def test_plain_json_readers_refuse_deep_documents(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    path.write_bytes(b'{"a":\n' + _nested(MAX_NESTING) + b"}")
    with pytest.raises(DataError, match=r"doc.json:2: nested too deeply"):
        read_json(path)
    path.write_bytes(b"[]\n" + _nested(MAX_NESTING + 1) + b"\n")
    with pytest.raises(DataError, match=r"doc.json:2: nested too deeply"):
        list(iter_jsonl(path))
    path.write_bytes(_nested(MAX_NESTING))
    assert orjson.dumps(read_json(path)) == _nested(MAX_NESTING)  # what is read can be written


def test_a_deep_peer_file_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "locomo.json"
    path.write_bytes(_nested(100_000))
    code, _, err = umb(capsys, "import", "locomo", path, "--out", tmp_path / "out")
    assert code == 2
    assert one_error_line(err).endswith(f"locomo.json:1: nested too deeply (limit {MAX_NESTING})")
