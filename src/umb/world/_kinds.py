"""Event kinds: what each kind of event fills in, and which tracked attributes it changes.

A kind is a function ``(rng, state, chain) -> Draft``. ``state`` is the character's tracked state
just before the event; ``chain`` is a dict shared by the events of one causal storyline, so a
certification names the course of the enrolment that caused it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from umb._registry import Registry
from umb.world import _vocab as V
from umb.world._morph import article, definite, gerund


@dataclass
class Draft:
    """An event before it gets an id and a time."""

    kind: str
    category: str
    summary: str
    slots: dict[str, str]
    changes: list[tuple[str, str]] = field(default_factory=list)


Kind = Callable[[random.Random, dict[str, str], dict[str, str]], Draft]
KINDS: Registry[Kind] = Registry("event kind", "kind")
"""Event kind -> its generator; each ``@kind("name")`` below adds one."""
kind = KINDS.register


def money(rng: random.Random, lo: int, hi: int, step: int = 5) -> str:
    return f"${rng.randrange(lo, hi, step):,}"


def _new(rng: random.Random, pool: Sequence[str], old: str) -> str:
    return rng.choice([x for x in pool if x != old])


# --- career and study -------------------------------------------------------------------------


@kind("course_enrol")
def course_enrol(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    course, provider = rng.choice(V.COURSES), rng.choice(V.COURSE_PROVIDERS)
    ch["course"] = course
    slots = {"course": course, "provider": provider, "fee": money(rng, 200, 2400, 10)}
    return Draft(
        "course_enrol", "study", f"enrolled in {article(course)} course at {provider}", slots
    )


@kind("certification")
def certification(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    course = ch.get("course") or rng.choice(V.COURSES)
    slots = {"course": course, "grade": f"{rng.randint(70, 99)} percent"}
    return Draft("certification", "study", f"earned {article(course)} certificate", slots)


@kind("job_change")
def job_change(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    employer = _new(rng, V.EMPLOYERS, st["employer"])
    title = rng.choice(V.JOB_TITLES[rng.choice(("junior", "senior", "manager"))])
    salary = f"${rng.randrange(48, 140) * 1000:,}"
    ch["employer"] = employer
    slots = {
        "employer": employer,
        "job_title": title,
        "salary": salary,
        "previous_employer": st["employer"],
    }
    changes = [("employer", employer), ("job_title", title)]
    return Draft(
        "job_change", "career", f"started a new job as {title} at {employer}", slots, changes
    )


@kind("promotion")
def promotion(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    title = _new(rng, V.JOB_TITLES["senior"] + V.JOB_TITLES["manager"], st["job_title"])
    slots = {
        "job_title": title,
        "employer": st["employer"],
        "raise": f"{rng.randint(5, 20)} percent",
    }
    return Draft(
        "promotion",
        "career",
        f"was promoted to {title} at {st['employer']}",
        slots,
        [("job_title", title)],
    )


@kind("conference")
def conference(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    city = _new(rng, V.CITIES, st["city"])
    topic = rng.choice(V.CONFERENCE_TOPICS)
    slots = {
        "conference_city": city,
        "topic": topic,
        "attendees": str(rng.randrange(150, 3000, 50)),
    }
    return Draft("conference", "career", f"attended a conference on {topic} in {city}", slots)


@kind("move")
def move(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    city = _new(rng, V.CITIES, st["city"])
    rent = money(rng, 900, 3200, 25)
    slots = {"city": city, "previous_city": st["city"], "rent": rent}
    return Draft(
        "move", "life_admin", f"moved from {st['city']} to {city}", slots, [("city", city)]
    )


# --- relationships ----------------------------------------------------------------------------


def _person(rng: random.Random) -> str:
    gender = rng.choice(("female", "male"))
    return f"{rng.choice(V.FIRST_NAMES[gender])} {rng.choice(V.LAST_NAMES)}"


@kind("met_someone")
def met_someone(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    person, place = _person(rng), rng.choice(V.PLACES_TO_MEET)
    ch["person"] = person
    return Draft(
        "met_someone",
        "relationships",
        f"met {person} at {place}",
        {"person": person, "place": place},
    )


@kind("first_date")
def first_date(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    person = ch.get("person") or _person(rng)
    restaurant, dish = rng.choice(V.RESTAURANTS), rng.choice(V.DISHES)
    slots = {"person": person, "restaurant": restaurant, "dish": dish}
    return Draft(
        "first_date", "relationships", f"went on a first date with {person} at {restaurant}", slots
    )


@kind("start_dating")
def start_dating(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    person = ch.get("person") or _person(rng)
    return Draft(
        "start_dating",
        "relationships",
        f"started dating {person}",
        {"partner": person},
        [("relationship_status", "in a relationship"), ("partner", person)],
    )


@kind("engagement")
def engagement(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    person = st["partner"]
    place = rng.choice(V.DESTINATIONS)
    return Draft(
        "engagement",
        "relationships",
        f"got engaged to {person} in {place}",
        {"partner": person, "place": place},
        [("relationship_status", "engaged")],
    )


@kind("wedding")
def wedding(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    person = st["partner"]
    slots = {
        "partner": person,
        "venue": rng.choice(V.WEDDING_VENUES),
        "guests": str(rng.randrange(20, 200, 5)),
    }
    return Draft(
        "wedding", "relationships", f"married {person}", slots, [("relationship_status", "married")]
    )


@kind("breakup")
def breakup(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    person = st["partner"]
    return Draft(
        "breakup",
        "relationships",
        f"broke up with {person}",
        {"partner": person},
        [("relationship_status", "single"), ("partner", "none")],
    )


# --- hobbies ----------------------------------------------------------------------------------


@kind("concert")
def concert(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    slots = {
        "band": rng.choice(V.BANDS),
        "venue": rng.choice(V.VENUES),
        "ticket_price": money(rng, 20, 250),
    }
    return Draft("concert", "hobbies", f"saw {slots['band']} live at {slots['venue']}", slots)


@kind("race")
def race(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    km = rng.choice((5, 10, 21, 42))
    minutes = int(km * rng.uniform(4.6, 7.2))
    slots = {"distance": f"{km} km", "finish_time": f"{minutes // 60}:{minutes % 60:02d} hours"}
    return Draft("race", "hobbies", f"ran a {km} km race", slots)


@kind("book")
def book(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    title, author = rng.choice(V.BOOKS)
    return Draft("book", "hobbies", f"read {title}", {"title": title, "author": author})


@kind("hobby_change")
def hobby_change(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    pool = V.GENTLE_HOBBIES if ch.get("gentle") else V.HOBBIES
    hobby = ch.get("next_hobby") or _new(rng, pool, st["hobby"])
    if hobby == st["hobby"]:
        hobby = _new(rng, pool, st["hobby"])
    slots = {"hobby": hobby, "previous_hobby": st["hobby"], "club": f"the {hobby} club"}
    return Draft(
        "hobby_change",
        "hobbies",
        f"took up {hobby} instead of {st['hobby']}",
        slots,
        [("hobby", hobby)],
    )


# --- health -----------------------------------------------------------------------------------


def _injury_activity(rng: random.Random, hobby: str) -> str:
    """Now and then the hobby (one can get hurt at), mostly something else, as in life: the
    profile's hobby must not answer "what was she doing when she got hurt"."""
    if hobby in V.INJURY_PRONE_HOBBIES and rng.random() < 0.25:
        return hobby
    return rng.choice(V.INJURY_ACTIVITIES)


