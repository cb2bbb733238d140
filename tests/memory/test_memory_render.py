from __future__ import annotations

from memory_helpers import session

from umb.bench import Session
from umb.memory import render_sessions, render_units
from umb.memory._render import session_number


def test_render_sessions_exact_format() -> None:
    s3 = session(3, "2021-03-20T18:30", [("assistant", "I adopted a dog."), ("user", "Oh nice!")])
    s4 = session(4, "2021-05-02T10:00", [("user", "How is work?")])
    assert render_sessions([s3, s4]) == (
        "[Session 3 | 2021-03-20 18:30]\n"
        "Maya: I adopted a dog.\n"
        "Alex: Oh nice!\n"
        "\n"
        "[Session 4 | 2021-05-02 10:00]\n"
        "Alex: How is work?"
    )
    assert render_sessions([]) == ""


def test_session_number_from_id_or_position() -> None:
    assert session_number("D0001:S003", 9) == 3
    assert session_number("conv-26:session_12", 9) == 12
    odd = Session("abc", "2021-01-01T09:00", ())
    assert render_sessions([odd, odd]).split("\n\n") == [
        "[Session 1 | 2021-01-01 09:00]",
        "[Session 2 | 2021-01-01 09:00]",
    ]


def test_render_units_pairs_and_objects() -> None:
    class Unit:
        date = "2021-03-20T18:30"
        text = "Maya adopted\na beagle."

    assert render_units([("2021-01-02", "one"), Unit()]) == (
        "[2021-01-02] one\n[2021-03-20] Maya adopted a beagle."
    )
