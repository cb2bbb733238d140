"""Plans derived from the world, and the audit checked against the template's own dialogues."""

from __future__ import annotations

from pathlib import Path

from umb.bench import Benchmark
from umb.render import DialoguePlan, SessionAuditor, load_worlds
from umb.render._audit import FOUND, MISSING, scrub
from umb.render._prompts import writer_prompt
from umb.render._repair import WorkLine, insert_at
from umb.render._values import matcher, normalise


def test_every_fact_is_planned_once_after_it_happened(
    tiny_bench: Path, tiny_plans: list[DialoguePlan]
) -> None:
    bench = Benchmark.open(tiny_bench)
    worlds, _ = load_worlds(bench)
    for plan in tiny_plans:
        world = worlds[plan.character_id]
        planned = [f.id for s in plan.sessions for f in s.required_facts()]
        expected = [f.id for e in world.events for f in world.facts[e.id]]
        assert sorted(planned) == sorted(expected)
        assert len(planned) == len(set(planned))
        previous = ""
        for s in plan.sessions:
            for e in s.news:
                assert previous <= f"{e.day}T{e.time}" < s.started_at
            for e in s.callbacks:
                assert f"{e.day}T{e.time}" < s.started_at and not e.facts[0].required
            previous = s.started_at
        assert plan.sessions[0].profile and not any(s.profile for s in plan.sessions[1:])


def test_prompts_hold_no_question_text_and_no_later_values(
    tiny_bench: Path, tiny_plans: list[DialoguePlan]
) -> None:
    questions = Benchmark.open(tiny_bench).questions
    for plan in tiny_plans:
        for s in plan.sessions:
            prompt = writer_prompt(s)
            for q in questions:
                assert q.query not in prompt
            for attribute, value in s.forbidden:
                assert not matcher(value, attribute).leaks(normalise(prompt), prompt)
    assert any(s.forbidden for p in tiny_plans for s in p.sessions)


def test_state_before_a_session_comes_from_the_timelines(
    tiny_bench: Path, tiny_plans: list[DialoguePlan]
) -> None:
    worlds, _ = load_worlds(Benchmark.open(tiny_bench))
    for plan in tiny_plans:
        timelines = worlds[plan.character_id].timelines
        for prev, s in zip(plan.sessions, plan.sessions[1:], strict=False):
            for attribute, value in s.state:
                points = [p for p in timelines[attribute] if str(p["at"]) < prev.started_at]
                assert value == points[-1]["value"]


def test_audit_finds_the_template_facts(tiny_bench: Path, tiny_plans: list[DialoguePlan]) -> None:
    """The template states every fact exactly: the audit must find (nearly) all of them, where
    the template says, and see no leak."""
    found = total = 0
    for plan, d in zip(tiny_plans, Benchmark.open(tiny_bench).iter_dialogues(), strict=True):
        for s, session in zip(plan.sessions, d.sessions, strict=True):
            lines = [(t.role, t.text) for t in session.turns]
            auditor = SessionAuditor(s, plan.self_names)
            findings = auditor.audit(lines)
            stated = {fid: i for i, t in enumerate(session.turns) for fid in t.fact_ids}
            for f in s.required_facts():
                total += 1
                if findings[f.id].status == FOUND:
                    found += 1
                    line = findings[f.id].line
                    assert line is not None and line <= stated[f.id]
            assert auditor.leaks(lines) == []
    assert found / total > 0.99


def test_audit_misses_a_removed_fact_and_sees_a_leak(
    tiny_bench: Path, tiny_plans: list[DialoguePlan]
) -> None:
    plan = tiny_plans[0]
    d = next(Benchmark.open(tiny_bench).iter_dialogues())
    k, s = next((k, s) for k, s in enumerate(plan.sessions) if s.news and s.forbidden)
    session = d.sessions[k]
    target = s.news[0].facts[-1]
    kept = [(t.role, t.text) for t in session.turns if target.id not in t.fact_ids]
    auditor = SessionAuditor(s, plan.self_names)
    assert auditor.audit(kept)[target.id].status == MISSING
    attribute, value = s.forbidden[0]
    leaking = [*kept[:2], ("user", "Any plans?"), ("assistant", f"Soon: {value}!"), *kept[2:]]
    assert [v for _, v in auditor.leaks(leaking)] == [value]
    cleaned = scrub(leaking, {3})
    assert all(value not in text for _, text in cleaned)
    assert all(a[0] != b[0] for a, b in zip(cleaned, cleaned[1:], strict=False))


def test_insert_points_keep_speakers_alternating() -> None:
    lines = [WorkLine(r, str(i)) for i, r in enumerate(["user", "assistant"] * 3)]
    for after in [None, *lines]:
        at = insert_at(lines, after)
        new = [*lines[:at], WorkLine("user", "q"), WorkLine("assistant", "a"), *lines[at:]]
        assert all(a.role != b.role for a, b in zip(new, new[1:], strict=False))
        assert after is None or at > lines.index(after)
