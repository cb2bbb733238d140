"""The public surface of ``umb.render``, and that the template path stays light."""

from __future__ import annotations

import subprocess
import sys

import pytest

import umb.render


def test_every_exported_name_resolves() -> None:
    assert umb.render.__all__ == ["TemplateRenderer", *sorted(umb.render.__all__[1:])]
    for name in umb.render.__all__:
        assert getattr(umb.render, name) is not None
    with pytest.raises(AttributeError):
        _ = umb.render.NoSuchThing  # type: ignore[attr-defined]


def test_template_generation_does_not_load_the_model_layer() -> None:
    code = (
        "import sys, umb.render, umb.pipeline._generate, umb._cli.generate; "
        "print(any(m in sys.modules for m in ('umb.models', 'openai', 'umb.render._llm')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
