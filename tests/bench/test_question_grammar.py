"""IE questions are grammatical for every event kind, slot, phrasing, item and name.

Every IE template (both phrasings, and the per-kind ones) is filled in with the descriptor of
every event kind that has the slot, every gadget a purchase can be, and names of both genders
(one ending in -s), then checked against rules one can state:

- it starts with a capital letter and ends with its only question mark; no braces left over,
  no doubled spaces;
- no word twice in a row ("in in", "the the") and no verb in two forms ("buy … bought");
- "a"/"an" agree with the word after them;
- the character is named once, and "she"/"her" (or "he"/"his") come after the name and agree
  with the character's gender; no "she's"/"her's" and no "'s's";
- no content word of four letters or more twice ("the person from the person …");
- a preposition that ties the question to the event fits the kind: one is "on" a trip, a date
  or a test drive (not "on" an injury), "at" a concert, a wedding or a check-up, and "in" a race;
- "was"/"is" before a purchase's item agree: every item is a singular noun.

Vocabulary values are checked for their own articles and spacing, and every IE question of the
demo benchmark is checked with the same rules.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from umb.bench import Benchmark
from umb.qa._describe import DESCRIPTORS, pointers
from umb.qa._slots import SLOT_QUESTIONS, ie_query, phrasings
from umb.world import _vocab as V
from umb.world import article
from umb.world._kinds import KINDS
from umb.world._morph import base_verb

#: (name, gender, pronoun, possessive).
PEOPLE = (("Lotte", "female", "she", "her"), ("Silas", "male", "he", "his"))
PRONOUNS = {"female": {"she", "her", "hers"}, "male": {"he", "his", "him"}}
STAMP = "2021-03-14T10:00"

#: Preposition before the event's pointer -> the kinds it fits.
PREPOSITIONS = {
    "on": frozenset({"trip", "road_trip", "first_date", "test_drive"}),
    "at": frozenset({"concert", "wedding", "checkup"}),
    "in": frozenset({"race"}),
}
_MONTHS = set(
    "january february march april may june july august september october november december".split()
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_STATE = {
    "employer": "Lumen Labs",
    "job_title": "senior analyst",
    "city": "Denver",
    "relationship_status": "in a relationship",
    "partner": "Mira Chen",
    "pet": "none",
    "car": "a red Ford Focus",
    "hobby": "cycling",
}


def _slots_of(kind: str) -> set[str]:
    """The slots an event of ``kind`` fills in (a few draws, so optional ones show)."""
    out: set[str] = set()
    for seed in range(5):
        out |= set(KINDS[kind](random.Random(seed), dict(_STATE), {}).slots)
    return out


def _cases() -> Iterator[tuple[str, str, str]]:
    for kind in sorted(DESCRIPTORS):
        for slot in sorted(_slots_of(kind) & set(SLOT_QUESTIONS)):
            for template in phrasings(kind, slot):
                yield kind, slot, template


CASES = list(_cases())


def problems(text: str, name: str, gender: str) -> list[str]:
    """The rules ``text`` breaks (empty: none)."""
    out = []
    if not text[:1].isupper():
        out.append("does not start with a capital")
    if not text.endswith("?") or text.count("?") != 1:
        out.append("is not one question ending in '?'")
    if "{" in text or "}" in text or "  " in text or " ?" in text:
        out.append("has a placeholder or stray spacing")
    words = _WORD.findall(text)
    lower = [w.lower() for w in words]
    for a, b in zip(lower, lower[1:], strict=False):
        if a == b:
            out.append(f"doubles {a!r}")
    forms = set(lower)
    for w in forms:
        base = base_verb(w)
        if base != w and base in forms:
            out.append(f"has a verb in two forms: {base!r} and {w!r}")
    for i, w in enumerate(lower[:-1]):
        if w in ("a", "an") and article(" ".join(words[i + 1 :])).split()[0] != w:
            out.append(f"'{w} {words[i + 1]}'")
    if lower.count(name.lower()) + lower.count(f"{name.lower()}'s") > 1:
        out.append("names the character twice")
    first = next((i for i, w in enumerate(lower) if w.removesuffix("'s") == name.lower()), None)
    other = PRONOUNS["male" if gender == "female" else "female"]
    for i, w in enumerate(lower):
        if w in other:
            out.append(f"{w!r} for a {gender} character")
        if w in PRONOUNS[gender] and (first is None or i < first):
            out.append(f"{w!r} before the name")
    if re.search(r"\b(?:she|he|her|his|it|they)'s\b|'s's", text, re.IGNORECASE):
        out.append("has a wrong possessive")
    content = [
        w
        for w in lower
        if len(w) >= 4 and w.removesuffix("'s") != name.lower() and w not in _MONTHS
    ]
    repeated = {w for w in content if content.count(w) > 1}
    if repeated:
        out.append(f"repeats {sorted(repeated)}")
    return out


def _preposition_problems(template: str, kind: str) -> list[str]:
    out = []
    for prep, kinds in PREPOSITIONS.items():
        if re.search(rf"\b{prep} \{{(?:desc|own)\}}", template) and kind not in kinds:
            out.append(f"'{prep}' does not fit a {kind} event")
    return out


def test_every_slot_of_every_described_kind_has_questions() -> None:
    asked = {(k, s) for k, s, _ in CASES}
    assert len(asked) >= 40
    assert ("injury", "activity") in asked and ("purchase", "brand") in asked


@pytest.mark.parametrize(("kind", "slot", "template"), CASES)
def test_question_template_is_grammatical(kind: str, slot: str, template: str) -> None:
    items = sorted(V.GADGETS) if kind == "purchase" else [""]
    found = _preposition_problems(template, kind)
    for name, gender, pronoun, possessive in PEOPLE:
        for item in items:
            fields = pointers(
                kind, first=name, pronoun=pronoun, possessive=possessive, stamp=STAMP, item=item
            )
            query = ie_query(template, fields)
            found += [f"{query!r} {p}" for p in problems(query, name, gender)]
    assert not found, found


@pytest.mark.parametrize("kind", sorted(DESCRIPTORS))
def test_descriptor_reads_right_in_both_forms(kind: str) -> None:
    for name, gender, pronoun, possessive in PEOPLE:
        for item in sorted(V.GADGETS) if kind == "purchase" else [""]:
            f = pointers(
                kind, first=name, pronoun=pronoun, possessive=possessive, stamp=STAMP, item=item
            )
            for text in (f"Do you remember {f['desc']}?", f"Did {name} enjoy {f['own']}?"):
                assert not problems(text, name, gender), (text, problems(text, name, gender))


def test_items_are_singular_nouns() -> None:
    # "What colour was the {item} she bought": a plural item ("headphones") would not agree.
    assert all(not item.endswith("s") for item in V.GADGETS)


def _vocabulary() -> Iterator[str]:
    for value in vars(V).values():
        pools = value.values() if isinstance(value, dict) else [value]
        for pool in pools:
            if isinstance(pool, tuple):
                for x in pool:
                    yield from (x if isinstance(x, tuple) else (x,))


def test_vocabulary_values_are_well_formed() -> None:
    bad = []
    for value in _vocabulary():
        words = value.split(" ")
        if value != value.strip() or "" in words:
            bad.append(f"{value!r}: spacing")
        if len(words) > 1 and words[0] in ("a", "an") and article(" ".join(words[1:])) != value:
            bad.append(f"{value!r}: article")
    assert not bad, bad


def test_generated_ie_questions_are_grammatical(demo_bench: Path) -> None:
    bench = Benchmark.open(demo_bench)
    people = {c["id"]: c for c in bench.world["characters"]}
    owner = {e["id"]: e["character_id"] for e in bench.world["events"]}
    checked = 0
    for q in bench.questions:
        if q.family != "IE":
            continue
        who = people[owner[q.evidence.event_ids[0]]]
        found = problems(q.query, who["first_name"], who["gender"])
        assert not found, (q.id, q.query, found)
        checked += 1
    assert checked >= 30


@pytest.mark.parametrize(
    "text",
    [
        "What fee did Nadia pay for the course Nadia enrolled in in December 2022?",
        "Where did Lotte meet the person from the person Lotte met in March 2021?",
        "How much did Lotte pay for the laptop she bought in March 2021?".lower(),
        "Who went with Lotte on his trip that started in May 2021?",
        "Who went with her on Lotte's trip that started in May 2021?",
        "Where did Lotte buy the laptop she bought in March 2021?",
        "What did Lotte order on a evening out?",
        "Which brand was the laptop Lotte bought in May 2021",
    ],
)
def test_the_rules_catch_bad_questions(text: str) -> None:
    assert problems(text, "Nadia" if "Nadia" in text else "Lotte", "female")


def test_the_rules_catch_a_misfit_preposition() -> None:
    assert _preposition_problems("What activity did {first} do on {own}?", "injury")
    assert not _preposition_problems("What activity did {first} do on {own}?", "trip")
