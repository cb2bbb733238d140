"""Importing the original release's dialogue benchmark (synthetic, in its schema)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from umb.bench import Benchmark
from umb.interop import export_umb_release, import_umb_release


def _release() -> list[dict[str, Any]]:
    tasks = [
        {
            "task_type": "Information Extraction",
            "source_event_ids": ["2021_E3"],
            "query": "What brand is Maya's bike?",
            "gold_answer": "Veloce",
            "answer_components": ["Veloce"],
        },
        {
            "task_type": "Temporal Reasoning",
            "source_event_ids": ["2021_E1", "2021_E4"],
            "query": "How long after the move did Maya start the job?",
            "gold_answer": "About 45 days",
            "answer_components": [
                "Move on 2021-03-01",
                "Job on 2021-04-15",
                "Calculation: 45 days",
            ],
        },
        {
            "task_type": "Knowledge Updating",
            "source_event_ids": ["2022_E2"],
            "query": "Where does Maya work now?",
            "gold_answer": "Globex",
            "answer_components": ["Globex"],
            "old_state_value": "Acme",
            "old_state_event_id": "2021_E4",
        },
        {
            "task_type": "Knowledge Updating",
            "source_event_ids": ["2022_E5"],
            "query": "What car does Maya drive?",
            "gold_answer": "A Golf",
            "answer_components": ["Golf"],
        },
        {
            "task_type": "Multi-session Reasoning",
            "source_event_ids": ["2020_E1", "2021_E1"],
            "query": "How did the layoff lead to the move?",
            "gold_answer": "She moved for work.",
            "answer_components": ["laid off", "job search", "moved"],
        },
        {
            "task_type": "Event Summarization",
            "source_event_ids": ["2021_E1"],
            "query": "Summarise Maya's career between 2021 and 2022.",
            "gold_answer": "Busy.",
            "answer_components": ["new job", "promotion"],
        },
        {
            "task_type": "false premise",
            "source_event_ids": ["2021_E2"],
            "query": "Why did Maya sell her red bike?",
            "gold_answer": "The premise is incorrect: she never sold it.",
            "answer_components": ["Correction"],
        },
        {"task_type": "Dream Analysis", "query": "?", "gold_answer": "?"},
        {"task_type": "Information Extraction"},
    ]
    return [
        {
            "id": "6f1c2b9e-0000-4000-8000-000000000001",
            "character": "Maya Lopez",
            "generation_mode": "natural_v8",
            "tasks_covered": tasks,
            "segment_outlines": [
                {
                    "segment_id": 1,
                    "type": "opening",
                    "topic": "hello",
                    "anchor_count": 0,
                    "has_dynamic": False,
                }
            ],
            "dialogue": [
                {"role": "user", "content": "Hi Maya!"},
                {"role": "assistant", "content": "Hi! I got a Veloce bike."},
                {"role": "narrator", "content": "..."},
            ],
            "scene_config": {
                "interlocutor_role": "friend",
                "setting": "a park",
                "interlocutor_goal": "catch up",
                "opening_style": "Casual",
            },
            "statistics": {"total_segments": 150, "total_turns": 3, "tasks_count": 7},
        }
    ]


def test_import_release(tmp_path: Path) -> None:
    src = tmp_path / "UMB_dialogue_benchmark.json"
    src.write_text(json.dumps(_release()))
    m = import_umb_release(src, tmp_path / "b")
    assert m["has_turn_evidence"] is False and m["synthetic_sessions"] is True
    counts = m["import_warning_counts"]
    assert counts["no_sessions"] == 1 and counts["ku_old_state_missing"] == 1
    assert counts["task_type_unknown"] == 1 and counts["task_malformed"] == 1
    assert counts["turn_role_unknown"] == 1
    b = Benchmark.open(tmp_path / "b")
    d = next(b.iter_dialogues())
    assert len(d.sessions) == 1 and d.sessions[0].id.endswith(":S001")
    assert [t.speaker for t in d.turns()] == ["friend", "Maya Lopez", "friend"]
    qs = b.questions
    assert [q.family for q in qs] == ["IE", "TR", "KU", "KU", "MSR", "ES", "MA"]
    tr = qs[1]
    assert tr.gold == {
        "final_answer": "About 45 days",
        "days": 45,
        "start_date": "2021-03-01",
        "end_date": "2021-04-15",
    }
    assert tr.evidence.event_ids == ("2021_E1", "2021_E4") and tr.evidence.turn_ids == ()
    assert qs[2].gold["deprecated_state"] == "Acme"
    assert qs[4].gold["event_chain"] == ["laid off", "job search", "moved"]
    assert qs[5].gold["time_span"] == "2021-01-01 to 2022-12-31"
    assert qs[6].gold["premise_verdict"] == "incorrect"
    assert qs[0].id == "Q-6f1c2b9e-0000-4000-8000-000000000001-IE-01"
    assert qs[0].meta["native_id"].endswith("::Information Extraction::0")
    out = tmp_path / "back.json"
    export_umb_release(tmp_path / "b", out)
    back = json.loads(out.read_text())[0]
    original = _release()[0]
    assert back["tasks_covered"] == original["tasks_covered"][:7]
    assert back["scene_config"] == original["scene_config"]
    assert back["statistics"] == original["statistics"]
