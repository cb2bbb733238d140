"""Operation-level memory metrics of one dialogue: what the write path kept, fabricated, updated
and lost, measured on the memory units against the gold facts (docs/memory-metrics.md).

The store is replayed session by session from the unit versions the trace recorded. A unit
*states* a fact when it is about the fact's character (the subject check of
:meth:`~umb.attribute._memory_gold.GoldIndex.about`) and holds the fact's value as whole
normalised tokens (attribution's :func:`~umb.attribute._facts.states`, through its
:func:`~umb.attribute._facts.padded` form so that many values are checked against one text).

- **extraction**: a fact stated in a session is extracted if, by the end of a session stating it,
  a unit version written then or live then states it (all such versions are its holders);
- **precision / fabrication**: of the versions written, those stating some gold fact of the
  character, and those stating a value of the benchmark the character's world had not involved
  them with by then (a wrong slot value, another person's value, a future value), claimed in
  a sentence about the character that puts it in its attribute's role
  (:mod:`~umb.attribute._memory_claims`: small talk's "yoga studio" claims no hobby);
- **updates**: each change old -> new, at the end of the first session stating the new value:
  ``updated`` (new held, old not held as current), ``duplicated`` (both), ``stale`` (old only),
  ``lost`` (neither); a unit recording a dated event (it states an event fact) holds an old
  value as history, not as current;
- **omissions**: an extracted fact that no live unit states any more at a session's end while
  it is still current (no later value of its attribute has been stated), with the operation
  that removed its last holder.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from umb.attribute._facts import covers, padded, tokens
from umb.attribute._memory_claims import sentences
from umb.attribute._memory_gold import GENERIC_VALUES, Change, DialogueGold, GoldIndex, Text
from umb.attribute._memory_units import DialogueUnits, UnitVersion, tokens_written
from umb.bench import Fact

UPDATE_OUTCOMES = ("updated", "duplicated", "stale", "lost")


class _FactMatcher:
    """The character's stated facts, indexed by the first token of their value."""

    def __init__(self, facts: Iterable[Fact]) -> None:
        self.by_token: dict[str, list[tuple[str, str | None]]] = {}
        seen: set[str] = set()
        for f in facts:
            toks = tokens(f.value)
            if toks and f.id not in seen:
                seen.add(f.id)
                # A one-token value is stated wherever its token is: no search needed.
                needle = None if len(toks) == 1 else padded(f.value)
                self.by_token.setdefault(toks[0], []).append((f.id, needle))

    def stated_by(self, text: Text) -> frozenset[str]:
        """Ids of the facts whose value ``text`` states (:func:`states`' containment)."""
        hay, by_token = text.hay, self.by_token
        return frozenset(fid for tok in filter(by_token.__contains__, text.toks)
                         for fid, needle in by_token[tok]
                         if needle is None or needle in hay)  # fmt: skip


@dataclass
class _Store:
    """The live units of the replayed store, and which facts each states."""

    live: dict[str, UnitVersion] = field(default_factory=dict)
    states: dict[str, frozenset[str]] = field(default_factory=dict)
    holders: dict[str, set[str]] = field(default_factory=dict)
    unheld: set[str] = field(default_factory=set)
    """Facts some unit held once and none holds now."""
    removed_by: dict[str, UnitVersion] = field(default_factory=dict)
    """Fact id -> the version whose write took away its last holder."""
    about: dict[str, str] = field(default_factory=dict)
    """Live units about the dialogue's character -> their padded text."""

    def put(self, v: UnitVersion, facts: frozenset[str], hay: str | None) -> None:
        """Apply a version (``hay``: its padded text when it is about the character)."""
        for fid in self.states.pop(v.identity, frozenset()):
            held = self.holders[fid]
            held.discard(v.identity)
            if not held:
                self.unheld.add(fid)
                if fid not in facts:
                    self.removed_by[fid] = v
        self.live.pop(v.identity, None)
        self.about.pop(v.identity, None)
        if v.deleted:
            return
        self.live[v.identity] = v
        if hay is not None:
            self.about[v.identity] = hay
        self.states[v.identity] = facts
        for fid in facts:
            self.holders.setdefault(fid, set()).add(v.identity)
        self.unheld.difference_update(facts)


