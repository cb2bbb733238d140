"""The toy format to and from a umb benchmark directory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from umb import Benchmark, DataError, Dialogue, Evidence, Question, Session, Turn
from umb.bench import Interlocutor
from umb.interop import InteropLog, read_peer_json, source_info, write_export, write_imported


def import_toy(path: str | Path, out: str | Path) -> dict[str, Any]:
    """Write the benchmark of the toy file ``path`` into ``out``; returns its manifest."""
    src = Path(path)
    data = read_peer_json(src)
    if not isinstance(data, dict) or not isinstance(data.get("conversations"), list):
        raise DataError(src.name, None, 'a toy file is an object with a "conversations" list')
    dialogues, questions = [], []
    for conv in data["conversations"]:
        did, day = str(conv["id"]), str(conv["date"])
        speakers = sorted({s for s, _ in conv["lines"]}, key=[s for s, _ in conv["lines"]].index)
        turns = tuple(
            Turn(f"{did}:S1:T{k}", "user" if s == speakers[0] else "assistant", s, text)
            for k, (s, text) in enumerate(conv["lines"], start=1)
        )
        partner = Interlocutor(speakers[-1], "friend", "")
        dialogues.append(Dialogue(did, speakers[0], partner, (Session(f"{did}:S1", day, turns),)))
        for k, q in enumerate(conv["questions"], start=1):
            questions.append(
                Question(
                    id=f"{did}:Q{k}",
                    dialogue_id=did,
                    family="IE",
                    query=q["q"],
                    asked_at=day[:10] + "T23:59",
                    gold={"answer": q["a"]},
                    answer_components=(q["a"],),
                    evidence=Evidence(turn_ids=(f"{did}:S1:T{q['line']}",)),
                    meta={"source": "toy"},
                )
            )
    return write_imported(
        Path(out),
        fmt="toy",
        dialogues=dialogues,
        questions=questions,
        native={},
        source=source_info(src, "toy"),
        log=InteropLog(),
    )


def export_toy(root: str | Path, out: str | Path) -> InteropLog:
    """Write the benchmark at ``root`` as a toy file (IE questions only) at ``out``."""
    bench = Benchmark.open(root)
    convs = []
    for d in bench.iter_dialogues():
        turns = [t for s in d.sessions for t in s.turns]
        line = {t.id: k for k, t in enumerate(turns, start=1)}
        asked = [q for q in bench.questions if q.dialogue_id == d.id and q.family == "IE"]
        convs.append(
            {
                "id": d.id,
                "date": d.sessions[0].started_at if d.sessions else "",
                "lines": [[t.speaker, t.text] for t in turns],
                "questions": [
                    {"q": q.query, "a": q.gold["answer"], "line": line[q.evidence.turn_ids[0]]}
                    for q in asked
                    if q.evidence.turn_ids
                ],
            }
        )
    write_export(Path(out), {"conversations": convs})
    return InteropLog()
