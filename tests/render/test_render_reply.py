"""Reading renderer replies: fences, prose around JSON, speaker merging, and refusals."""

from __future__ import annotations

import pytest

from umb.render._reply import ReplyError, parse_turns, parse_vote

TURNS = '{"turns": [{"role": "user", "text": "Hi"}, {"role": "assistant", "text": "Hello"}]}'


def test_plain_fenced_and_wrapped_replies() -> None:
    expected = [("user", "Hi"), ("assistant", "Hello")]
    assert parse_turns(TURNS) == expected
    assert parse_turns(f"```json\n{TURNS}\n```") == expected
    assert parse_turns(f"Sure! Here it is:\n{TURNS}\nEnjoy.") == expected
    assert parse_turns(f"<think>Use {{turns}} and {{role}}.</think>\n{TURNS}") == expected


def test_consecutive_turns_of_one_speaker_merge() -> None:
    reply = (
        '[{"role": "user", "content": "Hi"}, {"role": "user", "content": "there"},'
        ' {"role": "character", "text": "  Hello   you "}]'
    )
    assert parse_turns(reply) == [("user", "Hi there"), ("assistant", "Hello you")]


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ('{"turns": [{"role": "user", ', "not a JSON object"),
        ('{"lines": []}', 'no "turns" list'),
        ('{"turns": [{"role": "narrator", "text": "x"}]}', "no role"),
        ('{"turns": [{"role": "user", "text": ""}]}', "no text"),
        ('{"turns": [{"role": "user", "text": "Hi"}]}', "fewer than 2"),
    ],
)
def test_unusable_replies_say_why(reply: str, reason: str) -> None:
    with pytest.raises(ReplyError, match=reason):
        parse_turns(reply)


def test_votes() -> None:
    assert parse_vote('{"states": true}') is True
    assert parse_vote('```json\n{"states": false}\n```') is False
    assert parse_vote("yes") is None
    assert parse_vote('{"states": "yes"}') is None
