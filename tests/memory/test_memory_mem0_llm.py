from __future__ import annotations

import json
from typing import Any

import pytest
from memory_helpers import ScriptedModel, ingest, question, retrieve, session

from umb.memory import Mem0Style, MemoryConfig, build_memory

SESSIONS = [
    session(n, f"2021-0{n}-01T10:00", [("user", "News?"), ("assistant", text)])
    for n, text in enumerate(
        [
            "I work at Initech and I adopted a beagle called Biscuit.",
            "I moved to Globex last week.",
            "Nothing much happened.",
            "Biscuit ran away, so sad. And I still work at Globex.",
            "I took up pottery.",
        ],
        start=1,
    )
]

REPLIES: list[str | None] = [
    # Session 1: nothing stored yet, so no decision call is needed.
    json.dumps({"facts": ["Maya works at Initech.", "Maya adopted a beagle called Biscuit."]}),
    # Session 2: a fenced reply is still a JSON object; the decision updates memory "0".
    '```json\n{"facts": ["Maya works at Globex."]}\n```',
    'Sure! {"memory": [{"id": "0", "text": "Maya works at Globex.", "event": "UPDATE"}]}',
    # Session 3: broken JSON is counted and the batch skipped.
    '{"facts": ["Maya is bored"',
    # Session 4: one delete, one repeat, one update of an id that was never offered.
    json.dumps({"facts": ["Maya's beagle Biscuit ran away.", "Maya works at Globex."]}),
    json.dumps(
        {
            "memory": [
                {"id": "1", "text": "Maya adopted a beagle called Biscuit.", "event": "DELETE"},
                {"id": "0", "text": "Maya works at Globex.", "event": "NONE"},
                {"id": "99", "text": "Maya works at Hooli.", "event": "UPDATE"},
            ]
        }
    ),
    # Session 5: the extractor call fails.
    None,
]


@pytest.fixture
def memory(offline_embedder: Any) -> tuple[Mem0Style, ScriptedModel]:
    model = ScriptedModel(REPLIES)
    system = build_memory("mem0_style", MemoryConfig(top_k=5), model)
    assert isinstance(system, Mem0Style)
    ingest(system, SESSIONS)
    return system, model


def test_llm_write_path(memory: tuple[Mem0Style, ScriptedModel]) -> None:
    system, model = memory
    assert model.replies == []  # every scripted reply was asked for, none more
    job, dog = system.store.units.values()
    assert [v.text for v in job.versions] == ["Maya works at Initech.", "Maya works at Globex."]
    assert job.current.source_turn_ids == ("D0001:S002:T0002",)
    assert dog.deleted and dog.current.session_id == "D0001:S004"
    stats = system.stats
    assert (stats["ADD"], stats["UPDATE"], stats["DELETE"], stats["NONE"]) == (2, 1, 1, 1)
    assert stats["invalid_json"] == 1 and stats["invalid_ops"] == 1
    assert stats["failed_calls"] == 1 and stats["skipped_batches"] == 2
    assert stats["llm_calls"] == 7


def test_llm_prompts_carry_the_session_and_short_ids(
    memory: tuple[Mem0Style, ScriptedModel],
) -> None:
    _, model = memory
    extract, decide = model.requests[0], model.requests[2]
    assert extract.json_mode and "Maya" in extract.messages[0].content
    assert "[Session 1 | 2021-01-01 10:00]" in extract.messages[1].content
    assert '{"id": "0", "text": "Maya works at Initech."}' in decide.messages[1].content
    assert '"Maya works at Globex."' in decide.messages[1].content


def test_llm_read_path(memory: tuple[Mem0Style, ScriptedModel]) -> None:
    system, _ = memory
    ctx = retrieve(system, question("Where does Maya work?"))
    assert ctx.text == "[2021-02-01] Maya works at Globex."
    assert ctx.item_ids == ("m1",) and ctx.meta["extractor"] == "openai/scripted"
    assert ctx.meta["write_stats"]["invalid_json"] == 1
