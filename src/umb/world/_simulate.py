"""Simulate each character's timeline: storylines with causal links, fillers, joint events."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from umb.world import _vocab as V
from umb.world._kinds import KINDS, STANDALONE, STORYLINES
from umb.world._records import Character, Event, StateChange
from umb.world._rng import rng_for

JOINT_ACTIVITIES = (
    (
        "joint_hike",
        "hobbies",
        "went hiking at {place} together",
        "place",
        ("Mount Tamarack", "the Red Cliffs trail", "Lake Serene", "the Pine Ridge loop"),
    ),
    (
        "joint_dinner",
        "relationships",
        "had a birthday dinner at {place} together",
        "place",
        V.RESTAURANTS,
    ),
    ("joint_concert", "hobbies", "saw a show at {place} together", "place", V.VENUES),
    ("joint_weekend", "travel", "spent a weekend in {place} together", "place", V.DESTINATIONS),
)


#: What a trip can lead someone to buy, and the hobby that thing then leads to: several, so
#: the travel storyline's later steps cannot be guessed from its kind.
TRAVEL_FINDS: tuple[tuple[str, str], ...] = (
    ("camera", "photography"),
    ("camera", "birdwatching"),
    ("bike", "cycling"),
)

def _stamp(day: date, minutes: int) -> str:
    return f"{day.isoformat()}T{minutes // 60:02d}:{minutes % 60:02d}"


def _random_time(rng: random.Random, lo: int = 7 * 60, hi: int = 22 * 60) -> int:
    return rng.randrange(lo, hi, 5)


def joint_events(
    seed: int, population: list[Character], start: date, end: date
) -> dict[str, list[Event]]:
    """Events two related characters share; both of their histories hold them."""
    by_id = {c.id: c for c in population}
    out: dict[str, list[Event]] = {c.id: [] for c in population}
    span = (end - start).days
    for a in population:
        for rel in a.relations:
            if rel.character_id <= a.id:
                continue
            b = by_id[rel.character_id]
            rng = rng_for(seed, "joint", a.id, b.id)
            for k in range(1 + (rng.random() < 0.3)):
                kind, category, pattern, slot, pool = rng.choice(JOINT_ACTIVITIES)
                place = rng.choice(pool)
                day = start + timedelta(days=rng.randrange(span + 1))
                event = Event(
                    id=f"J-{a.id}-{b.id}-{k + 1}",
                    character_id=a.id,
                    at=_stamp(day, _random_time(rng)),
                    category=category,
                    kind=kind,
                    summary=pattern.format(place=place),
                    slots={slot: place, "with": f"{a.name} and {b.name}", "relation": rel.kind},
                    participants=(b.id,),
                )
                out[a.id].append(event)
                out[b.id].append(event)
    return out


#: Events a year (own and joint together) when no density is asked for.
DEFAULT_PER_YEAR = (5, 7)


def _schedule(
    rng: random.Random, start: date, end: date, taken: list[str], per_year: tuple[int, int]
) -> list[str]:
    """Timestamps for a character's own events: ``per_year`` in all, counting joint ones."""
    stamps: list[str] = []
    for year in range(start.year, end.year + 1):
        lo, hi = max(start, date(year, 1, 1)), min(end, date(year, 12, 31))
        if lo > hi:
            continue
        joint = sum(1 for t in taken if t.startswith(str(year)))
        own = max(rng.randint(*per_year) - joint, 3)
        days = rng.sample(range((hi - lo).days + 1), min(own, (hi - lo).days + 1))
        stamps += [_stamp(lo + timedelta(days=d), _random_time(rng)) for d in days]
    stamps.sort()
    # Same-day pairs, so "which came first that day" needs the time of day.
    mornings = [i for i in range(len(stamps) - 1) if stamps[i][11:] < "13:00"]
    used: set[int] = set()
    for i in rng.sample(mornings, min(2, len(mornings))):
        if not used & {i - 1, i, i + 1} and stamps[i][:10] != stamps[i + 1][:10]:
            used.add(i)
            # Afternoon of the same day: later than stamps[i], earlier than stamps[i + 2].
            stamps[i + 1] = _stamp(date.fromisoformat(stamps[i][:10]), _random_time(rng, 14 * 60))
    assert len(set(stamps)) == len(stamps)
    return stamps


def _place_storylines(
    rng: random.Random, n_slots: int, chains: list[tuple[str, tuple[str, ...]]]
) -> dict[int, tuple[int, int]]:
    """Map slot index -> (chain number, step) so each chain takes increasing, spaced slots."""
    placed: dict[int, tuple[int, int]] = {}
    for number, (_, kinds) in enumerate(chains):
        for _attempt in range(30):
            first = rng.randrange(max(1, n_slots - 2 * len(kinds)))
            picks: list[int] = []
            i = first
            while len(picks) < len(kinds) and i < n_slots:
                if i not in placed:
                    picks.append(i)
                    i += rng.randint(1, 3)
                else:
                    i += 1
            if len(picks) == len(kinds):
                for step, idx in enumerate(picks):
                    placed[idx] = (number, step)
                break
    return placed


