"""``oracle_memory``: exactly the gold facts of each session, updates applied.

The reference point of the memory metrics (docs/memory-metrics.md): it reads the benchmark's
``facts.jsonl`` and stores, for every fact a turn of an ingested session states about the
dialogue's character, the fact's own sentence. A fact on a tracked attribute (``employer``,
``city``, …) lives in that attribute's one unit, which each newer value updates; every other
fact (an event and its slots) gets a unit of its own. Nothing else is stored, so it extracts
everything, fabricates nothing and never keeps a stale value. It answers from all of its live
memories, as they stood when the question was asked.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from umb._errors import ConfigError
from umb.bench import Benchmark, Dialogue, Fact, Question, Session
from umb.memory._api import MemoryConfig, MemorySystem, RetrievedContext
from umb.memory._render import render_units, unit_date
from umb.memory._store import MemoryStore
from umb.memory._tracing import read_items, tracing
from umb.memory._units import Event, MemoryVersion, in_time_order, versions_seen
from umb.memory._write_trace import BatchTrace, wrote
from umb.models import ModelAPI
from umb.trace import memory_var


@dataclass(frozen=True)
class GoldFact:
    """A gold fact as a candidate memory: its sentence and the turn stating it."""

    text: str
    source_turn_ids: tuple[str, ...]
    slot: str
    """The unit it lives in: a tracked attribute's name, or the fact's own id."""
    at: str


@dataclass(frozen=True)
class Gold:
    """The facts of a benchmark and which of them set a tracked attribute."""

    facts: dict[str, Fact]
    tracked: frozenset[str]
    """Ids of facts whose value is their character's timeline value at the fact's time."""


@lru_cache(maxsize=4)
def load_gold(bench: Path) -> Gold:
    """Facts and tracked-attribute facts of a benchmark (read once per directory)."""
    b = Benchmark.open(bench)
    facts = b.facts
    if not facts:
        raise ConfigError(f"oracle_memory needs gold facts, and {bench} has no facts.jsonl")
    timelines = b.world.get("timelines", {})
    tracked = set()
    for f in facts.values():
        points = timelines.get(f.character_id, {}).get(f.attribute, [])
        current = [p["value"] for p in points if p["at"] <= f.at]
        if current and current[-1] == f.value:
            tracked.add(f.id)
    return Gold(facts, frozenset(tracked))


class OracleMemory(MemorySystem):
    """Store the gold facts each session states; see the module docstring."""

    name = "oracle_memory"
    description = (
        "Exactly the gold facts of each session, updates applied: the memory metrics' reference."
    )

    def __init__(self, config: MemoryConfig, extractor: ModelAPI | None = None) -> None:
        super().__init__(config, extractor)
        if config.bench is None:
            raise ConfigError("oracle_memory reads the benchmark's facts: set MemoryConfig.bench")
        self.gold = load_gold(config.bench)
        self.store = MemoryStore()
        self.slots: dict[str, tuple[str, str]] = {}
        """Slot -> (unit id, time of the fact it holds)."""
        self.character_id = ""

    def start(self, dialogue: Dialogue) -> None:
        """Remember whose facts to keep."""
        self.character_id = dialogue.character_id

    def facts_of(self, session: Session) -> list[GoldFact]:
        """The session's facts about the character, in the order its turns state them."""
        out = []
        for turn in session.turns:
            for fid in turn.fact_ids:
                f = self.gold.facts.get(fid)
                if f is None or f.character_id != self.character_id:
                    continue
                slot = f.attribute if fid in self.gold.tracked else f.id
                out.append(GoldFact(f.text, (turn.id,), slot, f.at))
        return out

    async def ingest(self, session: Session) -> None:
        """Add each new fact; a newer value of a tracked attribute updates its unit."""
        batch = BatchTrace(session)
        facts = self.facts_of(session)
        with batch.extract() as op:
            batch.candidates(op, facts)
        for fact in facts:
            held = self.slots.get(fact.slot)
            if held is None:
                with batch.apply("add", fact) as op:
                    unit = self.store.add(self._version("ADD", fact, session))
                    wrote(op, unit.id, unit.text)
                self.slots[fact.slot] = (unit.id, fact.at)
                continue
            unit_id, at = held
            # An older value told late, or the same sentence again, changes nothing.
            if fact.at < at or self.store.units[unit_id].text == fact.text:
                continue
            with batch.apply("update", fact, unit_id) as op:
                unit = self.store.append(unit_id, self._version("UPDATE", fact, session))
                wrote(op, unit.id, unit.text)
            self.slots[fact.slot] = (unit_id, fact.at)

    @staticmethod
    def _version(event: Event, fact: GoldFact, session: Session) -> MemoryVersion:
        return MemoryVersion(0, event, fact.text, unit_date(session.started_at),
                             session.started_at, session.id, fact.source_turn_ids)  # fmt: skip

    async def retrieve(self, question: Question) -> RetrievedContext:
        """Every live memory as of ``question.asked_at``, in time order."""
        views = versions_seen(self.store.units.values(), question.asked_at)
        if tracing():
            read_items(memory_var(u.id) for u, _ in views)
        versions, item_ids, turn_ids = in_time_order(views)
        return self._context(render_units(versions), item_ids=item_ids,
                             source_turn_ids=turn_ids, memory_units=len(views))  # fmt: skip
