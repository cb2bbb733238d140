from __future__ import annotations

from memory_helpers import ScriptedModel, ingest, question, retrieve, run, session

from umb.memory import MemoryConfig, SummaryMemory, build_memory
from umb.memory._summary import extractive_summary

S1 = session(
    1,
    "2021-03-20T18:30",
    [
        ("user", "Hi! How was your week?"),
        ("assistant", "Oh, it was fine. I finally adopted a beagle called Biscuit on Tuesday."),
        ("user", "That is great news, congratulations on the new family member."),
        ("assistant", "Thanks. He cost 450 dollars at the shelter in Lyon. Anyway, I am tired."),
        ("user", "Get some rest then."),
    ],
)
S2 = session(
    2,
    "2021-05-02T10:00",
    [("user", "Long time!"), ("assistant", "I started a new job at Globex in April.")],
)


def test_extractive_summary_keeps_dates_numbers_and_names() -> None:
    text, turn_ids = extractive_summary(S1, limit=2)
    assert text == (
        "Maya finally adopted a beagle called Biscuit on Tuesday. "
        "Maya: He cost 450 dollars at the shelter in Lyon."
    )
    assert turn_ids == ("D0001:S001:T0002", "D0001:S001:T0004")


def test_offline_summary_read_path() -> None:
    system, ctx = run("summary", [S1, S2], "What happened?")
    lines = ctx.text.splitlines()
    assert len(lines) == 2 and lines[0].startswith("[2021-03-20] Maya finally adopted")
    assert lines[1] == "[2021-05-02] Maya started a new job at Globex in April."
    assert ctx.item_ids == ("D0001:S001", "D0001:S002")
    early = retrieve(system, question("What happened?", asked_at="2021-04-01T00:00"))
    assert early.item_ids == ("D0001:S001",)


def test_llm_summary_with_fallback_on_failure() -> None:
    model = ScriptedModel(["Maya adopted Biscuit, a beagle, on 16 March 2021.", None])
    system = build_memory("summary", MemoryConfig(), model)
    assert isinstance(system, SummaryMemory)
    ingest(system, [S1, S2])
    first, second = system.summaries
    assert first.text == "Maya adopted Biscuit, a beagle, on 16 March 2021."
    assert second.text == "Maya started a new job at Globex in April."  # extractive fallback
    assert system.stats["failed_calls"] == 1 and system.stats["llm_calls"] == 2
    assert "Summary of the previous session: Maya adopted Biscuit" in (
        model.requests[1].messages[1].content
    )
    assert not model.requests[0].json_mode
