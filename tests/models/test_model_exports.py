"""The public surface of umb.models and umb.testing, pinned."""

from __future__ import annotations

import subprocess
import sys

import umb.models
import umb.testing


def test_models_exports():
    assert sorted(umb.models.__all__) == sorted(
        [
            "ROLES",
            "BACKEND_OPTIONS",
            "unread_options",
            "SPEC_FORMS",
            "GenerateRequest",
            "GenerateResult",
            "LoadedModel",
            "Message",
            "ModelAPI",
            "ModelOptions",
            "ResponseCache",
            "Role",
            "RoleUsage",
            "UsageMeter",
            "cache_key",
            "load_model",
            "percentile",
            "ModelOnUse",
            "PROVIDERS",
            "Provider",
            "provider",
            "spec_provider",
            "STRUCTURED_OUTPUTS",
            "SUMMED_COUNTS",
            "StructuredOutput",
        ]
    )
    for name in umb.models.__all__:
        assert getattr(umb.models, name) is not None


def test_testing_exports():
    assert sorted(umb.testing.__all__) == ["OpenAIServer", "Rule", "Settings", "running_server"]


def test_importing_models_loads_no_backend():
    code = (
        "import sys, umb.models, umb.testing; "
        "print(sorted(m for m in ('openai', 'torch', 'transformers', 'starlette', 'uvicorn') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
