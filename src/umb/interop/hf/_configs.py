"""What each config of the folder is, for the card, ``dataset_info`` and Croissant."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

import pyarrow as pa

from umb.interop.hf._schema import SCHEMAS, SPLIT
from umb.interop.hf._shards import Shard

#: Config name -> what one row is.
ROW_MEANING: Final[dict[str, str]] = {
    "dialogues": "one dialogue: a character's sessions with one interlocutor, turns nested",
    "sessions": "one session of a dialogue (the dialogues config flattened)",
    "questions": "one question with its structured gold answer and evidence ids",
    "facts": "one atomic fact of the simulated world, as a turn can state it",
    "world": "one character: profile, the events it owns, and its attribute timeline",
}

#: Column descriptions, by config and dotted column path.
COLUMNS: Final[dict[str, dict[str, str]]] = {
    "dialogues": {
        "id": "dialogue id (`D0001`)",
        "character_id": "the character whose life the dialogue tells (`world.id`)",
        "interlocutor": "who the character talks to (`name`, `role`) and where (`scene`)",
        "sessions": "dated sessions in time order, each with its `turns`",
        "sessions.turns.id": "turn id, the target of `questions.evidence.turn_ids`",
        "sessions.turns.role": "`user` (the interlocutor) or `assistant` (the character)",
        "sessions.turns.fact_ids": "ids of the facts (`facts.id`) the turn states",
        "sessions.rendered_by": "who wrote the text: `template`, a model spec, or null",
    },
    "sessions": {
        "dialogue_id": "the dialogue the session belongs to",
        "index": "position of the session in its dialogue, from 0",
        "character_id": "the dialogue's character",
        "id": "session id, the target of `questions.evidence.session_ids`",
        "started_at": "when the session took place (`YYYY-MM-DDTHH:MM`)",
        "turns": "the session's turns, as in `dialogues`",
        "rendered_by": "who wrote the text: `template`, a model spec, or null",
    },
    "questions": {
        "id": "question id",
        "dialogue_id": "the dialogue the question is about",
        "family": "question family code (IE, MSR, ES, TR, KU, MA, ABS, ...)",
        "query": "the question as asked",
        "asked_at": "when it is asked; only sessions that start before it count",
        "gold": "the family's structured answer, a JSON object as a string",
        "answer_components": "the parts a correct answer must contain",
        "evidence": "ids of the events, facts, sessions and turns the gold rests on",
        "meta": "family-specific details (sub-kind, aliases, native ids), a JSON string",
        "answer": "the gold's main answer field as one string (derived, for quick looks)",
    },
    "facts": {
        "id": "fact id, the target of `questions.evidence.fact_ids` and turn `fact_ids`",
        "event_id": "the event of the world that made the fact true",
        "at": "when it became true",
        "attribute": "a slot name, a tracked attribute or `event`",
        "text": "a third-person sentence stating the fact",
    },
    "world": {
        "id": "character id (`C0001`)",
        "speech": "how the character talks in the template renderer",
        "relations": "other characters it knows, and how",
        "initial_state": "tracked attributes at the start of the timeline",
        "events": "events the character owns, in id order; `slots` are name/value pairs",
        "events.meta": "event details as a JSON string",
        "timeline": "each tracked attribute's values over time, with the event that set them",
    },
}


@dataclass
class ConfigOut:
    """One config as written: its shards and sizes."""

    name: str
    shards: list[Shard] = field(default_factory=list)
    arrow_bytes: int = 0

    @property
    def schema(self) -> pa.Schema:
        return SCHEMAS[self.name]

    @property
    def rows(self) -> int:
        return sum(s.rows for s in self.shards)

    @property
    def parquet_bytes(self) -> int:
        return sum(s.bytes for s in self.shards)

    @property
    def glob(self) -> str:
        return f"data/{self.name}/{SPLIT}-*.parquet"
