"""ES: one area of a character's life over one year, listed in full.

A question names the kinds of events it asks about (a theme: jobs, trips, moves …) and a year;
its gold is every event of those kinds in that year that the dialogue tells before the question
is asked, in date order. A reader who lists everything the dialogue told of that kind is right,
so a precision-aware scorer never charges for a correct extra item. Joint events count as the
character's own, whoever owns them: the dialogue tells them as such.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta

from umb.bench import Question
from umb.qa._chains import step_keys
from umb.qa._context import QAContext
from umb.qa._describe import month
from umb.world import Event

#: Fewest and most events one question lists (the answer prompt asks for at most six).
MIN_POINTS, MAX_POINTS = 2, 6


@dataclass(frozen=True)
class Theme:
    """An area of life: the event kinds it covers and how a question names them."""

    name: str
    kinds: tuple[str, ...]
    area: str
    """Where things happened, with ``{first}``: "in {first}'s love life"."""
    listing: str
    """The kinds in words, with ``{pronoun}``: "moves, home repairs and paperwork"."""


#: Joint kinds sit with the own kinds a reader would take them for (a show is a concert, a
#: weekend away is a trip); a birthday dinner fits no theme, so no question asks about it.
THEMES: tuple[Theme, ...] = (
    Theme(
        "work",
        ("course_enrol", "certification", "job_change", "promotion", "conference"),
        "in {first}'s working life and studies",
        "new jobs, promotions, courses, certificates and conferences",
    ),
    Theme(
        "travel",
        ("book_trip", "trip", "road_trip", "joint_weekend"),
        "on {first}'s travels",
        "trips booked, trips taken, road trips and weekends away",
    ),
    Theme(
        "home",
        ("move", "home_repair", "admin_task"),
        "in {first}'s home life",
        "moves, home repairs and paperwork",
    ),
    Theme(
        "love",
        ("met_someone", "first_date", "start_dating", "engagement", "wedding", "breakup"),
        "in {first}'s love life",
        "people {pronoun} met, first dates, relationships, engagements, weddings and break-ups",
    ),
    Theme(
        "health",
        ("injury", "physio", "checkup"),
        "with {first}'s health",
        "injuries, physiotherapy and check-ups",
    ),
    Theme(
        "pets",
        ("adopt_pet", "vet_visit"),
        "with {first}'s pets",
        "pet adoptions and vet visits",
    ),
    Theme(
        "cars",
        ("car_breakdown", "test_drive", "car_purchase"),
        "with {first}'s cars",
        "breakdowns, test drives and car purchases",
    ),
    Theme(
        "purchases",
        ("purchase", "car_purchase"),
        "with {first}'s purchases",
        "gadgets and cars {pronoun} bought",
    ),
    Theme(
        "free_time",
        ("concert", "joint_concert", "race", "joint_hike", "book", "hobby_change", "volunteering"),
        "in {first}'s free time",
        "concerts and shows, races, hikes, books read, hobbies taken up and volunteering",
    ),
)

_WORD = re.compile(r"[^\W_]+")
_ARTICLES = frozenset(("a", "an", "the"))

#: A theme, a year, and the told events of that theme in that year, in date order.
Candidate = tuple[Theme, str, list[Event]]

ES_QUERIES = (
    "What happened {area} in {year}? Summarise the {listing}, in date order.",
    "Looking back at {year}, summarise what happened {area}: the {listing}, in date order.",
)


def told_before(ctx: QAContext, e: Event, asked_at: str) -> bool:
    """Whether some turn before ``asked_at`` states one of ``e``'s facts."""
    return any(x[2] < asked_at for f in ctx.facts_of(e) for x in ctx.said.get(f.id, []))


def _years_spanned(e: Event) -> set[str]:
    """The years an event lasting days (a trip) touches: told as "got back on …" or "went …",
    one that crosses New Year could fairly be put in either."""
    days = e.slots.get("duration", "").removesuffix(" days")
    if not days.isdigit():
        return {e.at[:4]}
    end = date.fromisoformat(e.at[:10])
    return {e.at[:4], str((end - timedelta(days=int(days))).year)}


