from __future__ import annotations

from memory_helpers import question, run, session

from umb._tokens import estimate_tokens
from umb.bench import Session
from umb.memory import render_sessions

SESSIONS = [
    session(
        n,
        f"2021-0{n}-10T09:00",
        [("user", f"How was month {n}?"), ("assistant", f"Month {n} was busy. " + "x" * 200)],
    )
    for n in range(1, 6)
]


def test_full_context_is_the_whole_history() -> None:
    _, ctx = run("full_context", SESSIONS, "anything")
    assert ctx.text == render_sessions(SESSIONS)
    assert ctx.tokens == estimate_tokens(ctx.text)
    assert ctx.meta["dropped_sessions"] == 0
    assert ctx.item_ids == tuple(s.id for s in SESSIONS)
    assert len(ctx.source_turn_ids) == 10
    assert ctx.meta["write_latency_s"] >= 0 and ctx.meta["retrieve_latency_s"] >= 0


def test_full_context_drops_oldest_sessions_first() -> None:
    budget = estimate_tokens(render_sessions(SESSIONS[-2:]))
    _, ctx = run("full_context", SESSIONS, "anything", max_input_tokens=budget)
    assert ctx.text == render_sessions(SESSIONS[-2:])
    assert ctx.tokens <= budget
    assert ctx.meta["dropped_sessions"] == 3
    assert ctx.meta["dropped_session_ids"] == ["D0001:S001", "D0001:S002", "D0001:S003"]
    # One token less and the fourth session has to go too.
    _, tighter = run("full_context", SESSIONS, "anything", max_input_tokens=budget - 1)
    assert tighter.meta["dropped_sessions"] == 4
    assert tighter.text.startswith("[Session 5 |")


def test_full_context_trims_a_single_oversized_session_from_its_start() -> None:
    first = SESSIONS[0]
    last_turn_only = Session(first.id, first.started_at, first.turns[1:])
    budget = estimate_tokens(render_sessions([last_turn_only]))
    _, ctx = run("full_context", [first], "anything", max_input_tokens=budget)
    assert ctx.meta["dropped_turns"] == 1
    assert ctx.text == render_sessions([last_turn_only])
    assert ctx.source_turn_ids == (first.turns[1].id,)


def test_full_context_hides_sessions_after_the_question() -> None:
    _, ctx = run("full_context", SESSIONS, question("q", asked_at="2021-03-10T09:00"))
    assert ctx.item_ids == ("D0001:S001", "D0001:S002")


def test_no_context_is_empty() -> None:
    _, ctx = run("no_context", SESSIONS, "anything")
    assert (ctx.text, ctx.tokens, ctx.item_ids) == ("", 0, ())


def test_oracle_evidence_returns_exactly_the_evidence_turns() -> None:
    wanted = ["D0001:S004:T0002", "D0001:S002:T0001", "D0001:S002:T0002", "D0009:S001:T0001"]
    _, ctx = run("oracle_evidence", SESSIONS, question("q", turn_ids=wanted))
    assert ctx.source_turn_ids == ("D0001:S002:T0001", "D0001:S002:T0002", "D0001:S004:T0002")
    assert ctx.text == (
        "[Session 2 | 2021-02-10 09:00]\n"
        "Alex: How was month 2?\n"
        f"Maya: Month 2 was busy. {'x' * 200}\n"
        "\n"
        "[Session 4 | 2021-04-10 09:00]\n"
        f"Maya: Month 4 was busy. {'x' * 200}"
    )
    assert ctx.meta["missing_evidence_turns"] == 1
    _, empty = run("oracle_evidence", SESSIONS, question("q"))
    assert empty.text == "" and empty.tokens == 0
