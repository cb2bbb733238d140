"""How a question points at an event without giving away its slot values."""

from __future__ import annotations

from datetime import datetime

# How to point at an event without giving away its slot values. ``{first}`` is the character's
# name as a subject, ``{first}'s`` as a possessive; :func:`pointers` also gives the pronoun form.
DESCRIPTORS: dict[str, str] = {
    "course_enrol": "the course {first} signed up for in {month}",
    "certification": "the certificate {first} earned in {month}",
    "job_change": "the job {first} started in {month}",
    "promotion": "{first}'s promotion in {month}",
    "conference": "the conference {first} attended in {month}",
    "move": "{first}'s move in {month}",
    "met_someone": "the person {first} met in {month}",
    "first_date": "{first}'s first date in {month}",
    "engagement": "{first}'s engagement in {month}",
    "wedding": "{first}'s wedding in {month}",
    "concert": "the concert {first} went to in {month}",
    "race": "the race {first} ran in {month}",
    "book": "the book {first} read in {month}",
    "hobby_change": "the hobby {first} took up in {month}",
    "injury": "the injury {first} got in {month}",
    "physio": "{first}'s physiotherapy that ended in {month}",
    "checkup": "{first}'s health check-up in {month}",
    "vet_visit": "the vet visit in {month}",
    "book_trip": "the trip {first} booked in {month}",
    "trip": "{first}'s trip that started in {month}",
    "road_trip": "{first}'s road trip in {month}",
    "purchase": "the {item} {first} bought in {month}",
    "car_breakdown": "{first}'s car breakdown in {month}",
    "test_drive": "the test drive {first} took in {month}",
    "car_purchase": "the car {first} bought in {month}",
    "adopt_pet": "the pet {first} adopted in {month}",
    "volunteering": "the volunteering {first} did in {month}",
    "admin_task": "the paperwork {first} dealt with in {month}",
    "home_repair": "the home repair in {month}",
}


def month(stamp: str) -> str:
    return datetime.strptime(stamp[:7], "%Y-%m").strftime("%B %Y")


def pointers(
    kind: str, *, first: str, pronoun: str, possessive: str, stamp: str, item: str = ""
) -> dict[str, str]:
    """The fields a question template may use about an event of ``kind`` at ``stamp``.

    ``desc`` names the character (``the car Lotte bought in May 2021``); ``own`` is the same
    pointer for a question that has named her already (``the car she bought in May 2021``), so
    no question says the name twice.
    """
    pattern = DESCRIPTORS[kind]
    own = pattern.replace("{first}'s", possessive).replace("{first}", pronoun)
    fields = {"month": month(stamp), "item": item}
    return {
        "desc": pattern.format(first=first, **fields),
        "own": own.format(**fields),
        "first": first,
        "pronoun": pronoun,
        "possessive": possessive,
        **fields,
    }