def simulate_character(
    seed: int,
    character: Character,
    start: date,
    end: date,
    shared: list[Event],
    per_year: tuple[int, int] = DEFAULT_PER_YEAR,
) -> list[Event]:
    """All events of one character (own and joint), in time order, with states applied.

    A denser timeline (``per_year`` above the default) gets proportionally more storylines.
    """
    rng = rng_for(seed, "timeline", character.id)
    stamps = _schedule(rng, start, end, [e.at for e in shared], per_year)
    themes = list(STORYLINES)
    rng.shuffle(themes)
    repeat = max(1, round(sum(per_year) / sum(DEFAULT_PER_YEAR)))
    picked = sorted(themes[: rng.randint(4, 6)], key=themes.index)
    # Storylines that read right when they happen again (a second job, trip, pet, injury).
    again = [t for t in themes if t in ("career", "travel", "health", "pet")]
    picked += [again[i % len(again)] for i in range(len(picked) * (repeat - 1))]
    chains: list[tuple[str, tuple[str, ...]]] = []
    for theme in picked:
        variants = STORYLINES[theme]
        if theme == "car" and character.initial_state["car"] == "none":
            variants = tuple(v for v in variants if v[0] != "car_breakdown")
        chains.append((theme, rng.choice(variants)))
    placed = _place_storylines(rng, len(stamps), chains)
    chain_ctx: list[dict[str, str]] = [
        dict(zip(("item", "next_hobby"), rng.choice(TRAVEL_FINDS), strict=True))
        if t == "travel"
        else {}
        for t, _ in chains
    ]
    last_in_chain: dict[int, str] = {}

    free = [i for i in range(len(stamps)) if i not in placed]
    filler: dict[int, str] = {i: rng.choice(STANDALONE) for i in free}
    # Deliberate look-alikes: two trips and two purchases of the same kind of thing.
    lookalike_item = rng.choice(sorted(V.GADGETS))
    lookalike_slots: set[int] = set()
    for offset, kind_name in enumerate(("trip", "purchase")):
        if len(free) >= 5:
            a, b = free[(1 + offset) * len(free) // 5], free[(3 + offset) * len(free) // 5]
            filler[a] = filler[b] = kind_name
            if kind_name == "purchase":
                lookalike_slots = {a, b}

    state = dict(character.initial_state)
    own: list[Event] = []
    first_of_kind: dict[str, str] = {}
    for idx, at in enumerate(stamps):
        if idx in placed:
            number, step = placed[idx]
            kind_name, ctx = chains[number][1][step], chain_ctx[number]
        else:
            kind_name = filler[idx]
            ctx = {"item": lookalike_item} if idx in lookalike_slots else {}
        draft = KINDS[kind_name](rng_for(seed, "event", character.id, idx), state, ctx)
        eid = f"{character.id}-E{idx + 1:03d}"
        changes = tuple(StateChange(a, state[a], v) for a, v in draft.changes if state[a] != v)
        for ch in changes:
            state[ch.attribute] = ch.new
        caused_by: tuple[str, ...] = ()
        if idx in placed:
            number = placed[idx][0]
            if number in last_in_chain:
                caused_by = (last_in_chain[number],)
            last_in_chain[number] = eid
        look_key = f"{draft.kind}:{draft.slots.get('item', '')}"
        lookalike = first_of_kind.get(look_key) if draft.kind in ("trip", "purchase") else None
        first_of_kind.setdefault(look_key, eid)
        meta = {"storyline": chains[placed[idx][0]][0]} if idx in placed else {}
        own.append(
            Event(
                eid,
                character.id,
                at,
                draft.category,
                draft.kind,
                draft.summary,
                draft.slots,
                (),
                caused_by,
                changes,
                lookalike,
                meta,
            )
        )
    return sorted(own + shared, key=lambda e: (e.at, e.id))


def attribute_timelines(
    character: Character, events: list[Event], start: date
) -> dict[str, list[dict[str, str | None]]]:
    """Each tracked attribute's values over time: the initial one, then every change."""
    t0 = _stamp(start, 0)
    timelines: dict[str, list[dict[str, str | None]]] = {
        a: [{"at": t0, "value": v, "event_id": None}] for a, v in character.initial_state.items()
    }
    for e in events:
        if e.character_id != character.id:
            continue
        for ch in e.state_changes:
            timelines[ch.attribute].append({"at": e.at, "value": ch.new, "event_id": e.id})
    return timelines


def check_timeline(character: Character, events: list[Event]) -> list[str]:
    """The simulator's own checks: causes first, unique ids, state changes chain up."""
    problems: list[str] = []
    at = {e.id: e.at for e in events}
    if len(at) != len(events):
        problems.append(f"{character.id}: duplicate event ids")
    state = dict(character.initial_state)
    for e in events:
        for cause in e.caused_by:
            if cause not in at:
                problems.append(f"{e.id}: unknown cause {cause}")
            elif at[cause] >= e.at:
                problems.append(f"{e.id}: cause {cause} does not precede it")
        if e.character_id != character.id:
            continue
        for ch in e.state_changes:
            if state[ch.attribute] != ch.old:
                problems.append(
                    f"{e.id}: {ch.attribute} old value {ch.old!r} != {state[ch.attribute]!r}"
                )
            state[ch.attribute] = ch.new
    return problems


def parse_day(value: str) -> date:
    return datetime.strptime(value, "%Y-%m-%d").date()
