"""The four tasks and their golds, computed from a (person, schema) group's facts.

Every gold is defined on the group sorted by day with equal days in listed order (the
original's rule). A prompt cannot always show that order (shuffled lines, or a time that
only gives the day), so each gold also comes with the set of answers that some order of the
equal-day facts would give; scoring accepts any of them.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

TaskName = Literal["schema_longest", "latest", "value_at", "num_changes"]
TASKS: Final[tuple[TaskName, ...]] = ("schema_longest", "latest", "value_at", "num_changes")
"""Every task: the original's ``schema_longest`` first, then umb's three."""

# Past this many orders of one equal-day block, only the listed order counts (never reached by
# generated worlds, where a block holds at most a few facts).
_MAX_ORDERS: Final = 720

Answer = str | int | None


@dataclass(frozen=True, slots=True)
class Item:
    """One fact of a group, as the gold rules see it."""

    day: int
    value: str
    text: str


@dataclass(frozen=True, slots=True)
class Gold:
    """A gold answer and every answer accepted as correct (the gold first)."""

    answer: Answer
    accepted: tuple[Answer, ...]


def _unique(values: Sequence[Answer]) -> tuple[Answer, ...]:
    out: list[Answer] = []
    for v in values:
        if v not in out:
            out.append(v)
    return tuple(out)


def _sorted(items: Sequence[Item]) -> list[Item]:
    return sorted(items, key=lambda it: it.day)  # stable: equal days keep the listed order


def _blocks(ordered: Sequence[Item]) -> list[list[Item]]:
    return [list(g) for _, g in itertools.groupby(ordered, key=lambda it: it.day)]


def schema_longest(items: Sequence[Item]) -> Gold:
    """The fact before the largest day gap between neighbours (the original's task).

    One fact: that fact (``null`` also accepted, as in the original's scorer). All facts on one
    day: the first. Otherwise the earlier fact of the earliest largest-gap pair.
    """
    ordered = _sorted(items)
    if len(ordered) == 1:
        return Gold(ordered[0].text, (ordered[0].text, None))
    blocks = _blocks(ordered)
    if len(blocks) == 1:
        return Gold(ordered[0].text, _unique([ordered[0].text] + [it.text for it in ordered]))
    best = max(range(len(blocks) - 1), key=lambda i: (blocks[i + 1][0].day - blocks[i][0].day, -i))
    block = blocks[best]
    return Gold(block[-1].text, _unique([block[-1].text] + [it.text for it in block]))


def value_as_of(items: Sequence[Item], day: int) -> Gold:
    """The value of the latest fact dated on or before ``day``; ``None`` when there is none."""
    seen = [it for it in _sorted(items) if it.day <= day]
    if not seen:
        return Gold(None, (None,))
    last = seen[-1]
    return Gold(last.value, _unique([last.value] + [it.value for it in seen if it.day == last.day]))


def _orders(block: list[Item]) -> list[tuple[str, ...]]:
    values = [it.value for it in block]
    if len(set(values)) == 1:
        return [tuple(values)]
    n_orders = 1
    for k in range(2, len(values) + 1):
        n_orders *= k
    if n_orders > _MAX_ORDERS:
        return [tuple(values)]
    return sorted(set(itertools.permutations(values)))


def num_changes(items: Sequence[Item]) -> Gold:
    """How often the value differs from the one before, in time order."""
    ordered = _sorted(items)
    values = [it.value for it in ordered]
    gold = sum(1 for a, b in zip(values, values[1:], strict=False) if a != b)
    # Each equal-day block may come in any order: track (last value -> reachable counts).
    reach: dict[str | None, set[int]] = {None: {0}}
    for block in _blocks(ordered):
        nxt: dict[str | None, set[int]] = {}
        for order in _orders(block):
            inner = sum(1 for a, b in zip(order, order[1:], strict=False) if a != b)
            for last, counts in reach.items():
                step = inner + (1 if last is not None and last != order[0] else 0)
                nxt.setdefault(order[-1], set()).update(c + step for c in counts)
        reach = nxt
    reachable = sorted(set().union(*reach.values()))
    return Gold(gold, _unique([gold, *reachable]))


def gold_for(task: TaskName, items: Sequence[Item], day: int | None = None) -> Gold:
    """The gold of ``task`` for one group; ``day`` is the query time of ``latest``/``value_at``."""
    if task == "schema_longest":
        return schema_longest(items)
    if task == "num_changes":
        return num_changes(items)
    if day is None:
        raise ValueError(f"task {task} needs a query day")
    return value_as_of(items, day)
