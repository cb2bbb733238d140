"""Broken or misdirected peer files: one line naming the file (and the line and column of a
JSON syntax error), what was expected, and the right importer when it is another peer's file."""

from __future__ import annotations

from pathlib import Path

import pytest
from _umbcli import one_error_line, umb

from umb import export_benchmark

PEERS = ("locomo", "longmemeval", "umb-release")


@pytest.fixture(scope="module")
def peer_files(demo_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The demo benchmark exported to each peer's format (valid files to start from)."""
    root = tmp_path_factory.mktemp("peers")
    out = {}
    for peer in PEERS:
        out[peer] = root / f"{peer}.json"
        export_benchmark(demo_bench, peer, out[peer])
    return out


def _import(capsys: pytest.CaptureFixture[str], peer: str, path: Path, out: Path) -> str:
    code, _, err = umb(capsys, "import", peer, path, "--out", out)
    assert code == 2, err
    assert not (out / "manifest.json").exists()
    return one_error_line(err)


@pytest.mark.parametrize("peer", PEERS)
@pytest.mark.parametrize(
    ("content", "found"),
    [(b"", "empty file"), (b"  \n\t\n", "empty file"), (b"[1,2,3]", "a list of 3 item(s) (int)"),
     (b"[]", "an empty list"), (b'"text"', "a JSON str")],
)  # fmt: skip
def test_empty_or_wrong_shaped_files_are_refused(
    peer: str, content: bytes, found: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "peer.json"
    path.write_bytes(content)
    line = _import(capsys, peer, path, tmp_path / "out")
    assert str(path) in line and found in line, line
    assert "is a JSON list" in line, line  # says what was expected


@pytest.mark.parametrize("peer", PEERS)
def test_a_syntax_error_is_reported_at_its_line_and_column(
    peer: str, peer_files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = peer_files[peer].read_bytes().split(b"\n")
    target = len(rows) * 2 // 3  # deep inside the file, as the defects were
    while not rows[target].rstrip().endswith(b","):
        target += 1
    rows[target] = rows[target].rstrip()[:-1]  # drop a comma between two values
    path = tmp_path / "broken.json"
    path.write_bytes(b"\n".join(rows))
    line = _import(capsys, peer, path, tmp_path / "out")
    assert f"{path}:{target + 2}: invalid JSON at column " in line, line


@pytest.mark.parametrize("given", PEERS)
@pytest.mark.parametrize("command", PEERS)
def test_another_peers_file_names_the_right_importer(
    given: str,
    command: str,
    peer_files: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if given == command:
        code, _, err = umb(capsys, "import", command, peer_files[given], "--out", tmp_path / "o")
        assert code == 0, err
        return
    line = _import(capsys, command, peer_files[given], tmp_path / "out")
    assert f"this looks like a {given} file: use `umb import {given}`" in line, line
