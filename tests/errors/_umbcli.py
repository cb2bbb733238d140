"""Run ``umb`` in-process through its real entry point, and corrupt benchmark copies."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from umb._cli.main import main


def umb(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """``umb ARGS`` via :func:`umb._cli.main.main`: (exit status, stdout, stderr)."""
    argv = sys.argv
    sys.argv = ["umb", *map(str, args)]
    try:
        main()
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    finally:
        sys.argv = argv
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    """The single ``umb: error:`` line of ``err``; fails on a traceback or several lines."""
    lines = err.strip().splitlines()
    assert "Traceback" not in err, err
    assert len(lines) == 1, err
    assert lines[0].startswith("umb: error: "), err
    return lines[0]


def copy_bench(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def write_lines(path: Path, records: list[Any]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def edit_line(path: Path, index: int, **fields: Any) -> None:
    """Set ``fields`` on record ``index`` (0-based) of a JSONL file."""
    records = lines(path)
    records[index].update(fields)
    write_lines(path, records)
