"""``umb.evaluate``'s call shape: the bench first, flat options routed to the config that holds
them, checked, and the outcome it returns equal to the ``results.json`` it writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import umb
from umb.pipeline._run_options import run_config


@pytest.mark.parametrize("trace", [True, False])
def test_the_returned_results_are_those_of_results_json(
    demo_bench: Path,
    tmp_path: Path,
    first_dialogue: int,
    monkeypatch: pytest.MonkeyPatch,
    trace: bool,
) -> None:
    monkeypatch.setenv("UMB_ATTRIBUTE_AFTER_RUN", "1")  # no worker: the same path every time
    outcome = umb.evaluate(
        demo_bench, out=tmp_path / "run", systems="rag_bm25", limit=first_dialogue, trace=trace
    )
    written = json.loads((tmp_path / "run" / "results.json").read_text())
    assert ("memory_metrics" in written) is trace
    assert outcome.results == written


def test_results_json_is_written_once_per_call_with_the_memory_metrics(
    demo_bench: Path,
    tmp_path: Path,
    first_dialogue: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import umb.run._results as results_module

    writes: list[bytes] = []
    real = results_module.atomic_write_bytes

    def counted(path: Path, data: bytes) -> None:
        if path.name == "results.json":
            writes.append(data)
        real(path, data)

    monkeypatch.setattr(results_module, "atomic_write_bytes", counted)
    monkeypatch.setenv("UMB_ATTRIBUTE_AFTER_RUN", "1")
    outcome = umb.evaluate(demo_bench, out=tmp_path / "run", systems="mem0_style",
                           limit=first_dialogue)  # fmt: skip
    assert len(writes) == 1
    assert json.loads(writes[0]) == outcome.results
    assert set(outcome.results["memory_metrics"]["systems"]) == {"mem0_style"}


def test_a_failed_later_stage_still_writes_the_results_of_the_records(
    demo_bench: Path, tmp_path: Path, first_dialogue: int
) -> None:
    from umb.run import RunConfig, run_eval

    def finish() -> dict[str, Any]:
        raise umb.DataError("attributions.jsonl", 3, "broken")

    config = RunConfig(bench=demo_bench, out=tmp_path / "run", systems=("no_context",),
                       limit=first_dialogue)  # fmt: skip
    with pytest.raises(umb.DataError, match="broken"):
        run_eval(config, finish=finish)
    written = json.loads((tmp_path / "run" / "results.json").read_text())
    assert written["records"] == first_dialogue and "memory_metrics" not in written


def test_flat_options_reach_the_nested_configs(demo_bench: Path, tmp_path: Path) -> None:
    config = run_config(
        None,
        {"bench": str(demo_bench), "out": str(tmp_path), "systems": "rag_bm25", "top_k": 3,
         "concurrency": 2, "timeout_s": 5, "policy": "lenient", "seed": 4, "max_tokens": 99,
         "question_ids": "q1", "executor": "local"},
    )  # fmt: skip
    assert config.bench == demo_bench and config.out == tmp_path
    assert config.systems == ("rag_bm25",)
    assert config.memory.top_k == 3 and config.memory.granularity == "round"
    assert config.options.concurrency == 2 and config.options.timeout_s == 5.0
    assert config.scoring.policy == "lenient" and config.scoring.seed == 4
    assert config.options.seed == 0 and config.options.max_tokens is None
    assert config.max_tokens == 99 and config.question_ids == frozenset({"q1"})
    assert config.executor.kind == "local"


def test_a_config_positional_or_keyword_is_changed_by_the_options(
    demo_bench: Path, tmp_path: Path
) -> None:
    base = run_config(None, {"bench": demo_bench, "out": tmp_path, "systems": ("no_context",)})
    changed = run_config(base, {"top_k": 2, "memory": umb.MemoryConfig(granularity="turn")})
    assert (changed.memory.top_k, changed.memory.granularity) == (2, "turn")
    assert changed.systems == ("no_context",) and base.memory.top_k == 10
    assert run_config(base, {"systems": (s for s in ["rag_bm25"])}).systems == ("rag_bm25",)
    with pytest.raises(umb.ConfigError, match="once"):
        umb.evaluate(base, config=base)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"sistems": "rag_bm25"}, "no option 'sistems'; did you mean 'systems'"),
        ({"topk": 3}, "did you mean 'top_k'"),
        ({"systems": 3}, "systems must be a string or a sequence of strings"),
        ({"systems": "rag_bm25", "top_k": "3"}, "top_k must be int, not str"),
        ({"systems": "rag_bm25", "trace": 1}, "trace must be bool"),
        ({"systems": "rag_bm25", "cache": True, "limit": True}, "limit must be int"),
        ({"systems": "rag_bm25", "out": 5}, "out must be a path"),
        ({"systems": "rag_bm25", "granularity": "page"}, "granularity must be one of"),
        ({"systems": "rag_bm25", "options": {"concurrency": 2}}, "options must be ModelOptions"),
        ({"systems": "rag_bm25", "work_dir": "x"}, "no option 'work_dir'"),
    ],
)
def test_a_wrong_option_is_a_config_error_naming_it(
    demo_bench: Path, tmp_path: Path, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(umb.ConfigError, match=message):
        umb.evaluate(demo_bench, **{"out": tmp_path / "run", **options})
    assert not (tmp_path / "run").exists()


def test_out_and_systems_are_required(demo_bench: Path, tmp_path: Path) -> None:
    with pytest.raises(umb.ConfigError, match=r"needs out="):
        umb.evaluate(demo_bench, systems="rag_bm25")
    with pytest.raises(umb.ConfigError, match=r"needs systems="):
        umb.evaluate(bench=demo_bench, out=tmp_path)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"n_ctx": 4096}, r"n_ctx is an option of llamacpp/.*; none of this run's models \(off"),
        ({"device": "cuda:0"}, r"device is an option of hf/<path>"),
    ],
)
def test_a_backend_option_no_model_of_the_run_reads_is_refused(
    demo_bench: Path, tmp_path: Path, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(umb.ConfigError, match=message):
        umb.evaluate(demo_bench, out=tmp_path / "run", systems="rag_bm25",
                     options=umb.ModelOptions(**options))  # fmt: skip
    assert not (tmp_path / "run").exists()


def test_a_provider_declares_the_backend_options_it_reads() -> None:
    from umb.models import BACKEND_OPTIONS, PROVIDERS, Provider

    read = {option for name in PROVIDERS for option in PROVIDERS[name].options}
    assert read == set(BACKEND_OPTIONS)  # every backend-only option is some backend's
    with pytest.raises(umb.ConfigError, match="names n_batch, not among the backend options"):
        Provider("mine", PROVIDERS["offline"].build, options=("n_batch",))
