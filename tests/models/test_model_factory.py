"""Model specs, options and roles."""

from __future__ import annotations

import importlib.util

import pytest

from umb import ConfigError, MissingDependencyError
from umb.models import ModelAPI, ModelOptions, load_model


@pytest.mark.parametrize(
    ("spec", "hint"),
    [
        ("ofline", "'offline'"),
        ("oracel", "'oracle'"),
        ("opnai/gpt-4o", "'openai/gpt-4o'"),
        ("hff/./weights", "'hf/./weights'"),
    ],
)
def test_unknown_spec_suggests_the_nearest(spec, hint):
    with pytest.raises(ConfigError, match="did you mean") as info:
        load_model(spec)
    message = str(info.value)
    assert hint in message
    assert "openai/<model>" in message


def test_unrelated_spec_lists_the_forms():
    with pytest.raises(ConfigError) as info:
        load_model("banana")
    assert "did you mean" not in str(info.value)
    assert "offline, oracle, openai/<model>, hf/<path>" in str(info.value)


@pytest.mark.parametrize("spec", ["openai/", "hf/", "openai"])
def test_spec_without_a_name(spec):
    with pytest.raises(ConfigError):
        load_model(spec)


def test_unknown_role():
    with pytest.raises(ConfigError, match="role"):
        load_model("oracle", role="critic")  # type: ignore[arg-type]


def test_official_endpoint_needs_a_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        load_model("openai/gpt-4o-mini")


def test_local_endpoint_needs_no_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    model = load_model("openai/llama", options=ModelOptions(base_url="http://127.0.0.1:9/v1"))
    assert isinstance(model, ModelAPI)
    assert model.spec == "openai/llama"
    assert model.role == "answerer"


def test_base_url_default_is_read_from_environment(monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:1234/v1")
    assert ModelOptions().base_url == "http://127.0.0.1:1234/v1"
    monkeypatch.delenv("OPENAI_BASE_URL")
    assert ModelOptions().base_url is None


@pytest.mark.parametrize(
    "bad",
    [
        {"concurrency": 0},
        {"timeout_s": 0},
        {"max_retries": -1},
        {"backoff_base_s": 2.0, "backoff_max_s": 1.0},
        {"max_tokens": 0},
        {"temperature": -0.1},
        {"api_key_env": ""},
    ],
)
def test_bad_options(bad):
    with pytest.raises(ConfigError):
        ModelOptions(**bad)


@pytest.mark.skipif(
    importlib.util.find_spec("transformers") is not None, reason="transformers is installed"
)
def test_hf_without_the_extra_names_it():
    with pytest.raises(MissingDependencyError, match=r"unifiedmembench\[hf\]"):
        load_model("hf/./some-model")


def test_oracle_spec_is_wrapped_and_metered(tmp_path):
    import asyncio

    from umb.models import GenerateRequest, Message

    model = load_model(
        "oracle", role="judge", options=ModelOptions(cache_path=tmp_path / "c.sqlite")
    )
    request = GenerateRequest(
        messages=(Message("user", "q"),), task={"gold": {"answer": "Biscuit"}}
    )
    [result] = asyncio.run(model.generate([request]))
    assert result.text == '{"answer": "Biscuit"}'
    assert model.cache is None  # instant backends whose answer depends on `task` are not cached
    assert model.meter.to_dict()["judge"]["requests"] == 1


@pytest.mark.parametrize("spec", ["offline", "oracle", " offline "])
def test_builtin_specs_load_lazily(spec):
    model = load_model(spec)
    assert isinstance(model, ModelAPI)
    assert model.spec == spec.strip()
    assert type(model.backend).__module__ == f"umb.models.{spec.strip()}"
