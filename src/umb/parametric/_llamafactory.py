"""LLaMA-Factory's ``dataset_info.json`` for a project, and a checker of its documented rules.

LLaMA-Factory reads a dataset directory through ``dataset_info.json``: one entry per dataset
with ``file_name`` (relative to that directory), ``formatting`` (``alpaca`` or ``sharegpt``) and
``columns`` mapping its roles (``prompt``, ``query``, ``response``, …) to record keys. Alpaca
pre-training data maps only the text columns: LLaMA-Factory trains on the prompt (instruction
and input joined by a newline). Files are read with the ``datasets`` JSON loader, so every
record of a file must have the same keys with the same JSON types (null allowed).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from umb._errors import DataError
from umb._jsonio import iter_jsonl, read_json
from umb.parametric import _layout as L

#: Entry keys the LLaMA-Factory data README documents.
ENTRY_KEYS: Final = frozenset(
    {
        "hf_hub_url", "ms_hub_url", "script_url", "file_name", "file_sha1", "formatting",
        "ranking", "subset", "folder", "split", "num_samples", "columns", "tags",
    }
)  # fmt: skip
SOURCE_KEYS: Final = ("hf_hub_url", "ms_hub_url", "script_url", "file_name")
COLUMN_KEYS: Final = frozenset(
    {
        "prompt", "query", "response", "history", "messages", "system", "tools", "images",
        "videos", "audios", "chosen", "rejected", "kto_tag",
    }
)  # fmt: skip
ALPACA_DEFAULTS: Final = {"prompt": "instruction", "query": "input", "response": "output"}
FILE_SUFFIXES: Final = (".json", ".jsonl", ".csv", ".parquet", ".arrow", ".txt")

_ALPACA_COLUMNS: Final = {"prompt": "instruction", "query": "input", "response": "output"}


def dataset_info(
    stages: int, pt_record_style: str, nonempty: Iterable[tuple[int, str]]
) -> dict[str, Any]:
    """The ``dataset_info.json`` object registering each stage's non-empty training files.

    Args:
        stages: Number of stages.
        pt_record_style: ``alpaca`` (instruction/input/output) or ``text``.
        nonempty: ``(stage, kind)`` pairs with records; ``kind`` is ``pt`` or ``qa_sft``
            (LLaMA-Factory refuses empty datasets, so empty files are left unregistered).
    """
    have = set(nonempty)
    info: dict[str, Any] = {}
    for stage in range(1, stages + 1):
        if (stage, "pt") in have:
            columns = dict(_ALPACA_COLUMNS) if pt_record_style == "alpaca" else {"prompt": "text"}
            info[L.dataset_name(stage, "pt")] = {
                "file_name": L.pt_file(stage),
                "formatting": "alpaca",
                "columns": columns,
            }
        if (stage, "qa_sft") in have:
            info[L.dataset_name(stage, "qa_sft")] = {
                "file_name": L.sft_file(stage),
                "formatting": "alpaca",
                "columns": dict(_ALPACA_COLUMNS),
            }
    return info


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "object"
    return "null"


def _collect_types(value: Any, path: str, types: dict[str, set[str]]) -> None:
    kind = _json_type(value)
    if kind == "null":
        return
    types.setdefault(path, set()).add(kind)
    if kind == "object":
        for key, item in value.items():
            _collect_types(item, f"{path}.{key}", types)
    elif kind == "list":
        for item in value:
            _collect_types(item, f"{path}[]", types)


def _check_entry(root: Path, name: str, entry: Any) -> list[str]:
    if not isinstance(entry, dict):
        return [f"{name}: entry is not an object"]
    problems = [f"{name}: undocumented key {k!r}" for k in sorted(set(entry) - ENTRY_KEYS)]
    if not any(k in entry for k in SOURCE_KEYS):
        problems.append(f"{name}: needs one of {', '.join(SOURCE_KEYS)}")
    formatting = entry.get("formatting", "alpaca")
    if formatting not in ("alpaca", "sharegpt"):
        problems.append(f"{name}: formatting {formatting!r} is not alpaca or sharegpt")
    columns = entry.get("columns", {} if formatting == "sharegpt" else ALPACA_DEFAULTS)
    if not isinstance(columns, dict):
        return [*problems, f"{name}: columns is not an object"]
    problems += [f"{name}: unknown column role {k!r}" for k in sorted(set(columns) - COLUMN_KEYS)]
    if "file_name" not in entry:
        return problems
    path = root / str(entry["file_name"])
    if path.suffix not in FILE_SUFFIXES:
        problems.append(f"{name}: file type {path.suffix!r} is not one LLaMA-Factory reads")
    if not path.is_file():
        return [*problems, f"{name}: file {entry['file_name']} does not exist"]
    if formatting == "alpaca":
        problems += _check_alpaca_file(name, path, columns)
    return problems


def _check_alpaca_file(name: str, path: Path, columns: dict[str, str]) -> list[str]:
    problems: list[str] = []
    keys: set[str] | None = None
    types: dict[str, set[str]] = {}
    count = 0
    try:
        record: Any
        for lineno, record in iter_jsonl(path):
            count += 1
            where = f"{name}: {path.name}:{lineno}"
            if not isinstance(record, dict):
                problems.append(f"{where}: record is not an object")
                continue
            if keys is None:
                keys = set(record)
            elif set(record) != keys:
                problems.append(f"{where}: keys differ from the first record's")
            for role in ("prompt", "response"):
                col = columns.get(role)
                if col is not None and not isinstance(record.get(col), str):
                    problems.append(f"{where}: {role} column {col!r} is not a string")
            prompt_col = columns.get("prompt")
            if prompt_col and not record.get(prompt_col):
                problems.append(f"{where}: empty prompt column {prompt_col!r}")
            _collect_types(record, "", types)
    except DataError as e:
        return [f"{name}: {e}"]
    if count == 0:
        problems.append(f"{name}: {path.name} has no records")
    for key_path, kinds in sorted(types.items()):
        if len(kinds) > 1:
            problems.append(f"{name}: field {key_path or '(root)'} mixes {sorted(kinds)}")
    return problems


def check_llamafactory(root: str | Path) -> list[str]:
    """Check a directory's ``dataset_info.json`` and the files it names.

    Checks the documented entry keys, formatting and column roles; that every file exists, has
    a readable suffix and records; for alpaca files, that the mapped prompt and response
    columns are strings and that each file's records share keys and JSON types (what the
    ``datasets`` JSON loader needs to build one table).

    Returns:
        Problems as ``dataset: reason`` lines; empty when LLaMA-Factory can load every entry.
    """
    path = Path(root) / L.DATASET_INFO
    try:
        info = read_json(path)
    except DataError as e:
        return [str(e)]
    if not isinstance(info, dict):
        return [f"{path}: not a JSON object"]
    problems: list[str] = []
    for name, entry in info.items():
        problems += _check_entry(Path(root), name, entry)
    return problems
