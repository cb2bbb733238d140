"""The one record log behind ``umb eval``, statetrack and parametric: what a kill, a broken line
and a repeated key do to each."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from umb import DataError
from umb._recordlog import KeyedLog
from umb.parametric._evallog import open_log as parametric_log
from umb.parametric._evallog import read_records as read_parametric
from umb.run import read_records
from umb.run._log import RecordLog
from umb.statetrack._records import is_done
from umb.statetrack._records import open_log as statetrack_log

Record = dict[str, Any]


def _eval(i: int) -> Record:
    return {"system": "rag_bm25", "question_id": f"q{i}", "score": 1}


def _parametric(i: int) -> Record:
    return {"checkpoint_stage": 1, "split": "test", "item_id": f"i{i}", "correct": True}


def _statetrack(i: int) -> Record:
    return {"level": "L1", "sample_id": f"s{i}", "task": "count", "error": None}


def _eval_log(path: Path) -> KeyedLog[Any]:
    return RecordLog(path / "records.jsonl")


def _parametric_log(path: Path) -> KeyedLog[Any]:
    return parametric_log(path / "eval" / "records.jsonl")


def _statetrack_log(path: Path) -> KeyedLog[Any]:
    return statetrack_log(path)


LOGS: list[tuple[Callable[[Path], KeyedLog[Any]], Callable[[int], Record]]] = [
    (_eval_log, _eval),
    (_parametric_log, _parametric),
    (_statetrack_log, _statetrack),
]
IDS = ["eval", "parametric", "statetrack"]


def _one_record_then(
    tmp_path: Path, open_log: Callable[[Path], KeyedLog[Any]], record: Record, tail: bytes
) -> None:
    """A log holding ``record``, then ``tail`` written after it as a killed writer might."""
    with open_log(tmp_path) as log:
        log.append(record)
        path = log.path
    with path.open("ab") as f:
        f.write(tail)


@pytest.mark.parametrize(("open_log", "record"), LOGS, ids=IDS)
def test_a_torn_last_line_is_cut_and_appends_start_clean(
    tmp_path: Path, open_log: Callable[[Path], KeyedLog[Any]], record: Callable[[int], Record]
) -> None:
    _one_record_then(tmp_path, open_log, record(1), b'{"system": "rag_bm25", "quest')
    with open_log(tmp_path) as log:
        assert log.records == [record(1)]
        log.append(record(2))
    with open_log(tmp_path) as log:
        assert log.records == [record(1), record(2)]
        assert set(log.keys) == {log.key(record(1)), log.key(record(2))}


@pytest.mark.parametrize(("open_log", "record"), LOGS, ids=IDS)
def test_a_broken_line_before_the_last_names_its_line(
    tmp_path: Path, open_log: Callable[[Path], KeyedLog[Any]], record: Callable[[int], Record]
) -> None:
    broken = b'{"not": "a record"}\n' + orjson.dumps(record(2)) + b"\n"
    _one_record_then(tmp_path, open_log, record(1), broken)
    with pytest.raises(DataError, match=r"records\.jsonl:2: not a JSON record"):
        open_log(tmp_path)


@pytest.mark.parametrize(
    ("open_log", "record", "read"),
    [(_eval_log, _eval, read_records), (_parametric_log, _parametric, read_parametric)],
    ids=IDS[:2],
)
def test_eval_and_parametric_logs_hold_one_record_per_key(
    tmp_path: Path,
    open_log: Callable[[Path], KeyedLog[Any]],
    record: Callable[[int], Record],
    read: Callable[[Path], list[Record]],
) -> None:
    with open_log(tmp_path) as log:
        log.append(record(1))
        with pytest.raises(ValueError, match="already in the log"):
            log.append(record(1))
        path = log.path
    path.write_bytes(path.read_bytes() * 2)
    with pytest.raises(DataError, match=r":2: duplicate record for .* \(line 1\)"):
        read(path)


def test_the_eval_log_rewrites_itself_without_the_failed_records(tmp_path: Path) -> None:
    with RecordLog(tmp_path / "records.jsonl") as log:
        for i in range(3):
            log.append(_eval(i))
        assert log.rewrite_without([("rag_bm25", "q1")]) == 1
        log.append(_eval(1))
    kept = read_records(tmp_path / "records.jsonl")
    assert [r["question_id"] for r in kept] == ["q0", "q2", "q1"]


def test_the_statetrack_log_lets_the_newest_record_of_a_key_count(tmp_path: Path) -> None:
    failed = {**_statetrack(1), "error": "timeout"}
    with statetrack_log(tmp_path) as log:
        log.append(failed)
        key = log.key(failed)
        assert is_done(log, key) and not is_done(log, key, retry_errors=True)
        log.append(_statetrack(1))  # --retry-errors asked it again
    with statetrack_log(tmp_path) as log:
        assert len(log.records) == 2 and log.latest[key] == _statetrack(1)
        assert is_done(log, key, retry_errors=True)
