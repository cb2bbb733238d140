"""MSR: a causal chain from its first to its last event."""

from __future__ import annotations

import random

from umb.bench import Question
from umb.qa._context import QAContext
from umb.world import Event

_COMMON = {"none", "yes", "no"}
# The chain's first event is pointed at by kind and month, not by its summary: "booked a trip
# to Cape Town" would give away the next step ("travelled to Cape Town") to a reader who never
# saw the dialogue.
MSR_QUERIES = (
    "Starting from {head}, what chain of events followed from it, step by step, and what was "
    "the final outcome?",
    "Trace what happened after {head}: which events followed from it, in order, and how did "
    "it end?",
)


def step_keys(e: Event) -> list[str]:
    """Strings that identify an event in a free-text answer: its summary and distinctive values."""
    keys = [e.summary]
    for slot, value in e.slots.items():
        if slot in (
            "previous_employer",
            "previous_city",
            "previous_car",
            "previous_hobby",
            "with",
            "relation",
        ):
            continue
        if len(value) > 3 and value.lower() not in _COMMON and not value[0].isdigit():
            keys.append(value)
    return keys


def _chains(ctx: QAContext) -> list[list[Event]]:
    by_id = {e.id: e for e in ctx.world.events}
    has_child = {c for e in ctx.world.events for c in e.caused_by}
    chains = []
    for e in ctx.world.events:
        if e.id in has_child or not e.caused_by:
            continue
        chain = [e]
        while chain[0].caused_by:
            chain.insert(0, by_id[chain[0].caused_by[0]])
        if 3 <= len(chain) <= 6:
            chains.append(chain)
    return chains


def msr_questions(ctx: QAContext, rng: random.Random, n: int) -> list[Question]:
    chains = _chains(ctx)
    rng.shuffle(chains)
    out: list[Question] = []
    for chain in chains:
        if len(out) == n:
            break
        head, last = chain[0], chain[-1]
        pointer = ctx.describe(head)
        if pointer is None:  # two look-alike heads in one month: no unique pointer
            continue
        query = rng.choice(MSR_QUERIES).format(head=pointer)
        steps = [e.summary for e in chain]
        facts = [ctx.world.facts[e.id][0].id for e in chain]
        ev = ctx.evidence(chain, facts, ctx.end_at)
        gold = {"event_chain": steps, "final_outcome": last.summary}
        out.append(
            ctx.question(
                "MSR",
                len(out) + 1,
                query,
                ctx.end_at,
                gold,
                steps,
                ev,
                {"kind": "causal_chain", "step_keys": [step_keys(e) for e in chain]},
            )
        )
    return out
