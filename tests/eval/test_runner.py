"""The runner on the demo benchmark and on hand-made ones: scores, timing, files, resume."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from umb import ConfigError, DataError
from umb.bench import (
    Benchmark,
    Dialogue,
    Evidence,
    Interlocutor,
    Question,
    Session,
    Turn,
    write_benchmark,
)
from umb.families import FAMILIES
from umb.memory import MemorySystem, RetrievedContext, memory_system_names, register_memory_system
from umb.models import ModelOptions
from umb.run import RunConfig, ScoringOptions, read_records, run_eval
from umb.run._config import public_url

SEEN: dict[str, list[str]] = {}
"""question id -> ids of the sessions the spy had ingested when the question was asked."""


class _TimelineSpy(MemorySystem):
    """Remembers which sessions arrived before each question."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ingested: list[str] = []

    async def ingest(self, session: Session) -> None:
        self.ingested.append(session.id)

    async def retrieve(self, question: Question) -> RetrievedContext:
        SEEN[question.id] = list(self.ingested)
        return self._context("", item_ids=tuple(self.ingested))


if "test_timeline_spy" not in memory_system_names():
    register_memory_system("test_timeline_spy")(_TimelineSpy)


def _records(run: Path) -> list[dict[str, Any]]:
    return read_records(run / "records.jsonl")


def _group(results: dict[str, Any], system: str) -> dict[str, Any]:
    (group,) = [g for g in results["groups"] if g["system"] == system]
    return group