@kind("injury")
def injury(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    what, part = rng.choice(V.INJURIES)
    ch["body_part"], ch["gentle"] = part, "yes"
    activity = _injury_activity(rng, st["hobby"])
    slots = {"injury": what, "activity": activity, "clinic": rng.choice(V.CLINICS)}
    return Draft("injury", "health", f"got {what} while {gerund(activity)}", slots)


@kind("physio")
def physio(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    part = ch.get("body_part", "back")
    slots = {
        "sessions": str(rng.randint(3, 24)),
        "therapist": rng.choice(V.DOCTORS),
        "body_part": part,
    }
    return Draft("physio", "health", f"finished physiotherapy for the {part}", slots)


@kind("checkup")
def checkup(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    result = rng.choice(V.CHECKUP_RESULTS)
    slots = {"doctor": rng.choice(V.DOCTORS), "clinic": rng.choice(V.CLINICS), "result": result}
    return Draft("checkup", "health", f"had a health check-up at {slots['clinic']}", slots)


@kind("vet_visit")
def vet_visit(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    pet_name = ch.get("pet_name", "the pet")
    slots = {
        "pet_name": pet_name,
        "issue": rng.choice(V.VET_ISSUES),
        "vet_bill": money(rng, 60, 900),
    }
    return Draft("vet_visit", "health", f"took {pet_name} to the vet", slots)


# --- travel -----------------------------------------------------------------------------------


@kind("book_trip")
def book_trip(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    dest = rng.choice(V.DESTINATIONS)
    ch["destination"] = dest
    slots = {
        "destination": dest,
        "price": money(rng, 400, 4500, 10),
        "agency": rng.choice(("a travel agency", "a budget airline site", "a friend's tip")),
    }
    return Draft("book_trip", "travel", f"booked a trip to {dest}", slots)


@kind("trip")
def trip(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    dest = ch.pop("destination", None) or rng.choice(V.DESTINATIONS)
    # The partner only now and then, so "who went with her" is not "her partner" by default.
    companion = st["partner"] if st["partner"] != "none" and rng.random() < 0.25 else _person(rng)
    slots = {
        "destination": dest,
        "duration": f"{rng.randint(2, 28)} days",
        "activity": rng.choice(V.TRIP_ACTIVITIES),
        "companion": companion,
    }
    return Draft("trip", "travel", f"travelled to {dest}", slots)


@kind("road_trip")
def road_trip(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    dest = rng.choice(V.ROAD_TRIP_PLACES)
    slots = {
        "destination": dest,
        "distance": f"{rng.randrange(300, 2400, 10)} km",
        "car": st["car"],
    }
    return Draft("road_trip", "travel", f"drove to {dest} on a road trip", slots)


# --- life admin -------------------------------------------------------------------------------


@kind("purchase")
def purchase(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    item = ch.get("item") or rng.choice(sorted(V.GADGETS))
    brand, model = rng.choice(V.GADGETS[item])
    slots = {
        "item": item,
        "brand": brand,
        "model": f"{brand} {model}",
        "colour": rng.choice(V.COLOURS),
        "price": money(rng, 120, 2600),
        "store": rng.choice(V.STORES),
    }
    return Draft(
        "purchase", "life_admin", f"bought {article(slots['colour'])} {brand} {model} {item}", slots
    )


@kind("car_breakdown")
def car_breakdown(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    slots = {
        "car": st["car"],
        "garage": f"{rng.choice(V.LAST_NAMES)}'s Garage",
        "repair_cost": money(rng, 150, 3500),
    }
    return Draft("car_breakdown", "life_admin", f"had {definite(st['car'])} break down", slots)


@kind("test_drive")
def test_drive(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    brand = rng.choice(sorted(V.CAR_BRANDS))
    ch["brand"] = brand
    slots = {"brand": brand, "dealership": f"{rng.choice(V.LAST_NAMES)} Motors"}
    return Draft(
        "test_drive", "life_admin", f"test-drove {article(brand)} at {slots['dealership']}", slots
    )


@kind("car_purchase")
def car_purchase(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    brand = ch.get("brand") or rng.choice(sorted(V.CAR_BRANDS))
    car = article(f"{rng.choice(V.COLOURS)} {brand} {rng.choice(V.CAR_BRANDS[brand])}")
    if car == st["car"]:
        car = f"{car} (a newer one)"
    slots = {"car": car, "previous_car": st["car"], "price": money(rng, 6000, 48000, 100)}
    return Draft("car_purchase", "life_admin", f"bought {car}", slots, [("car", car)])


@kind("adopt_pet")
def adopt_pet(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    species = rng.choice(sorted(V.PET_SPECIES))
    breed, name = rng.choice(V.PET_SPECIES[species]), rng.choice(V.PET_NAMES)
    ch["pet_name"] = name
    pet = f"{article(f'{breed} {species}')} named {name}"
    slots = {
        "species": species,
        "breed": breed,
        "pet_name": name,
        "adoption_fee": money(rng, 50, 400),
    }
    return Draft("adopt_pet", "life_admin", f"adopted {pet}", slots, [("pet", pet)])


@kind("volunteering")
def volunteering(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    org = ch.get("org") or rng.choice(V.VOLUNTEERING)
    slots = {"organisation": org, "hours": f"{rng.randint(3, 40)} hours"}
    return Draft("volunteering", "relationships", f"volunteered at {org}", slots)


@kind("admin_task")
def admin_task(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    task, office = rng.choice(V.ADMIN_TASKS)
    slots = {"task": task, "office": office, "fee": money(rng, 20, 300)}
    return Draft("admin_task", "life_admin", task, slots)


@kind("home_repair")
def home_repair(rng: random.Random, st: dict[str, str], ch: dict[str, str]) -> Draft:
    slots = {
        "repair": rng.choice(V.REPAIRS),
        "cost": money(rng, 80, 2500),
        "plumber": f"{rng.choice(V.FIRST_NAMES['male'])} the handyman",
    }
    return Draft("home_repair", "life_admin", f"got {slots['repair']} fixed", slots)


#: Causal storylines: the kinds of one chain, in order; the simulator picks a variant per theme.
STORYLINES: dict[str, tuple[tuple[str, ...], ...]] = {
    "career": (
        ("course_enrol", "certification", "job_change", "move"),
        ("course_enrol", "certification", "job_change"),
        ("conference", "job_change", "move", "home_repair"),
    ),
    "relationship": (
        ("met_someone", "first_date", "start_dating", "engagement", "wedding"),
        ("met_someone", "first_date", "start_dating", "breakup"),
        ("met_someone", "start_dating", "engagement"),
    ),
    "health": (("injury", "physio", "hobby_change"), ("checkup", "race", "hobby_change")),
    "car": (
        ("car_breakdown", "car_purchase", "road_trip"),
        ("test_drive", "car_purchase", "road_trip"),
    ),
    "pet": (("volunteering", "adopt_pet", "vet_visit"), ("move", "adopt_pet", "vet_visit")),
    "travel": (("book_trip", "trip", "purchase", "hobby_change"), ("book_trip", "trip", "concert")),
}

#: Kinds that fill the timeline between storylines; ``trip`` and ``purchase`` recur on purpose.
STANDALONE = (
    "purchase",
    "concert",
    "checkup",
    "admin_task",
    "home_repair",
    "book",
    "conference",
    "trip",
    "race",
    "promotion",
    "volunteering",
)