def dialogue_metrics(dg: DialogueGold, units: DialogueUnits, gold: GoldIndex) -> dict[str, Any]:
    """The metrics of one dialogue, with the facts and units behind each count."""
    person, facts = dg.person, gold.facts
    stated_ids = list(dict.fromkeys(f for s in dg.stated for f in s))
    matcher = _FactMatcher(facts[f] for f in stated_ids)
    index = {sid: i for i, (sid, _) in enumerate(dg.sessions)}
    by_session: dict[int, list[UnitVersion]] = {}
    last = -1
    for v in units.versions:  # a version the trace gives no session belongs to the last one
        last = index.get(v.session_id or "", last)
        by_session.setdefault(max(last, 0), []).append(v)
    superseded = _superseded(dg, gold)
    store = _Store()
    extracted: dict[str, dict[str, Any]] = {}
    order: dict[str, int] = {}
    omissions: list[dict[str, Any]] = []
    lost: set[str] = set()
    written = grounded = 0
    fabricated: list[dict[str, Any]] = []
    updates: list[dict[str, Any]] = []
    pending = _changes_by_session(dg, person.changes)
    for k, (sid, started) in enumerate(dg.sessions):
        wrote_now: dict[str, list[str]] = {}
        for v in by_session.get(k, ()):
            if v.deleted:
                store.put(v, frozenset(), None)
                continue
            text = Text.of(v.text)
            about = gold.about(text, person)
            facts_v = matcher.stated_by(text) if about else frozenset()
            store.put(v, facts_v, text.hay if about else None)
            written += 1
            grounded += bool(facts_v)
            for fid in facts_v:
                wrote_now.setdefault(fid, []).append(v.node_id)
            if about:
                wrong = [x for x in gold.claims(text, person)
                         if (t := gold.involved_since(person, x)) is None or t > started]
                if wrong and (facts_v or gold.roles.cued(wrong, v.text)):
                    wrong = _claimed(v.text, wrong, gold, dg, matcher)  # sentence by sentence
                else:  # no fact told and no role named anywhere in the unit: no claim
                    wrong = []
                if wrong:
                    fabricated.append({"unit": v.node_id, "session_id": sid, "text": v.text,
                                       "values": wrong})  # fmt: skip
        for fid in dg.stated[k]:
            if fid in extracted:
                continue
            live = [store.live[i].node_id for i in sorted(store.holders.get(fid, ()))]
            holders = list(dict.fromkeys([*wrote_now.get(fid, ()), *live]))
            if holders:
                order[fid] = len(extracted)
                extracted[fid] = {"session_id": sid, "units": holders}
        # Only a fact no unit holds now can be lost (in the order the facts were extracted).
        for fid in sorted(store.unheld.intersection(extracted), key=order.__getitem__):
            if fid in lost or superseded.get(fid, len(dg.sessions)) <= k:
                continue
            lost.add(fid)
            by = store.removed_by.get(fid)
            omissions.append({"fact_id": fid, "session_id": sid,
                              "op_id": by.op_id if by else None,
                              "operation": by.op_name if by else None,
                              "unit": by.node_id if by else None})  # fmt: skip
        for change in pending.get(k, ()):
            updates.append(_update_outcome(change, store, facts, sid))
    # A missed fact a unit held before its session, until a decision of the session took it.
    removed = {f: store.removed_by[f].op_id for f in stated_ids
               if f not in extracted and f in store.removed_by}  # fmt: skip
    return _summarise(dg, gold, units, stated_ids, extracted, removed, written, grounded,
                      fabricated, updates, omissions)  # fmt: skip


def _claimed(
    text: str, values: list[str], gold: GoldIndex, dg: DialogueGold, matcher: _FactMatcher
) -> list[str]:
    """The ``values`` some sentence of ``text`` about the character puts in an attribute's role
    (:mod:`~umb.attribute._memory_claims`), not merely mentions."""
    out = []
    parts = [Text.of(s) for s in sentences(text)]
    for x in values:
        needle = padded(x)
        for part in parts:
            if needle not in part.hay or not gold.about(part, dg.person):
                continue
            stated = [gold.facts[f] for f in matcher.stated_by(part)]
            if gold.roles.gives(x, part.raw, stated):
                out.append(x)
                break
    return out


