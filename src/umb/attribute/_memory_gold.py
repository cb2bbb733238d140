"""What the memory metrics compare a store with: the gold facts of a benchmark, indexed.

Per character: who it is (its names, for the subject check), the facts it has, which of them set
a tracked attribute and when a later value supersedes them, its attribute changes (old -> new),
and when the world first involves each value (a value never involved by then is fabricated).
Per dialogue: which of the character's facts each session states.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from umb.attribute._facts import Need, padded, tokens
from umb.attribute._memory_claims import Roles
from umb.bench import Dialogue, Fact

#: Values too generic to mark a memory as fabricated when the world never gave them to someone.
GENERIC_VALUES = frozenset({"none", "no", "yes", "single"})
#: A span of time ("6 days") reads like a relative date ("six days ago"), a number like a year
#: ("$2,020" is "2020" once normalised): neither can mark a memory as fabricated.
_SPAN = re.compile(r"\A(\d+ (minute|hour|day|week|month|year)s?|(19|20)\d\d)\Z")


@dataclass(frozen=True, slots=True)
class Text:
    """A memory text normalised once for the many checks made on it."""

    raw: str
    """The text as written."""
    hay: str
    """Its :func:`~umb.attribute._facts.padded` form."""
    toks: tuple[str, ...]
    """Its distinct normalised tokens, in order of first occurrence."""
    pairs: frozenset[tuple[str, str]]
    """Its pairs of adjacent tokens: a value of several tokens starts with one of them."""

    @classmethod
    def of(cls, text: str | Text) -> Text:
        if isinstance(text, Text):
            return text
        hay = padded(text)
        every = hay.split()
        pairs = frozenset(zip(every, every[1:], strict=False))
        return cls(text, hay, tuple(dict.fromkeys(every)), pairs)


@dataclass
class _Vocabulary:
    """Values indexed for :meth:`GoldIndex.world_values`: a one-token value by its token, a
    longer one by its first two (a few substring searches per text instead of hundreds: many
    event values start with "bought" or "started"). ``rank`` orders the values of one first
    token, as they are reported."""

    one: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    two: dict[tuple[str, str], list[tuple[int, str, str]]] = field(default_factory=dict)

    @classmethod
    def of(cls, values: Iterable[tuple[str, str]]) -> _Vocabulary:
        """From ``(value, padded value)`` pairs."""
        vocab = cls()
        by_first: dict[str, set[tuple[str, str]]] = {}
        for value, needle in values:
            by_first.setdefault(needle.split(maxsplit=1)[0], set()).add((value, needle))
        for first, entries in by_first.items():
            for rank, (value, needle) in enumerate(sorted(entries)):
                toks = needle.split()
                if len(toks) == 1:
                    vocab.one.setdefault(first, []).append((rank, value))
                else:
                    vocab.two.setdefault((first, toks[1]), []).append((rank, value, needle))
        return vocab

    def found(self, text: Text) -> list[str]:
        """The values ``text`` states, by first token in text order, then by rank."""
        # filter() finds the few tokens and pairs that start a value at C speed.
        toks, hay = text.toks, text.hay
        hits = [(toks.index(tok), rank, value) for tok in filter(self.one.__contains__, toks)
                for rank, value in self.one[tok]]  # fmt: skip
        for pair in filter(self.two.__contains__, text.pairs):
            for rank, value, needle in self.two[pair]:
                if needle in hay:
                    hits.append((toks.index(pair[0]), rank, value))
        hits.sort()
        return [value for _, _, value in hits]


def need_of(value: str, label: str = "value") -> Need:
    """A one-value :class:`Need`, matched the way attribution matches answers."""
    return Need(label, (value,))


@dataclass(frozen=True, slots=True)
class Change:
    """One change of a tracked attribute, as the world's event records it."""

    event_id: str
    attribute: str
    old: str
    new: str
    at: str
    fact_ids: tuple[str, ...]
    """The character's facts stating the new value (the event's slot, its change sentence)."""


@dataclass
class Person:
    """One character, as the metrics need it."""

    id: str
    names: tuple[Need, ...]
    """Full and first name: a memory naming one is about this character."""
    needles: tuple[str, ...] = field(init=False)
    own: frozenset[str] = field(init=False)
    """Its names and their words, lowercased: naming the subject claims no value."""
    facts: list[Fact] = field(default_factory=list)
    tracked: set[str] = field(default_factory=set)
    """Ids of facts that set a tracked attribute (the timeline's value at their time)."""
    changes: list[Change] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.needles = tuple(padded(n.values[0]) for n in self.names)
        self.own = frozenset(w.lower() for need in self.names for v in need.values
                             for w in (v, *v.split()))  # fmt: skip