@pytest.fixture(scope="module")
def offline_run(demo_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("runs") / "offline"
    config = RunConfig(
        bench=demo_bench,
        out=out,
        systems=("oracle_evidence", "full_context", "no_context"),
        model="offline",
    )
    results = run_eval(config, progress=False).results
    return {**results, "out": out}


def test_oracle_model_scores_one_on_every_family_under_full_context(
    demo_bench: Path, tmp_path: Path
) -> None:
    config = RunConfig(bench=demo_bench, out=tmp_path / "run", systems=("full_context",),
                       model="oracle")  # fmt: skip
    results = run_eval(config, progress=False).results
    group = _group(results, "full_context")
    assert set(group["families"]) == set(FAMILIES)
    for family, entry in group["families"].items():
        assert entry["mean"] == 1.0, family
        assert entry["unscored"] == 0
    assert group["invalid_json"] == 0
    assert results["complete"] is True
    assert results["records"] == group["n"] == len(_records(tmp_path / "run"))


def test_offline_ordering_oracle_evidence_full_context_no_context(
    offline_run: dict[str, Any],
) -> None:
    tb = {g["system"]: g["task_balanced"]["mean"] for g in offline_run["groups"]}
    sw = {g["system"]: g["sample_weighted"]["mean"] for g in offline_run["groups"]}
    assert tb["oracle_evidence"] >= tb["full_context"] >= tb["no_context"]
    assert sw["oracle_evidence"] >= sw["full_context"] >= sw["no_context"]
    # The offline reader is a lexical heuristic: since ES golds are themed and complete and KU
    # asks between two changes, reading the whole history lifts it by about 0.18 (was 0.3).
    assert tb["full_context"] > tb["no_context"] + 0.15


def test_no_context_scores_near_zero_where_the_answer_needs_the_history(
    offline_run: dict[str, Any],
) -> None:
    families = _group(offline_run, "no_context")["families"]
    # These answers exist only in the history; without it nothing can be right.
    for family in ("IE", "MSR", "ES", "KU"):
        assert families[family]["mean"] == 0.0, family
    # TR holds before/after questions and MA true premises, which a guess can get right; ABS
    # rewards saying "not mentioned", the right answer with no history.
    assert families["TR"]["mean"] <= 0.25
    assert families["MA"]["mean"] <= 0.4
    assert _group(offline_run, "no_context")["sample_weighted"]["mean"] <= 0.2


RECORD_FIELDS = {
    "system", "model", "question_id", "dialogue_id", "family", "query", "asked_at", "gold",
    "context_ids", "source_turn_ids", "source_turn_count", "evidence_in_context",
    "context_tokens", "context_meta", "retrieve_latency_s", "write_latency_s",
    "prompt_sha256", "raw_output", "answer", "parse_status", "invalid_json",
    "missing_fields", "score", "scorer", "score_details", "input_tokens", "output_tokens",
    "cached", "latency_s", "error",
    "source", "native_id", "native_category", "native_category_name", "ranked_ids", "retrieval",
    "score_by", "scorer_name", "scorer_version", "judge_model", "judge_prompt_hash",
    "answer_profile", "prediction", "trace_ops",
}  # fmt: skip


def test_records_hold_the_documented_fields(offline_run: dict[str, Any], demo_bench: Path) -> None:
    records = _records(offline_run["out"])
    n = len(Benchmark.open(demo_bench).questions)
    assert len(records) == offline_run["records"] == 3 * n
    assert offline_run["usage"]["answerer"]["requests"] == 3 * n
    assert offline_run["models"] == {"answerer": "offline", "judge": None, "extractor": "offline"}
    for r in records:
        assert set(r) == RECORD_FIELDS
        assert len(r["prompt_sha256"]) == 64 and r["parse_status"] == "ok" and r["error"] is None
    evidence = [r for r in records if r["system"] == "oracle_evidence" and r["family"] == "IE"]
    assert all(r["context_ids"] and r["context_ids"] == r["source_turn_ids"] for r in evidence)
    assert all(r["evidence_in_context"] == r["source_turn_ids"] for r in evidence)
    empty = [r for r in records if r["system"] == "no_context"]
    assert all(r["context_tokens"] == 0 and r["context_ids"] == [] for r in empty)
    full = [r for r in records if r["system"] == "full_context"]
    assert all(r["context_tokens"] > 0 for r in full)
    assert all(r["source_turn_count"] == len(r["source_turn_ids"] or range(501)) for r in full)
    assert all(len(r["evidence_in_context"]) > 0 for r in full if r["family"] == "IE")
    assert sum(r["context_tokens"] for r in full) / len(full) > 1000


def _session(did: str, n: int, when: str) -> Session:
    sid = f"{did}:S{n:03d}"
    turns = (
        Turn(f"{sid}:T0001", "user", "Alex", f"How was day {n}?"),
        Turn(f"{sid}:T0002", "assistant", "Maya", f"Day {n} was fine."),
    )
    return Session(sid, when, turns)


def _question(qid: str, did: str, asked_at: str) -> Question:
    return Question(
        id=qid,
        dialogue_id=did,
        family="ABS",
        query="Did Maya ever mention a boat?",
        asked_at=asked_at,
        gold={"answerable": False, "answer": "not mentioned"},
        answer_components=(),
        evidence=Evidence(),
        meta={"kind": "never_happened"},
    )


@pytest.fixture
def tiny_bench(tmp_path: Path) -> Path:
    who = Interlocutor("Alex", "friend", "a cafe")
    d1 = Dialogue("D0001", "C0001", who, (
        _session("D0001", 1, "2021-01-05T10:00"),
        _session("D0001", 2, "2021-02-05T10:00"),
        _session("D0001", 3, "2021-03-05T10:00"),
    ))  # fmt: skip
    d2 = Dialogue("D0002", "C0002", who, (_session("D0002", 1, "2022-06-01T09:00"),))
    questions = [
        _question("Q-D0001-ABS-01", "D0001", "2021-12-31T10:00"),  # after everything
        _question("Q-D0001-ABS-02", "D0001", "2021-01-01T10:00"),  # before the first session
        _question("Q-D0001-ABS-03", "D0001", "2021-02-05T10:00"),  # at session 2's start
        _question("Q-D0001-ABS-04", "D0001", "2021-02-05T10:01"),  # just after it
        _question("Q-D0002-ABS-01", "D0002", "2022-06-01T09:30"),
    ]
    root = tmp_path / "tiny"
    write_benchmark(root, world=None, dialogues=[d1, d2], questions=questions, facts=[],
                    generator="test", config={"seed": 0})  # fmt: skip
    return root


def test_each_question_sees_exactly_the_sessions_that_started_before_it(
    tiny_bench: Path, tmp_path: Path
) -> None:
    SEEN.clear()
    config = RunConfig(bench=tiny_bench, out=tmp_path / "run", systems=("test_timeline_spy",))
    run_eval(config, progress=False)
    assert SEEN == {
        "Q-D0001-ABS-01": ["D0001:S001", "D0001:S002", "D0001:S003"],
        "Q-D0001-ABS-02": [],
        "Q-D0001-ABS-03": ["D0001:S001"],
        "Q-D0001-ABS-04": ["D0001:S001", "D0001:S002"],
        "Q-D0002-ABS-01": ["D0002:S001"],
    }
    by_id = {r["question_id"]: r for r in _records(tmp_path / "run")}
    assert by_id["Q-D0001-ABS-04"]["context_ids"] == ["D0001:S001", "D0001:S002"]


def test_rerun_skips_recorded_pairs_and_can_add_questions_and_systems(
    tiny_bench: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    first = run_eval(RunConfig(bench=tiny_bench, out=out, systems=("no_context",), limit=2),
                     progress=False)  # fmt: skip
    assert (first.written, first.skipped) == (2, 0)
    again = run_eval(RunConfig(bench=tiny_bench, out=out, systems=("no_context",), limit=2),
                     progress=False)  # fmt: skip
    assert (again.written, again.skipped) == (0, 2)
    more = run_eval(RunConfig(bench=tiny_bench, out=out, systems=("no_context", "full_context")),
                    progress=False)  # fmt: skip
    assert (more.written, more.skipped) == (8, 2)
    records = _records(out)
    assert len(records) == 10
    assert len({(r["system"], r["question_id"]) for r in records}) == 10
    header = json.loads((out / "header.json").read_text())
    assert header["systems"] == ["no_context", "full_context"]
    assert len((out / "invocations.jsonl").read_text().splitlines()) == 3


def test_a_different_model_or_parameter_is_refused(tiny_bench: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_eval(RunConfig(bench=tiny_bench, out=out, systems=("no_context",)), progress=False)
    with pytest.raises(ConfigError, match="models.answerer: 'offline' -> 'oracle'"):
        run_eval(RunConfig(bench=tiny_bench, out=out, systems=("no_context",), model="oracle"),
                 progress=False)  # fmt: skip
    with pytest.raises(ConfigError, match="parameters.policy"):
        run_eval(RunConfig(bench=tiny_bench, out=out, systems=("no_context",),
                           scoring=ScoringOptions(policy="lenient")),
                 progress=False)  # fmt: skip


def test_a_truncated_last_line_is_dropped_and_asked_again(tiny_bench: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_eval(RunConfig(bench=tiny_bench, out=out, systems=("no_context",)), progress=False)
    path = out / "records.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    assert len(lines) == 5
    path.write_bytes(b"".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])
    assert len(read_records(path)) == 4  # a reader skips the unfinished line
    outcome = run_eval(RunConfig(bench=tiny_bench, out=out, systems=("no_context",)),
                       progress=False)  # fmt: skip
    assert (outcome.written, outcome.skipped) == (1, 4)
    text = path.read_bytes()
    assert text.endswith(b"\n") and text.count(b"\n") == 5
    assert len({r["question_id"] for r in _records(out)}) == 5
    assert outcome.results["complete"] is True


def test_a_broken_line_inside_the_log_is_a_data_error(tiny_bench: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_eval(RunConfig(bench=tiny_bench, out=out, systems=("no_context",)), progress=False)
    path = out / "records.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(lines[0] + b"{not json\n" + b"".join(lines[1:]))
    with pytest.raises(DataError, match=r"records.jsonl:2"):
        run_eval(RunConfig(bench=tiny_bench, out=out, systems=("no_context",)), progress=False)


def test_header_names_the_benchmark_without_absolute_paths(
    tiny_bench: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    run_eval(RunConfig(bench=tiny_bench, out=out, systems=("no_context",)), progress=False)
    header = json.loads((out / "header.json").read_text())
    assert header["benchmark"]["path"] == "../tiny"
    assert len(header["benchmark"]["content_hash"]) == 64
    assert header["models"]["answerer"] == "offline"
    assert header["endpoint"] == {"base_url": None, "api_key_env": None}
    assert "unifiedmembench" in header["versions"]
    for name in ("header.json", "results.json", "records.jsonl"):
        assert str(tmp_path) not in (out / name).read_text()


def test_unknown_system_and_bad_options_are_config_errors(tiny_bench: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="rag_bm25"):
        RunConfig(bench=tiny_bench, out=tmp_path, systems=("rag_bm52",))
    with pytest.raises(ConfigError, match="concurrency"):
        RunConfig(
            bench=tiny_bench,
            out=tmp_path,
            systems=("no_context",),
            options=ModelOptions(concurrency=0),
        )
    with pytest.raises(ConfigError, match="twice"):
        RunConfig(bench=tiny_bench, out=tmp_path, systems=("no_context", "no_context"))


def test_public_url_drops_credentials() -> None:
    assert public_url("https://user:s3cret@host.example:8443/v1?key=abc#x") == (
        "https://host.example:8443/v1"
    )
    assert public_url(None) is None


def test_a_header_without_records_is_replaced(
    tiny_bench: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    out = tmp_path / "run"
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        run_eval(RunConfig(bench=tiny_bench, out=out, systems=("no_context",),
                           model="openai/gpt-4o-mini"), progress=False)  # fmt: skip
    outcome = run_eval(RunConfig(bench=tiny_bench, out=out, systems=("no_context",)),
                       progress=False)  # fmt: skip
    assert outcome.written == 5
    assert json.loads((out / "header.json").read_text())["models"]["answerer"] == "offline"


def test_long_id_lists_are_capped_in_records() -> None:
    import asyncio
    import dataclasses

    from umb.models import load_model
    from umb.run import answer_question
    from umb.run._record import MAX_SOURCE_TURN_IDS

    turns = tuple(f"D0001:S001:T{i:04d}" for i in range(MAX_SOURCE_TURN_IDS + 1))
    question = _question("Q-D0001-ABS-01", "D0001", "2021-12-31T10:00")
    question = dataclasses.replace(question, evidence=Evidence(turn_ids=(turns[7],)))
    context = RetrievedContext(
        text="", item_ids=("D0001:S001",), source_turn_ids=turns,
        meta={"dropped_session_ids": list(turns), "dropped_sessions": 3, "retrieve_latency_s": 0.5},
    )  # fmt: skip
    record = asyncio.run(
        answer_question(load_model("oracle"), question, context, system="x", include_gold=True)
    )
    assert record["source_turn_ids"] is None
    assert record["source_turn_count"] == MAX_SOURCE_TURN_IDS + 1
    assert record["evidence_in_context"] == [turns[7]]
    assert record["context_meta"] == {
        "dropped_session_ids": None,
        "dropped_session_ids_count": MAX_SOURCE_TURN_IDS + 1,
        "dropped_sessions": 3,
    }
    assert record["retrieve_latency_s"] == 0.5 and record["score"] == 1.0


def test_progress_shows_the_benchmark_check_once_then_the_questions(
    demo_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = RunConfig(bench=demo_bench, out=tmp_path / "run", systems=("no_context",), limit=5)
    run_eval(config, progress=True)
    first = capsys.readouterr().err
    assert "check: 100%" in first and "10/10" in first  # the demo benchmark's ten dialogues
    assert "eval: 100%" in first and "5/5" in first
    run_eval(config, progress=True)  # resumed: the cached verdict stands, nothing is checked
    assert "check" not in capsys.readouterr().err
