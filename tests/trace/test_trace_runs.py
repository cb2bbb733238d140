"""Format 3: runs of numbered reads written as one entry, read back as the identities."""

from __future__ import annotations

import random
from pathlib import Path

import orjson
import pytest

from umb import DataError
from umb.trace import FORMAT_VERSION, Tracer, operation, read_trace
from umb.trace._runs import decode_reads, encode_reads


@pytest.mark.parametrize(
    "reads",
    [
        [],
        [("turn:D1:S1:T0001", 1)],
        [(f"turn:D1:S1:T{n:04d}", 1) for n in range(1, 38)],
        [(f"candidate:S1:{n}", 1) for n in range(7, 13)],  # 9 -> 10 changes the width
        [("query:Q1", 1), *[(f"turn:D1:S1:T{n:04d}", 1) for n in (1, 2, 3, 5, 6, 7)], ("x", 3)],
        [(f"memory:D1:m{n}", 2) for n in range(1, 5)] + [("memory:D1:m5", 1)],
        [("turn:T0001", 1), ("turn:T0002", 1), ("turn:T0002", 1), ("turn:T0003", 1)],
        [("a1", 1), ("a2", 1), ("b3", 1)],
    ],
)
def test_encoding_round_trips(reads: list[tuple[str, int]]) -> None:
    assert decode_reads(encode_reads(reads)) == tuple(reads)


def test_random_reads_round_trip_and_a_kept_encoding_is_the_callers_own() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        number, reads = rng.randint(0, 30), []
        for _ in range(rng.randint(0, 14)):  # mostly counting up: runs, near-runs, restarts
            number = number + 1 if rng.random() < 0.7 else rng.randint(0, 120)
            prefix = rng.choice(["turn:D1:S1:T", "memory:D1:m", "x%d:"])
            width = rng.choice([1, 2, 4])
            reads.append((f"{prefix}{number:0{width}d}", rng.choice([1, 1, 1, 2])))
        assert decode_reads(encode_reads(reads)) == tuple(reads), reads
    turns = [(f"turn:D1:S2:T{n:04d}", 1) for n in range(1, 20)]
    first = encode_reads(turns)
    first.append("changed by its record")
    assert encode_reads(turns) == [["turn:D1:S2:T0001", 1, 19]]


def test_a_session_of_turns_is_one_entry() -> None:
    turns = [(f"turn:D1:S1:T{n:04d}", 1) for n in range(1, 38)]
    assert encode_reads([("query:Q1", 1), *turns]) == ["query:Q1", ["turn:D1:S1:T0001", 1, 37]]
    # two identities are not worth a run, nor are versions that differ
    assert encode_reads(turns[:2]) == ["turn:D1:S1:T0001", "turn:D1:S1:T0002"]
    mixed = [("m1", 1), ("m2", 2), ("m3", 1)]
    assert encode_reads(mixed) == ["m1", ("m2", 2), "m3"]  # orjson writes a tuple as a list


def test_tracer_writes_runs_and_reader_expands_them(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    reads = [f"turn:D1:S1:T{n:04d}" for n in range(1, 11)]
    with Tracer(path) as tr, tr.activate(), tr.dialogue("D1"):
        with operation("ingest", reads=[(r, f"text {r}") for r in reads]):
            pass
    lines = [orjson.loads(x) for x in path.read_bytes().splitlines()]
    assert lines[0]["version"] == FORMAT_VERSION == 3
    (op,) = [x for x in lines if x["t"] == "op"]
    assert op["reads"] == [["turn:D1:S1:T0001", 1, 10]]
    (ingest,) = read_trace(path).ops
    assert ingest.reads == tuple((r, 1) for r in reads)


def test_format_2_reads_are_still_read(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    records = [
        {"t": "open", "format": "umb-trace", "version": 2, "open": 1, "time": 0.0, "meta": {}},
        {"t": "src", "var": "turn:T0001", "v": 1, "h": None},
        {"t": "src", "var": "turn:T0002", "v": 1, "h": None},
        {"t": "src", "var": "turn:T0003", "v": 1, "h": None},
        {"t": "op", "id": "run1/1", "seq": 1, "name": "ingest", "cat": "ingest",
         "reads": ["turn:T0001", "turn:T0002", ["turn:T0003", 1]]},
    ]  # fmt: skip
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    (op,) = read_trace(path).ops
    assert op.reads == (("turn:T0001", 1), ("turn:T0002", 1), ("turn:T0003", 1))


def test_a_run_without_a_number_is_a_data_error(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    records = [
        {"t": "open", "format": "umb-trace", "version": 3, "open": 1, "time": 0.0, "meta": {}},
        {"t": "op", "id": "run1/1", "seq": 1, "name": "ingest", "reads": [["turn:x", 1, 3]]},
    ]
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    with pytest.raises(DataError, match=r"t\.jsonl.*has no number"):
        read_trace(path)
