"""Memory metrics checked against faults injected for real (the fault-injection harness).

Each fault runs a system again with one stage broken; the metrics of the faulted pass differ
from the baseline's by exactly what the fault did:

- extraction: the facts missed now are the facts whose every holder in the baseline was written
  from a blinded sentence (a unit the blinded turns gave and that states the fact's value), plus
  facts a decision of the same session took from a unit (reported with that operation); only
  ``summary`` gains facts, in the blinded session (its freed sentence budget);
- update: recall unchanged; every new omission was made by an ``update`` the fault ran; a
  change whose new value was corrupted is no longer ``updated``;
- deletion: the same, by the ``delete`` operations it ran.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from umb.attribute import Fault
from umb.attribute._facts import states
from umb.attribute._faults_harness import Harness
from umb.attribute._faults_run import draw_faults
from umb.attribute._memory_gold import GoldIndex, need_of
from umb.attribute._memory_metrics_run import dialogue_facts, system_rows
from umb.bench import Benchmark
from umb.memory import split_sentences
from umb.trace import Trace

DIALOGUES = 2


@pytest.fixture(scope="module")
def harness(demo_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Harness:
    return Harness(demo_bench, tmp_path_factory.mktemp("mm-faults"))


@pytest.fixture(scope="module")
def gold(demo_bench: Path) -> tuple[Benchmark, GoldIndex]:
    b = Benchmark.open(demo_bench)
    return b, GoldIndex(b.facts, b.world)


def _questions(harness: Harness, dialogues: int = DIALOGUES) -> list[Any]:
    keep = set(sorted(harness.dialogues)[:dialogues])
    return [q for q in harness.data.questions.values() if q.dialogue_id in keep]


def _rows(trace: Trace, gold: tuple[Benchmark, GoldIndex]) -> dict[str, dict[str, Any]]:
    bench, index = gold
    rows = system_rows(trace, None, dialogue_facts(bench, index), index)
    return {r["dialogue_id"]: r for r in rows}


def _passes(
    harness: Harness,
    system: str,
    kind: str,
    per_cell: int,
    seed: int,
    family: str | None = None,
    dialogues: int = DIALOGUES,
) -> tuple[Trace, list[tuple[Fault, Trace, list[str]]]]:
    async def go() -> tuple[Trace, list[tuple[Fault, Trace, list[str]]]]:
        qs = _questions(harness, dialogues)
        _, base, _ = await harness.run(system, qs)
        out = []
        pool = [q for q in qs if family is None or q.family == family]
        for f in draw_faults(harness, {system: pool}, per_cell=per_cell, seed=seed, kinds=[kind]):
            _, view, logs = await harness.run(system, qs, [f])
            log = logs[f.question.id]
            if log.applied:  # nothing stated the fact: nothing to break (the harness's count)
                out.append((f, view.trace, log.op_ids))
        assert len(out) >= 3
        return base.trace, out

    return asyncio.run(go())


def _blinded_source(
    trace: Trace,
    node_id: str,
    fault: Fault,
    value: str,
    turns: dict[str, str],
    *,
    restated_elsewhere_keeps: bool = True,
) -> bool:
    """Whether the unit holds ``value`` only in sentences written from a blinded one: its
    source turns include a blinded turn, no other source turn (nor a blinded turn's surviving
    sentences) states the value (a look-alike event told in the same session), and each of
    its sentences stating the value states the fault's fact too (a summary holds many facts,
    one sentence each).

    Without ``restated_elsewhere_keeps``, another source turn stating the value does not count:
    a summary keeps a few sentences per session, so a fact held only in a blinded sentence may
    be lost with it even where an unblinded turn also states it (the summariser picks another).
    """
    identity, version = node_id.rsplit("@", 1)
    node = trace.node(identity, int(version))
    assert node.writer is not None
    sources = trace.op(node.writer).attrs.get("source_turn_ids") or ()
    if not set(sources) & set(fault.turn_ids):
        return False
    others = [t for t in sources if t not in fault.turn_ids]
    if restated_elsewhere_keeps and any(states(turns[t], need_of(value)) for t in others):
        return False
    # Blinding drops the sentences stating the fault's fact; one stating the value otherwise (a
    # retelling in other words) stays, and the unit may still be written from it.
    kept = [s for t in sources if t in fault.turn_ids for s in split_sentences(turns[t])
            if not states(s, fault.need)]  # fmt: skip
    if any(states(s, need_of(value)) for s in kept):
        return False
    holding = [s for s in split_sentences(trace.value(node)) if states(s, need_of(value))]
    return bool(holding) and all(states(s, fault.need) for s in holding)


@pytest.mark.parametrize("system", ["mem0_style", "summary"])
def test_extraction_fault_lowers_recall_by_exactly_the_blinded_facts(
    harness: Harness, gold: tuple[Benchmark, GoldIndex], system: str
) -> None:
    base_trace, passes = _passes(harness, system, "extraction", 4, seed=3)
    base = _rows(base_trace, gold)
    facts = gold[1].facts
    turns = {t.id: t.text for d in gold[0].iter_dialogues() for t in d.turns()}
    lowered = 0
    for fault, trace, _ in passes:
        did = fault.question.dialogue_id
        before, after = base[did]["detail"], _rows(trace, gold)[did]["detail"]

        def blinded_facts(extracted: dict[str, Any], fault: Fault, keeps: bool) -> set[str]:
            return {fid for fid, e in extracted.items()
                    if all(_blinded_source(base_trace, u, fault, facts[fid].value, turns,
                                           restated_elsewhere_keeps=keeps)
                           for u in e["units"])}  # fmt: skip

        blinded = blinded_facts(before["extracted"], fault, True)
        newly = set(after["missed"]) - set(before["missed"])
        # A summary may lose a fact restated in an unblinded turn it does not pick.
        cascade = newly - blinded_facts(before["extracted"], fault, system != "summary")
        assert blinded <= newly, (fault.need, blinded - newly)
        assert cascade <= set(after["missed_removed_by"]), (fault.need, cascade)
        gained = set(before["missed"]) - set(after["missed"])
        if system == "summary":  # a blinded sentence frees its session's budget for another
            blinded_sessions = {t.rsplit(":", 1)[0] for t in fault.turn_ids}
            assert all(after["extracted"][f]["session_id"] in blinded_sessions for f in gained)
        else:
            assert not gained, fault.need
        extracted_after = _rows(trace, gold)[did]["extracted"]
        assert base[did]["extracted"] - extracted_after == len(newly) - len(gained)
        lowered += bool(blinded)
    # A summary keeps a few sentences per session: a blinded fact it never kept costs nothing.
    assert lowered >= 1


@pytest.mark.parametrize("kind", ["update", "deletion"])
def test_update_and_deletion_faults_show_in_omissions_and_updates(
    harness: Harness, gold: tuple[Benchmark, GoldIndex], kind: str
) -> None:
    # Update faults on KU questions: their fact is an attribute's new value. KU asks between two
    # changes, so few dialogues hold one: the update cell reads six.
    family, dialogues = ("KU", 6) if kind == "update" else (None, DIALOGUES)
    base_trace, passes = _passes(
        harness, "mem0_style", kind, 5, seed=3, family=family, dialogues=dialogues
    )
    base = _rows(base_trace, gold)
    operation = "update" if kind == "update" else "delete"
    changed_updates = omitted = 0
    for fault, trace, op_ids in passes:
        did = fault.question.dialogue_id
        before, after = base[did]["detail"], _rows(trace, gold)[did]["detail"]
        # Extraction is untouched; a corrupted unit no longer absorbs a later restatement of
        # the fact as a duplicate, so that restatement may be stored (and its fact found).
        gained = set(before["missed"]) - set(after["missed"])
        assert set(after["missed"]) <= set(before["missed"]), fault.need
        assert all(states(gold[1].facts[f].value, fault.need) for f in gained), (fault.need, gained)
        touched = [*fault.need.values, *(gold[1].facts[f].value for f in gained)]
        old = {o["fact_id"] for o in before["omissions"]}
        new = [o for o in after["omissions"] if o["fact_id"] not in old]
        for o in new:
            assert o["op_id"] in op_ids and o["operation"] == operation, (fault.need, o)
        if new:
            omitted += 1
            if kind == "update":  # a fact another unit still states is not lost; the new one is
                assert any(states(gold[1].facts[o["fact_id"]].value, fault.need) for o in new)
            else:  # what only a deleted unit held is lost with it, whichever of its facts
                for o in new:  # o["unit"] is the tombstone; the version before it held the text
                    identity, version = o["unit"].rsplit("@", 1)
                    text = trace.value(trace.node(identity, int(version) - 1))
                    assert states(text, fault.need), (fault.need, o)
        outcome = {(u["event_id"], u["attribute"]): u for u in before["updates"]}
        for u in after["updates"]:
            was = outcome[(u["event_id"], u["attribute"])]
            hit = states(u["new"], fault.need)
            if hit and was["outcome"] in ("updated", "duplicated") and was["session_id"] in {
                    o["session_id"] for o in new}:  # fmt: skip
                assert u["outcome"] not in ("updated", was["outcome"]), (fault.need, u, was)
                changed_updates += 1
            elif not hit and not any(u["old"] and u["old"] in text for text in touched):
                # An update from a value the corrupted memory (or a restatement stored since)
                # held finds other memories saying it than before.
                assert u["outcome"] == was["outcome"] or u["session_id"] in {
                    o["session_id"] for o in new}, (fault.need, u, was)  # fmt: skip
    assert omitted >= 2
    if kind == "update":
        assert changed_updates >= 1  # a KU fact's corrupted new value shows in update accuracy
