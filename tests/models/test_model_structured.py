"""Structured outputs: a request's JSON schema goes out as ``response_format`` where it may."""

from __future__ import annotations

import dataclasses

import pytest

from umb import ConfigError
from umb.families import FAMILIES, REQUIRED_FIELDS
from umb.models import GenerateRequest, ModelOptions, cache_key, load_model
from umb.run._schemas import answer_schema

SCHEMA = answer_schema("IE")


def _with_schema(request: GenerateRequest) -> GenerateRequest:
    return dataclasses.replace(request, json_schema=SCHEMA)


def test_every_family_schema_requires_exactly_its_fields() -> None:
    for family in FAMILIES:
        schema = answer_schema(family)
        assert schema["required"] == list(REQUIRED_FIELDS[family])
        assert list(schema["properties"]) == list(REQUIRED_FIELDS[family])
        assert schema["additionalProperties"] is False
    with pytest.raises(ConfigError, match="unknown question family"):
        answer_schema("XX")


@pytest.mark.parametrize(("mode", "sent"), [("auto", "json_schema"), ("on", "json_schema"),
                                            ("off", "json_object")])  # fmt: skip
def test_schema_is_sent_unless_off(server, ask, generate, mode: str, sent: str) -> None:
    options = ModelOptions(base_url=server.base_url, structured_output=mode)  # type: ignore[arg-type]
    [result] = generate(load_model("openai/m", options=options), [_with_schema(ask("a"))])
    assert result.error is None
    assert [r["format"] for r in server.requests()] == [sent]


def test_auto_steps_down_when_the_endpoint_refuses(server, ask, generate) -> None:
    server.control(reject_response_format=True)
    options = ModelOptions(base_url=server.base_url, concurrency=1)
    results = generate(load_model("openai/m", options=options), [_with_schema(ask("a"))] * 2)
    assert [r.error for r in results] == [None, None]
    # Both schema forms refused, then json_object, then plain; the second call goes plain.
    formats = [r["format"] for r in server.requests()]
    assert formats == ["json_schema", "json_object", "json_object", None, None]


def test_on_fails_the_call_when_the_endpoint_refuses(server, ask, generate) -> None:
    server.control(reject_response_format=True)
    options = ModelOptions(base_url=server.base_url, structured_output="on", max_retries=0)
    [result] = generate(load_model("openai/m", options=options), [_with_schema(ask("a"))])
    assert result.error is not None and "refused the JSON schema" in result.error
    assert server.stats()["statuses"] == {"400": 2}  # both schema forms, nothing without one


def test_on_is_refused_for_backends_without_schemas() -> None:
    on = ModelOptions(structured_output="on")
    with pytest.raises(ConfigError, match="structured-output on needs an answerer"):
        load_model("offline", options=on)
    # Other roles send no schema, so the rule-based extractor still loads beside it.
    assert load_model("offline", role="extractor", options=on).spec == "offline"


def test_schema_is_part_of_the_cache_key_only_when_present(ask) -> None:
    plain = ask("a")
    assert cache_key("openai", "m", "", plain) != cache_key("openai", "m", "", _with_schema(plain))
    assert cache_key("openai", "m", "", plain) == cache_key(
        "openai", "m", "", dataclasses.replace(_with_schema(plain), json_schema=None)
    )


def test_a_500_naming_response_format_is_a_refusal_not_a_fault(server, ask, generate) -> None:
    # What llama-cpp-python's server answers to the json_schema form.
    error = "1 validation error: ('body', 'response_format', 'type') Input should be 'text'"
    server.set_rules({"status": 500, "error": error, "times": 1})
    options = ModelOptions(base_url=server.base_url, max_retries=0)
    [result] = generate(load_model("openai/m", options=options), [_with_schema(ask("a"))])
    assert result.error is None
    assert [r["format"] for r in server.requests()] == ["json_schema", "json_object"]
