"""End to end against the local OpenAI-compatible server playing the renderer.

The scripted renderer omits facts (one of them for good), leaks a later fact once and sends
broken JSON once; the audit must find the omissions, repair restore them, the leak be rejected
and retried, the broken reply retried, and the result validate.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from scripted import exchange_reply, session_reply, write_rules

from umb import ConfigError, EndpointError
from umb._jsonio import read_json
from umb.bench import Benchmark, check
from umb.render import (
    DialoguePlan,
    Endpoint,
    FactSpec,
    LLMRenderConfig,
    RenderJob,
    SessionPlan,
    dry_run,
    render_benchmark,
)
from umb.testing import OpenAIServer


@dataclass
class Scenario:
    rules: list[dict[str, Any]]
    repaired: FactSpec
    repaired_session: str
    lost: FactSpec
    lost_question: str
    leak_session: str
    leak_value: str
    broken_session: str


def _hidden(f: FactSpec, s: SessionPlan) -> bool:
    """A slot whose value no other sentence of the scripted session says."""
    brief = next(e for e in s.news if e.event_id == f.event_id)
    others = [g.value.lower() for g in s.required_facts() if g.id != f.id]
    value = f.value.lower()
    return (
        f.kind == "slot"
        and value != "none"
        and value not in brief.summary.lower()
        and all(value not in o and o not in value for o in others)
    )


def _first_hidden(s: SessionPlan) -> FactSpec | None:
    return next((f for e in s.news for f in e.facts if _hidden(f, s)), None)


def scenario(bench: Path, plans: list[DialoguePlan]) -> Scenario:
    first, second = plans
    repair_s = next(s for s in first.sessions if _first_hidden(s))
    repaired = _first_hidden(repair_s)
    assert repaired is not None
    leak_s = next(s for s in first.sessions if s.forbidden and s is not repair_s)
    sessions = {s.session_id: s for s in second.sessions}
    for q in Benchmark.open(bench).questions:
        if q.dialogue_id != second.dialogue_id or q.family != "IE":
            continue
        lost_s = sessions[q.evidence.session_ids[0]]
        lost = next(f for f in lost_s.required_facts() if f.id == q.evidence.fact_ids[0])
        if _hidden(lost, lost_s):
            break
    else:
        raise AssertionError("no IE question rests on a slot only its own sentence states")
    broken_s = next(s for s in second.sessions if s is not lost_s and s.news)
    rules: list[dict[str, Any]] = [
        {"match": f"Write session {broken_s.session_id}", "times": 1, "reply": '{"turns": [{"ro'},
        {
            "match": f"Write session {leak_s.session_id}",
            "times": 1,
            "reply": session_reply(leak_s, leak=leak_s.forbidden[0][1]),
        },
        {
            "match": f"Repair session {repair_s.session_id}",
            "reply": exchange_reply(repair_s, [repaired]),
        },
        # The lost fact's repairs come back as valid exchanges that never state it.
        {"match": f"Repair session {lost_s.session_id}", "reply": exchange_reply(lost_s, [])},
        {"match": f"Rewrite session {lost_s.session_id}", "reply": exchange_reply(lost_s, [])},
        *write_rules(plans, [repaired.id, lost.id]),
    ]
    return Scenario(
        rules,
        repaired,
        repair_s.session_id,
        lost,
        q.id,
        leak_s.session_id,
        leak_s.forbidden[0][1],
        broken_s.session_id,
    )


def _job(bench: Path, out: Path, server: OpenAIServer, **config: Any) -> RenderJob:
    return RenderJob(
        bench,
        out,
        LLMRenderConfig("openai/umb-test", **config),
        Endpoint(base_url=server.base_url, max_retries=0, timeout_s=10),
        progress=False,
    )


def _session(bench: Path, session_id: str) -> Any:
    for d in Benchmark.open(bench).iter_dialogues():
        for s in d.sessions:
            if s.id == session_id:
                return s
    raise KeyError(session_id)


def test_render_audits_repairs_and_validates(
    tiny_bench: Path, tiny_plans: list[DialoguePlan], openai_server: OpenAIServer, tmp_path: Path
) -> None:
    sc = scenario(tiny_bench, tiny_plans)
    openai_server.set_rules(*sc.rules)
    out = tmp_path / "llm"
    outcome = render_benchmark(_job(tiny_bench, out, openai_server))
    assert check(out).items == []

    coverage = read_json(out / "render" / "coverage.json")
    total = coverage["total"]
    n_sessions = sum(len(p.sessions) for p in tiny_plans)
    # One retry for the broken reply, one for the leak; three repair calls: one insert for the
    # repaired fact, an insert and a rewrite for the lost one.
    assert total["write_requests"] == n_sessions + 2
    assert total["broken_replies"] == 1 and total["leaking_replies"] == 1
    assert total["repair_requests"] == 3
    assert sum(r["missing_after_write"] for r in coverage["dialogues"]) == 2  # both omissions
    assert total["facts"]["repaired"] == 1 and total["facts"]["missing"] == 1
    assert total["fallback_sessions"] == 0 and total["scrubbed_sessions"] == 0
    assert outcome.usage["renderer"]["requests"] == n_sessions + 5
    assert {r["dialogue_id"] for r in coverage["dialogues"]} == {p.dialogue_id for p in tiny_plans}

    # The repaired fact sits in an inserted exchange of its own session.
    session = _session(out, sc.repaired_session)
    stating = [t for t in session.turns if sc.repaired.id in t.fact_ids]
    assert stating and sc.repaired.value in stating[0].text
    k = session.turns.index(stating[0])
    assert session.turns[k - 1].text == "Wait, tell me the details again?"
    # The leak never made it into the dialogue; the retried session is there instead.
    leak_session = _session(out, sc.leak_session)
    assert all(sc.leak_value not in t.text for t in leak_session.turns)
    assert _session(out, sc.broken_session).turns

    # Questions: the template's, minus those resting on the lost fact, counted in the manifest.
    manifest = read_json(out / "manifest.json")
    assert manifest["counts"]["questions_dropped_per_family"]["IE"] >= 1
    assert manifest["config"]["renderer"]["model"] == "openai/umb-test"
    template = {q.id: q for q in Benchmark.open(tiny_bench).questions}
    rendered = {q.id: q for q in Benchmark.open(out).questions}
    assert sc.lost_question not in rendered
    dropped = sum(manifest["counts"]["questions_dropped_per_family"].values())
    assert len(rendered) == len(template) - dropped
    turns = {t.id: t for d in Benchmark.open(out).iter_dialogues() for t in d.turns()}
    # Questions are derived again from what the rendered dialogue tells: KU's sampler may fill a
    # dropped question's place with another attribute change (ids renumber), nothing else moves.
    said = {(t.family, t.query, json.dumps(t.gold, sort_keys=True)) for t in template.values()}
    new = [q for q in rendered.values()
           if (q.family, q.query, json.dumps(q.gold, sort_keys=True)) not in said]  # fmt: skip
    assert all(q.family == "KU" for q in new) and len(new) <= dropped, new
    for q in rendered.values():
        assert sc.lost.id not in q.evidence.fact_ids
        assert all(tid in turns for tid in q.evidence.turn_ids)
        stated = {f for tid in q.evidence.turn_ids for f in turns[tid].fact_ids}
        assert set(q.evidence.fact_ids) <= stated

    # A rerun with the checkpoints gone is answered from the response cache, byte for byte.
    before = {p.name: p.read_bytes() for p in out.glob("*.json*")}
    shutil.rmtree(out / "render" / "dialogues")
    openai_server.control(reset_stats=True)
    again = render_benchmark(_job(tiny_bench, out, openai_server))
    assert openai_server.stats()["requests"] == 0
    assert again.usage["renderer"]["cached"] == n_sessions + 5
    assert {p.name: p.read_bytes() for p in out.glob("*.json*")} == before

    # Other settings in the same folder are refused rather than mixed.
    with pytest.raises(ConfigError, match="other settings"):
        render_benchmark(_job(tiny_bench, out, openai_server, repair_rounds=1))


def test_resume_after_an_endpoint_failure(
    tiny_bench: Path, tiny_plans: list[DialoguePlan], openai_server: OpenAIServer, tmp_path: Path
) -> None:
    first, second = tiny_plans
    failing = {"match": f"Write session {second.sessions[3].session_id}", "status": 500}
    openai_server.set_rules(failing, *write_rules(tiny_plans))
    out = tmp_path / "llm"
    job = replace(
        _job(tiny_bench, out, openai_server),
        endpoint=Endpoint(
            base_url=openai_server.base_url, max_retries=0, concurrency=1, cache=False
        ),
    )
    with pytest.raises(EndpointError):
        render_benchmark(job)
    assert (out / "render" / "dialogues" / f"{first.dialogue_id}.json").exists()
    assert not (out / "manifest.json").exists()
    left = dry_run(job)
    assert left["already_done"] == 1 and left["sessions"] == len(second.sessions)

    openai_server.set_rules(*write_rules(tiny_plans))
    openai_server.control(reset_stats=True)
    outcome = render_benchmark(job)
    assert (outcome.rendered, outcome.skipped) == (1, 1)
    asked = [r["messages"][-1]["content"] for r in openai_server.requests()]
    assert asked and all(f"{second.dialogue_id}:" in text for text in asked)
    assert check(out).items == []


def test_verifier_decides_what_matching_cannot(
    tiny_bench: Path, tiny_plans: list[DialoguePlan], openai_server: OpenAIServer, tmp_path: Path
) -> None:
    plan = tiny_plans[0]
    s, fact = next(
        (s, f)
        for s in plan.sessions
        for e in s.news
        for f in e.facts
        if _hidden(f, s)
        and len(f.value.split()) == 2
        and all(len(w) >= 4 and w[0].isupper() for w in f.value.split())
    )
    partial = f"The {fact.attribute.replace('_', ' ')} was {fact.value.split()[0]}."
    openai_server.set_rules(
        {
            "match": f"Write session {s.session_id}",
            "reply": session_reply(s, say={fact.id: partial}),
        },
        {"match": f"Verify session {s.session_id}", "reply": '{"states": true}'},
        *write_rules(tiny_plans),
    )
    out = tmp_path / "llm"
    render_benchmark(_job(tiny_bench, out, openai_server, verifier="openai/umb-test", votes=3))
    total = read_json(out / "render" / "coverage.json")["total"]
    assert total["facts"]["found_by_verifier"] == 1
    assert total["verifier_requests"] == 3 and total["repair_requests"] == 0
    stating = [t for t in _session(out, s.session_id).turns if fact.id in t.fact_ids]
    assert stating and partial in stating[0].text
    assert check(out).items == []