def _candidates(told: list[Event]) -> list[Candidate]:
    """Every (theme, year) with enough told events, and those events in date order; a year
    that an event of the theme shares with the year next to it is left out."""
    out = []
    for theme in THEMES:
        kinds = [e for e in told if e.kind in theme.kinds]
        unclear = {y for e in kinds if len(spanned := _years_spanned(e)) > 1 for y in spanned}
        for year in sorted({e.at[:4] for e in told} - unclear):
            points = [e for e in kinds if e.at[:4] == year]
            points.sort(key=lambda e: e.at)
            texts = point_texts(points)
            if MIN_POINTS <= len(points) <= MAX_POINTS and len(set(texts)) == len(texts):
                out.append((theme, year, points))
    return out


def _pick(found: list[Candidate], rng: random.Random, n: int) -> list[Candidate]:
    """``n`` candidates, the fullest first (more to gather, less to hit by chance; ties at
    random), a theme not picked yet before a repeat; returned by year."""
    rng.shuffle(found)
    found.sort(key=lambda c: -len(c[2]))
    fresh: list[Candidate] = []
    for c in found:
        if c[0] not in {x[0] for x in fresh}:
            fresh.append(c)
    picked = (fresh + [c for c in found if c not in fresh])[:n]
    return sorted(picked, key=lambda c: (c[1], THEMES.index(c[0])))


def _words(text: str) -> tuple[str, ...]:
    return tuple(w for w in _WORD.findall(text.lower()) if w not in _ARTICLES)


def _contains(text: tuple[str, ...], key: tuple[str, ...]) -> bool:
    n = len(key)
    return any(text[i : i + n] == key for i in range(len(text) - n + 1))


def point_texts(points: list[Event]) -> list[str]:
    """The gold's turning points: each event's summary, with its month where two events of the
    list share one (two check-ups at the same clinic), so that each point names one event."""
    seen = Counter(e.summary for e in points)
    return [f"{e.summary} in {month(e.at).split()[0]}" if seen[e.summary] > 1 else e.summary
            for e in points]  # fmt: skip


def point_keys(e: Event, text: str, told: list[Event]) -> list[str]:
    """``text`` and the distinctive values of ``e`` that no other event told of that year
    also names.

    The car of a road trip is the car bought before it, and a trip's companion is the partner
    of the love-life events: a reader listing those other events of the year must not hit this
    one. The point's own text always stays, so the gold itself matches every point.
    """
    others = [
        _words(" ".join((x.summary, *x.slots.values())))
        for x in told
        if x.id != e.id and x.at[:4] == e.at[:4]
    ]
    rest = step_keys(e)[1:]
    return [text] + [k for k in rest if not any(_contains(o, _words(k)) for o in others)]


def es_questions(ctx: QAContext, rng: random.Random, n: int) -> list[Question]:
    asked_at = ctx.end_at
    told = [e for e in ctx.own_events() if told_before(ctx, e, asked_at)]
    out: list[Question] = []
    for theme, year, points in _pick(_candidates(told), rng, n):
        area = theme.area.format(first=ctx.first)
        listing = theme.listing.format(pronoun=ctx.pronoun)
        query = rng.choice(ES_QUERIES).format(area=area, year=year, listing=listing)
        turning = point_texts(points)
        summary = f"In {year}, {ctx.first} " + "; then ".join(turning) + "."
        facts = [ctx.world.facts[e.id][0].id for e in points]
        gold = {
            "time_span": f"{year}-01-01 to {year}-12-31",
            "key_turning_points": turning,
            "summary": summary,
        }
        meta = {
            "kind": "period",
            "theme": theme.name,
            "event_kinds": list(theme.kinds),
            "point_keys": [point_keys(e, t, told) for e, t in zip(points, turning, strict=True)],
        }
        ev = ctx.evidence(points, facts, asked_at)
        out.append(ctx.question("ES", len(out) + 1, query, asked_at, gold, turning, ev, meta))
    return out
