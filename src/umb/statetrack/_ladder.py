"""Samples of the prompt ladder: which characters, schemas and facts; golds and query times.

A level asks for ``characters × schemas × facts`` fact lines. A character can fill it when it
has at least ``schemas`` schemas with at least ``facts`` facts each; samples draw from those
characters only. When fewer characters can, the level is *short*: it is topped up with the
characters that come closest, takes what they have, and every such sample says so in
``meta.short`` (and the level in ``ladder.json``), so no size is silently wrong.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from umb._errors import ConfigError
from umb._tokens import estimate_tokens
from umb.statetrack._facts import StateFact
from umb.statetrack._levels import Level
from umb.statetrack._prompts import (
    DATE_STYLES,
    ORDERS,
    DateStyle,
    Line,
    Order,
    facts_block,
    render_prompt,
)
from umb.statetrack._tasks import TASKS, Item, TaskName, gold_for

T = TypeVar("T")

TOKEN_CHAR_RATIO: Final = 4.0
"""Characters per estimated token (``umb._tokens``), recorded in each sample's meta."""


@dataclass(frozen=True)
class LadderOptions:
    """How the ladder is drawn; the same options and facts give the same samples."""

    samples: int = 50
    seed: int = 42
    order: Order = "time"
    dates: DateStyle = "day_ts"
    distractors: int = 0
    """Extra fact lines about people not asked about (from the same schemas where possible)."""
    tasks: tuple[TaskName, ...] = TASKS

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise ConfigError(f"samples must be at least 1, not {self.samples}")
        if self.distractors < 0:
            raise ConfigError(f"distractors must be 0 or more, not {self.distractors}")
        if self.order not in ORDERS:
            raise ConfigError(f"order must be one of {', '.join(ORDERS)}, not {self.order!r}")
        if self.dates not in DATE_STYLES:
            raise ConfigError(f"dates must be one of {', '.join(DATE_STYLES)}, not {self.dates!r}")
        bad = [t for t in self.tasks if t not in TASKS]
        if bad or not self.tasks:
            raise ConfigError(f"tasks must be among {', '.join(TASKS)}, not {bad or 'none'}")


@dataclass
class FactPool:
    """The state facts of a benchmark, indexed the ways the ladder needs."""

    facts: dict[str, list[StateFact]]
    groups: dict[str, dict[str, list[StateFact]]] = field(init=False)
    index: dict[tuple[str, str], StateFact] = field(init=False)
    names: dict[str, str] = field(init=False)

    def __post_init__(self) -> None:
        self.groups, self.index, self.names = {}, {}, {}
        for cid, facts in self.facts.items():
            by_schema: dict[str, list[StateFact]] = {}
            for f in facts:
                by_schema.setdefault(f.schema, []).append(f)
                self.index[(cid, f.fact_id)] = f
                self.names[cid] = f.character
            self.groups[cid] = by_schema

    @property
    def characters(self) -> list[str]:
        return sorted(self.groups)

    def capacity(self, cid: str, facts: int) -> int:
        """How many of ``cid``'s schemas hold at least ``facts`` facts."""
        return sum(1 for fs in self.groups[cid].values() if len(fs) >= facts)

    def supply(self, cid: str, schemas: int, facts: int) -> int:
        """Most fact lines ``cid`` can give to a level asking ``schemas`` × ``facts``."""
        sizes = sorted((min(len(fs), facts) for fs in self.groups[cid].values()), reverse=True)
        return sum(sizes[:schemas])

    def eligible(self, lv: Level) -> list[str]:
        """Characters that can fill ``lv`` exactly."""
        return [c for c in self.characters if self.capacity(c, lv.facts) >= lv.schemas]


def _pick_characters(pool: FactPool, lv: Level, rng: random.Random) -> list[str]:
    eligible = pool.eligible(lv)
    if len(eligible) >= lv.characters:
        return sorted(rng.sample(eligible, lv.characters))
    taken = set(eligible)
    rest = [c for c in pool.characters if c not in taken]
    rng.shuffle(rest)
    rest.sort(key=lambda c: -pool.supply(c, lv.schemas, lv.facts))
    return sorted(eligible + rest[: lv.characters - len(eligible)])


def _pick_schemas(pool: FactPool, cid: str, lv: Level, rng: random.Random) -> list[str]:
    groups = pool.groups[cid]
    full = sorted(s for s, fs in groups.items() if len(fs) >= lv.facts)
    if len(full) >= lv.schemas:
        return sorted(rng.sample(full, lv.schemas))
    others = sorted(s for s in groups if len(groups[s]) < lv.facts)
    rng.shuffle(others)
    others.sort(key=lambda s: -len(groups[s]))
    return sorted(full + others[: lv.schemas - len(full)])


def _distractors(
    pool: FactPool, chosen: set[str], schemas: set[str], n: int, rng: random.Random
) -> list[StateFact]:
    if n == 0:
        return []
    others = [c for c in pool.characters if c not in chosen]
    rng.shuffle(others)
    same: list[StateFact] = []
    for cid in others:  # stop early: a large world has far more than enough
        same += [f for s in sorted(schemas) for f in pool.groups[cid].get(s, [])]
        if len(same) >= 3 * n:
            break
    if len(same) >= n:
        return rng.sample(same, n)
    spare = [f for cid in others for f in pool.facts[cid] if f.schema not in schemas]
    return same + rng.sample(spare, min(n - len(same), len(spare)))


