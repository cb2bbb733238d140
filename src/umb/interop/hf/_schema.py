"""The Arrow schema of each config of the Hugging Face folder, and record <-> row conversion.

Every field of a benchmark record gets a typed column, in the record's own order, so a row reads
back as the same JSON object. Only the free-form objects (a question's ``gold`` and ``meta``, an
event's ``meta``) are JSON strings: their keys differ by family and kind, and a struct of the
union of keys would lose which keys a record had and in what order.
"""

from __future__ import annotations

from typing import Any

import orjson
import pyarrow as pa

from umb.bench import Question
from umb.interop._common import primary_answer

SPLIT = "test"
"""The one split of every config: a benchmark is for evaluation only."""

_S = pa.string()


def _list(item: pa.DataType) -> pa.DataType:
    return pa.list_(item)


TURN = pa.struct([("id", _S), ("role", _S), ("speaker", _S), ("text", _S), ("fact_ids", _list(_S))])
SESSION_FIELDS = [("id", _S), ("started_at", _S), ("turns", _list(TURN)), ("rendered_by", _S)]
INTERLOCUTOR = pa.struct([("name", _S), ("role", _S), ("scene", _S)])

DIALOGUES = pa.schema(
    [
        ("id", _S),
        ("character_id", _S),
        ("interlocutor", INTERLOCUTOR),
        ("sessions", _list(pa.struct(SESSION_FIELDS))),
    ]
)
SESSIONS = pa.schema(
    [("dialogue_id", _S), ("index", pa.int32()), ("character_id", _S), *SESSION_FIELDS]
)
FACTS = pa.schema(
    [
        ("id", _S),
        ("character_id", _S),
        ("event_id", _S),
        ("at", _S),
        ("attribute", _S),
        ("value", _S),
        ("text", _S),
    ]
)
EVIDENCE = pa.struct([(k, _list(_S)) for k in ("event_ids", "fact_ids", "session_ids", "turn_ids")])
QUESTIONS = pa.schema(
    [
        ("id", _S),
        ("dialogue_id", _S),
        ("family", _S),
        ("query", _S),
        ("asked_at", _S),
        ("gold", _S),
        ("answer_components", _list(_S)),
        ("evidence", EVIDENCE),
        ("meta", _S),
        ("answer", _S),
    ]
)
#: Columns of ``questions`` that are not record fields (left out on import).
DERIVED_QUESTION_COLUMNS = ("answer",)

_PAIR = pa.struct([("name", _S), ("value", _S)])
EVENT = pa.struct(
    [
        ("id", _S),
        ("character_id", _S),
        ("at", _S),
        ("category", _S),
        ("kind", _S),
        ("summary", _S),
        ("slots", _list(_PAIR)),
        ("participants", _list(_S)),
        ("caused_by", _list(_S)),
        ("state_changes", _list(pa.struct([("attribute", _S), ("old", _S), ("new", _S)]))),
        ("lookalike_of", _S),
        ("meta", _S),
    ]
)
_CHANGE = pa.struct([("at", _S), ("value", _S), ("event_id", _S)])
WORLD = pa.schema(
    [
        ("id", _S),
        ("name", _S),
        ("first_name", _S),
        ("age", pa.int64()),
        ("gender", _S),
        ("home_city", _S),
        ("occupation", _S),
        ("mbti", _S),
        (
            "speech",
            pa.struct(
                [
                    ("formality", _S),
                    ("verbosity", _S),
                    ("openers", _list(_S)),
                    ("catchphrase", _S),
                    ("exclaims", pa.bool_()),
                ]
            ),
        ),
        ("relations", _list(pa.struct([("character_id", _S), ("kind", _S)]))),
        ("initial_state", _list(_PAIR)),
        ("events", _list(EVENT)),
        ("timeline", _list(pa.struct([("attribute", _S), ("changes", _list(_CHANGE))]))),
    ]
)

#: Config name -> schema, in the order the card lists them.
SCHEMAS: dict[str, pa.Schema] = {
    "dialogues": DIALOGUES,
    "sessions": SESSIONS,
    "questions": QUESTIONS,
    "facts": FACTS,
    "world": WORLD,
}

_CHARACTER_KEYS = [name for name in WORLD.names if name not in ("events", "timeline")]


def _json(value: Any) -> str:
    return orjson.dumps(value).decode()


def _pairs(d: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"name": k, "value": v} for k, v in d.items()]


def _unpairs(pairs: list[dict[str, Any]]) -> dict[str, Any]:
    return {p["name"]: p["value"] for p in pairs}


# -- questions ----------------------------------------------------------------------------------


def question_row(q: dict[str, Any]) -> dict[str, Any]:
    """The ``questions`` row of one raw question object."""
    row = dict(q)
    row["gold"] = _json(q["gold"])
    row["meta"] = _json(q.get("meta", {}))
    row["answer"] = primary_answer(Question.from_dict(q))
    return row


def question_record(row: dict[str, Any]) -> dict[str, Any]:
    """The question object of one ``questions`` row (record fields only, in record order)."""
    rec = {k: v for k, v in row.items() if k not in DERIVED_QUESTION_COLUMNS}
    rec["gold"] = orjson.loads(row["gold"])
    rec["meta"] = orjson.loads(row["meta"])
    return rec


# -- world --------------------------------------------------------------------------------------


def world_rows(world: dict[str, Any]) -> list[dict[str, Any]]:
    """One ``world`` row per character: its profile, the events it owns and its timeline."""
    events: dict[str, list[dict[str, Any]]] = {c["id"]: [] for c in world["characters"]}
    for e in world.get("events", []):
        events.setdefault(e["character_id"], []).append(
            {
                **e,
                "slots": _pairs(e["slots"]),
                "meta": _json(e["meta"]),
            }
        )
    timelines = world.get("timelines", {})
    rows = []
    for c in world["characters"]:
        row = dict(c)
        row["initial_state"] = _pairs(c["initial_state"])
        row["events"] = events.pop(c["id"])
        tl = timelines.get(c["id"])
        row["timeline"] = (
            None if tl is None else [{"attribute": k, "changes": v} for k, v in tl.items()]
        )
        rows.append(row)
    return rows


def world_record(rows: list[dict[str, Any]], layout: dict[str, Any]) -> dict[str, Any]:
    """``world.json`` of the ``world`` rows, its keys and header as ``layout`` recorded them."""
    characters, events, timelines = [], [], {}
    for row in rows:
        c = {k: row[k] for k in _CHARACTER_KEYS}
        c["initial_state"] = _unpairs(row["initial_state"])
        characters.append(c)
        for e in row["events"]:
            events.append({**e, "slots": _unpairs(e["slots"]), "meta": orjson.loads(e["meta"])})
        if row["timeline"] is not None:
            timelines[row["id"]] = {t["attribute"]: t["changes"] for t in row["timeline"]}
    if layout.get("events_order") == "id":
        events.sort(key=lambda e: e["id"])
    parts = {"characters": characters, "events": events, "timelines": timelines}
    header = layout.get("header", {})
    return {k: parts[k] if k in parts else header[k] for k in layout["keys"]}


def world_layout(world: dict[str, Any]) -> dict[str, Any]:
    """What ``world.json`` holds besides the rows: its key order, header and event order."""
    ids = [e["id"] for e in world.get("events", [])]
    return {
        "keys": list(world),
        "header": {
            k: v for k, v in world.items() if k not in ("characters", "events", "timelines")
        },
        "events_order": "id" if ids == sorted(ids) else "rows",
    }