def _superseded(dg: DialogueGold, gold: GoldIndex) -> dict[str, int]:
    """Tracked fact id -> the first session that states a later, different value of it."""
    person, facts = dg.person, gold.facts
    first: dict[str, int] = {}
    for k, ids in enumerate(dg.stated):
        for fid in ids:
            first.setdefault(fid, k)
    out: dict[str, int] = {}
    tracked = [facts[f] for f in first if f in person.tracked]
    for f in tracked:
        later = [first[g.id] for g in tracked if g.attribute == f.attribute
                 and g.at > f.at and g.value != f.value]  # fmt: skip
        if later:
            out[f.id] = min(later)
    return out


def _changes_by_session(dg: DialogueGold, changes: list[Change]) -> dict[int, list[Change]]:
    """Each change under the first session that states its new value (the last change of an
    attribute stated by then only: an older one told late is superseded already)."""
    first: dict[str, int] = {}
    for k, ids in enumerate(dg.stated):
        for fid in ids:
            first.setdefault(fid, k)
    told = [(min(first[f] for f in c.fact_ids if f in first), c) for c in changes
            if any(f in first for f in c.fact_ids)]  # fmt: skip
    out: dict[int, list[Change]] = {}
    for k, c in told:
        newer = any(k2 <= k and c2.attribute == c.attribute and c2.at > c.at for k2, c2 in told)
        if not newer:
            out.setdefault(k, []).append(c)
    return out


def _update_outcome(
    change: Change, store: _Store, facts: dict[str, Fact], session_id: str
) -> dict[str, Any]:
    """Classify one change at the end of the session that stated its new value."""
    # "none" is every empty slot's value: it is stale only in a unit naming the attribute.
    generic, topic = change.old.lower() in GENERIC_VALUES, change.attribute.replace("_", " ")
    new, old = padded(change.new), padded(change.old)
    # An old value inside the new one ("Acme" in "Acme Labs") cannot mark a unit stale.
    old_counts = old.strip() and old not in new
    holding, stale = [], []
    for identity, v in store.live.items():
        hay = store.about.get(identity)
        if hay is None:
            continue
        if new in hay:
            holding.append(v.node_id)
        elif old_counts and old in hay and (not generic or covers(v.text, topic)):
            # A dated event record keeps an old value as history, not as the current one.
            if not any(facts[f].attribute == "event" for f in store.states[identity]):
                stale.append(v.node_id)
    outcome = ("duplicated" if stale else "updated") if holding else ("stale" if stale else "lost")
    return {"event_id": change.event_id, "attribute": change.attribute, "old": change.old,
            "new": change.new, "session_id": session_id, "outcome": outcome,
            "holding": holding, "stale": stale}  # fmt: skip


def _summarise(
    dg: DialogueGold,
    gold: GoldIndex,
    units: DialogueUnits,
    stated_ids: list[str],
    extracted: dict[str, dict[str, Any]],
    removed: dict[str, str],
    written: int,
    grounded: int,
    fabricated: list[dict[str, Any]],
    updates: list[dict[str, Any]],
    omissions: list[dict[str, Any]],
) -> dict[str, Any]:
    by_attr: dict[str, list[int]] = {}
    by_kind: dict[str, list[int]] = {}
    for fid in stated_ids:
        f = gold.facts[fid]
        for table, key in ((by_attr, f.attribute), (by_kind, gold.kind_of(f))):
            cell = table.setdefault(key, [0, 0])
            cell[0] += 1
            cell[1] += fid in extracted
    outcomes = Counter(u["outcome"] for u in updates)
    lost_by = Counter(o["operation"] or "unknown" for o in omissions)
    identities = {v.identity for v in units.versions}
    return {
        "dialogue_id": dg.dialogue_id,
        "facts": len(stated_ids),
        "extracted": len(extracted),
        "units_written": written,
        "grounded": grounded,
        "fabricated": len(fabricated),
        "changes": len(updates),
        "updates": {o: outcomes.get(o, 0) for o in UPDATE_OUTCOMES},
        "omitted": len(omissions),
        "omitted_by": dict(sorted(lost_by.items())),
        "units": len(identities),
        "deletions": sum(v.deleted for v in units.versions),
        "tokens_written": tokens_written(units.versions),
        "model_tokens": dict(units.model_tokens),
        "by_attribute": by_attr,
        "by_kind": by_kind,
        "detail": {
            "missed": [f for f in stated_ids if f not in extracted],
            "missed_removed_by": removed,
            "extracted": extracted,
            "fabricated": fabricated,
            "updates": updates,
            "omissions": omissions,
        },
    }