def _ordered(lines: list[StateFact], order: Order, rng: random.Random) -> list[StateFact]:
    if order == "blocks":
        return sorted(lines, key=lambda f: (f.character, f.fact_id))
    by_time = sorted(lines, key=lambda f: (f.day, f.character, f.fact_id))
    if order == "shuffled":
        rng.shuffle(by_time)
    return by_time


def _jsonable(gold: dict[tuple[str, str], T]) -> dict[str, dict[str, T]]:
    out: dict[str, dict[str, T]] = {}
    for (person, schema), answer in gold.items():
        out.setdefault(person, {})[schema] = answer
    return out


def task_entries(
    groups: dict[tuple[str, str], list[Item]], tasks: Sequence[TaskName], rng: random.Random
) -> list[dict[str, Any]]:
    """Query, gold and accepted answers of each task for the (person, schema) groups."""
    keys = sorted(groups)
    first = max(min(it.day for it in groups[k]) for k in keys)
    last = max(max(it.day for it in groups[k]) for k in keys)
    as_of = rng.randint(first, last)
    probes: list[list[Any]] = []
    for k in keys:
        days = sorted({it.day for it in groups[k]})
        probes.append([*k, rng.randint(days[0], days[-2]) if len(days) > 1 else days[0]])
    probe_day = {(p, s): d for p, s, d in probes}
    entries = []
    for task in tasks:
        query: dict[str, Any] = {}
        if task == "latest":
            query = {"as_of": as_of}
        elif task == "value_at":
            query = {"probes": probes}
        golds = {
            k: gold_for(task, groups[k], as_of if task == "latest" else probe_day.get(k))
            for k in keys
        }
        gt = {p: {task: a} for p, a in _jsonable({k: g.answer for k, g in golds.items()}).items()}
        accept = _jsonable({k: list(g.accepted) for k, g in golds.items() if len(g.accepted) > 1})
        entries.append({"Task": task, "Query": query, "GT": gt, "Accept": accept})
    return entries


def build_sample(pool: FactPool, lv: Level, options: LadderOptions, number: int) -> dict[str, Any]:
    """Sample ``number`` (1-based) of level ``lv``: its lines, tasks, golds and sizes."""
    rng = random.Random(f"umb-statetrack/{options.seed}/{lv.name}/{number}")
    chars = _pick_characters(pool, lv, rng)
    chosen = {cid: _pick_schemas(pool, cid, lv, rng) for cid in chars}
    targets = [f for cid in chars for s in chosen[cid] for f in pool.groups[cid][s][: lv.facts]]
    schemas = {s for ss in chosen.values() for s in ss}
    extra = _distractors(pool, set(chars), schemas, options.distractors, rng)
    shown = _ordered(targets + extra, options.order, rng)
    reference = max(f.day for f in shown)
    groups: dict[tuple[str, str], list[Item]] = {}
    for f in shown:
        if f.character_id in chosen:
            groups.setdefault((f.character, f.schema), []).append(Item(f.day, f.value, f.fact))
    entries = task_entries(groups, options.tasks, rng)
    names = sorted(pool.names[c] for c in chars)
    block = facts_block([Line(f.schema, f.day, f.fact) for f in shown], options.dates, reference)
    prompts: dict[str, dict[str, int]] = {}
    for entry in entries:
        text = render_prompt(
            entry["Task"], block, names, entry["Query"], style=options.dates,
            order=options.order, reference=reference, others=bool(extra),
        )  # fmt: skip
        size = {"chars": len(text), "est_tokens": estimate_tokens(text)}
        entry["Stats"] = {**size, "task": entry["Task"], "facts_lines": len(shown)}
        prompts[entry["Task"]] = size
    short = len(chars) < lv.characters or len(targets) < lv.lines
    meta = {
        "seed": options.seed,
        "token_char_ratio": TOKEN_CHAR_RATIO,
        "num_characters": lv.characters,
        "max_schemas_per_character": lv.schemas,
        "max_facts_per_schema": lv.facts,
        "shuffle_facts": options.order == "shuffled",
        "order": options.order,
        "dates": options.dates,
        "reference_day": reference,
        "chosen_characters": names,
        "chosen_schemas": {
            pool.names[c]: chosen[c] for c in sorted(chars, key=lambda c: pool.names[c])
        },
        "short": short,
        "stats": {
            "facts_lines": len(shown),
            "target_lines": len(targets),
            "distractor_lines": len(extra),
            "characters": len(chars),
            "prompts": prompts,
            "sum_chars": sum(p["chars"] for p in prompts.values()),
            "sum_est_tokens": sum(p["est_tokens"] for p in prompts.values()),
        },
    }
    return {
        "sample_id": f"s{number:06d}",
        "level": lv.name,
        "meta": meta,
        "lines": [[f.character_id, f.fact_id] for f in shown],
        "data": entries,
    }