class GoldIndex:
    """The gold of a benchmark for the memory metrics (see the module docstring)."""

    def __init__(self, facts: dict[str, Fact], world: dict[str, Any]) -> None:
        self.facts = facts
        self.people: dict[str, Person] = {}
        for c in world.get("characters", ()):
            names = tuple(need_of(n, "name") for n in dict.fromkeys([c["name"], c["first_name"]]))
            self.people[c["id"]] = Person(c["id"], names)
        self.kinds: dict[str, str] = {}
        timelines = world.get("timelines", {})
        # (character, event, attribute, value) -> the character's facts stating it, in time order
        stating: dict[tuple[str, str, str, str], list[str]] = {}
        for f in sorted(facts.values(), key=lambda f: (f.at, f.id)):
            person = self.people.setdefault(f.character_id, Person(f.character_id, ()))
            person.facts.append(f)
            stating.setdefault((f.character_id, f.event_id, f.attribute, f.value), []).append(f.id)
            points = timelines.get(f.character_id, {}).get(f.attribute, [])
            current = [p["value"] for p in points if p["at"] <= f.at]
            if current and current[-1] == f.value:
                person.tracked.add(f.id)
        for e in world.get("events", ()):
            self.kinds[e["id"]] = str(e.get("kind") or e.get("category") or "event")
            for ch in e.get("state_changes", ()):
                for cid in [e["character_id"], *e.get("participants", ())]:
                    if cid not in self.people:
                        continue
                    ids = stating.get((cid, e["id"], ch["attribute"], ch["new"]))
                    if ids:
                        self.people[cid].changes.append(Change(
                            e["id"], ch["attribute"], str(ch["old"]), str(ch["new"]), e["at"],
                            tuple(ids)))  # fmt: skip
        self._others: dict[str, dict[str, list[str]]] = {}
        vocab: list[tuple[str, str]] = []
        for f in facts.values():
            toks = tokens(f.value)
            if (toks and f.value.lower() not in GENERIC_VALUES and len("".join(toks)) > 2
                    and not _SPAN.match(" ".join(toks))):  # fmt: skip
                vocab.append((f.value, padded(f.value)))
        self._vocab = _Vocabulary.of(vocab)
        self.roles = Roles(facts.values())
        """Which value can fill which attribute: what tells a claim from a coincidence."""
        self._involved: dict[tuple[str, str], str | None] = {}
        self._history: dict[str, tuple[str, list[int]]] = {}

    def kind_of(self, fact: Fact) -> str:
        """The event kind of a fact (``initial_state`` for a character's starting attributes)."""
        return self.kinds.get(fact.event_id, "initial_state")

    def about(self, text: str | Text, person: Person) -> bool:
        """Whether ``text`` is about ``person``: it names them, or names no other character."""
        t = Text.of(text)
        hay = t.hay
        if any(needle in hay for needle in person.needles):
            return True
        others = self._others.get(person.id)
        if others is None:  # other characters' names by first token
            mine = {n.values[0] for n in person.names}
            others = {}
            for p in self.people.values():
                for n in p.names:
                    if p.id != person.id and n.values[0] not in mine:
                        others.setdefault(tokens(n.values[0])[0], []).append(padded(n.values[0]))
            self._others[person.id] = others
        return not any(name in hay for tok in filter(others.__contains__, t.toks)
                       for name in others[tok])  # fmt: skip

    def world_values(self, text: str | Text) -> list[str]:
        """Values of any fact of the benchmark that ``text`` states (whole normalised tokens)."""
        return self._vocab.found(Text.of(text))

    def claims(self, text: str | Text, person: Person) -> list[str]:
        """The world values ``text`` states other than ``person``'s own name: a memory about
        Olive Wolfe does not claim someone's cat "Olive" by naming her."""
        own = person.own
        return [x for x in self.world_values(text) if x.lower() not in own]

    def involved_since(self, person: Person, value: str) -> str | None:
        """When the world first involves ``person`` with ``value``: the time of their earliest
        fact whose value states it (None: never). A fact's sentence says no more than its value,
        the date and the person's name."""
        key = (person.id, value)
        if key not in self._involved:
            if person.id not in self._history:
                # One string of the person's facts in time order: a value's first occurrence
                # is one substring search, its fact found by bisecting the offsets.
                parts = [padded(f.value) for f in person.facts]
                starts = list(accumulate((len(p) + 1 for p in parts), initial=0))
                self._history[person.id] = ("\n".join(parts), starts)
            joined, starts = self._history[person.id]
            needle = f" {' '.join(tokens(value))} "
            at = joined.find(needle) if needle.strip() else -1
            self._involved[key] = person.facts[bisect_right(starts, at) - 1].at if at >= 0 else None
        return self._involved[key]


@dataclass(frozen=True)
class DialogueGold:
    """One dialogue: its character and, per session in time order, the facts it states."""

    dialogue_id: str
    person: Person
    sessions: tuple[tuple[str, str], ...]
    """``(session id, started_at)`` in time order."""
    stated: tuple[tuple[str, ...], ...]
    """Per session, the ids of the character's facts its turns state (first mention order)."""

    @classmethod
    def of(
        cls,
        dialogue_id: str,
        person: Person,
        sessions: list[tuple[str, str, tuple[str, ...]]],
        ingested: set[str],
    ) -> DialogueGold:
        """The ``ingested`` ones of a dialogue's ``(session id, started_at, fact ids)``."""
        kept = sorted((s for s in sessions if s[0] in ingested), key=lambda s: s[1])
        return cls(dialogue_id, person, tuple((s, at) for s, at, _ in kept),
                   tuple(ids for _, _, ids in kept))  # fmt: skip


def stated_facts(
    dialogue: Dialogue, gold: GoldIndex | Mapping[str, Fact]
) -> list[tuple[str, str, tuple[str, ...]]]:
    """Per session of ``dialogue``: its id, start and the character's facts its turns state
    (first mention order); a dialogue's text is not needed after this. ``gold`` is the gold,
    or only the benchmark's facts by id (all this needs)."""
    facts = gold.facts if isinstance(gold, GoldIndex) else gold
    out = []
    for s in dialogue.sessions:
        ids = (fid for t in s.turns for fid in t.fact_ids)
        mine = (fid for fid in ids if fid in facts
                and facts[fid].character_id == dialogue.character_id)  # fmt: skip
        out.append((s.id, s.started_at, tuple(dict.fromkeys(mine))))
    return out
