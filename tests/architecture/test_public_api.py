"""The public surface of ``umb`` itself, pinned both ways: names may neither vanish nor leak in."""

from __future__ import annotations

import subprocess
import sys

import umb

VERBS = {
    "generate", "load_benchmark", "evaluate", "score", "import_benchmark", "export_benchmark"
}  # fmt: skip
RECORDS = {"Benchmark", "Dialogue", "Evidence", "Fact", "Question", "Session", "Turn"}
CONFIG = {"GenerateConfig", "RunConfig", "MemoryConfig", "ModelOptions"}
OUTCOMES = {"RunOutcome", "ScoreOutcome", "InteropLog"}
ERRORS = {
    "UmbError",
    "ConfigError",
    "DataError",
    "EndpointError",
    "EndpointTimeout",
    "MissingDependencyError",
    "RateLimited",
}


def test_all_is_exactly_the_public_names() -> None:
    public = {n for n in dir(umb) if not n.startswith("_")} - {"annotations", "importlib"}
    public -= {n for n in public if type(getattr(umb, n)).__name__ == "module"}
    assert set(umb.__all__) - {"__version__"} == public
    assert set(umb.__all__) == VERBS | RECORDS | CONFIG | OUTCOMES | ERRORS | {"__version__"}


def test_verbs_are_documented_callables() -> None:
    for name in VERBS:
        verb = getattr(umb, name)
        assert callable(verb) and verb.__doc__, name


def test_import_umb_loads_no_layer() -> None:
    code = "import sys, umb; print(sorted(m for m in sys.modules if m.startswith('umb.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['umb._errors', 'umb._lazy', 'umb._version']"


def test_each_config_and_outcome_is_the_class_its_layer_defines() -> None:
    from umb.interop import InteropLog
    from umb.memory import MemoryConfig
    from umb.models import ModelOptions
    from umb.run import ScoreOutcome

    assert (umb.MemoryConfig, umb.ModelOptions) == (MemoryConfig, ModelOptions)
    assert (umb.ScoreOutcome, umb.InteropLog) == (ScoreOutcome, InteropLog)
