"""Compare pydantic v2 and msgspec for validating benchmark records against their declaration.

Measures, for each library: the import plus schema-build time (what ``umb validate`` and
``umb eval`` pay at start-up) and the time to decode and validate the first ``--dialogues``
lines of ``dialogues.jsonl`` and every line of ``questions.jsonl`` into the record dataclasses.
The baseline is orjson plus the hand-written ``from_dict`` constructors.

Run: ``python benchmarks/record_validation.py --bench DIR [--dialogues 40]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

_STARTUP = {
    "msgspec": "import msgspec; from umb.bench._records import Dialogue, Question;"
    "msgspec.json.Decoder(Dialogue); msgspec.json.Decoder(Question)",
    "pydantic": "import pydantic; from umb.bench._records import Dialogue, Question;"
    "pydantic.TypeAdapter(Dialogue); pydantic.TypeAdapter(Question)",
    "baseline": "import orjson; from umb.bench._records import Dialogue, Question",
}


def _startup_ms(lib: str, repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", _STARTUP[lib]], check=True)
        best = min(best, time.perf_counter() - t)
    return best * 1000


def _lines(path: Path, n: int | None) -> list[bytes]:
    out = []
    with path.open("rb") as f:
        for line in f:
            out.append(line)
            if n is not None and len(out) >= n:
                break
    return out


def _decode_s(lib: str, dialogues: list[bytes], questions: list[bytes]) -> float:
    from umb.bench._records import Dialogue, Question

    t = time.perf_counter()
    if lib == "msgspec":
        import msgspec

        dd, qd = msgspec.json.Decoder(Dialogue), msgspec.json.Decoder(Question)
        for line in dialogues:
            dd.decode(line)
        for line in questions:
            qd.decode(line)
    elif lib == "pydantic":
        import pydantic

        da, qa = pydantic.TypeAdapter(Dialogue), pydantic.TypeAdapter(Question)
        for line in dialogues:
            da.validate_json(line, strict=True)
        for line in questions:
            qa.validate_json(line, strict=True)
    else:
        import orjson

        for line in dialogues:
            Dialogue.from_dict(orjson.loads(line))
        for line in questions:
            Question.from_dict(orjson.loads(line))
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bench", type=Path, required=True)
    parser.add_argument("--dialogues", type=int, default=40)
    args = parser.parse_args()
    dialogues = _lines(args.bench / "dialogues.jsonl", args.dialogues)
    questions = _lines(args.bench / "questions.jsonl", None)
    mib = (sum(map(len, dialogues)) + sum(map(len, questions))) / 2**20
    print(f"{len(dialogues)} dialogue lines + {len(questions)} question lines, {mib:.0f} MiB")
    print(f"{'library':10} {'start-up ms':>12} {'decode s':>10} {'MiB/s':>8}")
    for lib in ("baseline", "msgspec", "pydantic"):
        secs = min(_decode_s(lib, dialogues, questions) for _ in range(2))
        print(f"{lib:10} {_startup_ms(lib):12.0f} {secs:10.2f} {mib / secs:8.0f}")


if __name__ == "__main__":
    main()
