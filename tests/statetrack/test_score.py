"""Reply parsing (the original's policy) and exact scoring."""

from __future__ import annotations

import json

import pytest

from umb.statetrack import parse_reply, score_reply


@pytest.mark.parametrize(
    ("text", "value", "reason"),
    [
        ('{"a": 1}', {"a": 1}, "ok"),
        ('Sure!\n```json\n{"a": {"b": "}"}}\n```\nDone.', {"a": {"b": "}"}}, "ok"),
        ('prefix {"a": [1, 2,],} suffix', {"a": [1, 2]}, "ok_trailing_comma_fix"),
        ("", None, "empty_output"),
        ("no braces here", None, "no_json_object"),
        ('{"a": 1', None, "unbalanced_braces"),
        ("{'a': 1}", None, "json_error"),
    ],
)
def test_parse_reply(text, value, reason):
    assert parse_reply(text) == (value, reason)


GT = {
    "Ann Lee": {"latest": {"city": "Oslo", "pet": None}},
    "Bo Park": {"latest": {"car": "a red Fiat"}},
}


def test_all_right_counts_every_rate():
    reply = json.dumps(
        {
            "Ann Lee": {"latest": {"city": "oslo.", "pet": None}},
            "Bo Park": {"latest": {"car": "a  red Fiat"}},
        }
    )
    s = score_reply("latest", GT, {}, reply)
    assert s.parse_ok and s.prompt_exact
    assert (s.characters, s.char_exact, s.schemas, s.correct, s.covered) == (2, 2, 3, 3, 3)


def test_partly_right_and_missing_keys():
    reply = json.dumps(
        {"Ann Lee": {"latest": {"city": "Bergen"}}, "Bo Park": {"latest": {"car": "a red Fiat"}}}
    )
    s = score_reply("latest", GT, {}, reply)
    assert not s.prompt_exact
    assert (s.char_exact, s.correct, s.covered) == (1, 1, 2)
    missing = [d for d in s.details if not d["present"]]
    assert [(d["person"], d["schema"]) for d in missing] == [("Ann Lee", "pet")]


def test_keys_match_ignoring_case_spaces_and_brackets():
    reply = json.dumps(
        {
            "ann  lee": {"LATEST": {"【City】": "Oslo", "pet": None}},
            "Bo Park": {"latest": {"car": "a red Fiat"}},
        }
    )
    assert score_reply("latest", GT, {}, reply).prompt_exact


def test_unparsed_and_failed_replies_score_zero_but_count():
    for reply in ("I cannot answer", None):
        s = score_reply("latest", GT, {}, reply)
        assert not s.parse_ok and not s.prompt_exact
        assert (s.characters, s.schemas, s.correct, s.covered) == (2, 3, 0, 0)
    assert score_reply("latest", GT, {}, None).parse_reason == "call_error"


def test_schema_longest_needs_the_exact_fact_and_accepts_listed_alternatives():
    gt = {
        "Ann Lee": {
            "schema_longest": {
                "city": "Ann Lee's city was Oslo.",
                "pet": "Ann Lee's pet was a cat.",
            }
        }
    }
    accept = {"Ann Lee": {"pet": ["Ann Lee's pet was a cat.", None]}}
    ok = {"Ann Lee": {"schema_longest": {"city": " Ann Lee's city was Oslo. ", "pet": None}}}
    assert score_reply("schema_longest", gt, accept, json.dumps(ok)).prompt_exact
    near = {"Ann Lee": {"schema_longest": {"city": "Ann Lee's city was oslo.", "pet": None}}}
    s = score_reply("schema_longest", gt, accept, json.dumps(near))
    assert (s.correct, s.prompt_exact) == (1, False)


def test_num_changes_takes_integers_and_digit_strings_only():
    gt = {"Ann Lee": {"num_changes": {"city": 2, "pet": 0, "car": 1}}}
    reply = {"Ann Lee": {"num_changes": {"city": "2", "pet": False, "car": 1.0}}}
    s = score_reply("num_changes", gt, {}, json.dumps(reply))
    assert [d["correct"] for d in s.details] == [True, False, True]
