"""A world value in a memory is a claim only in the role of its attribute: small talk whose nouns
coincide with world values fabricates nothing, a wrong value in its role still does.

The small-talk texts are units ``mem0_style`` and ``summary`` wrote on the small preset (seed 11),
which the bare value match counted as fabricated; the names are the fixture's.
"""

from __future__ import annotations

import pytest

from umb.attribute._memory_claims import sentences
from umb.attribute._memory_gold import DialogueGold, GoldIndex
from umb.attribute._memory_metrics import dialogue_metrics
from umb.attribute._memory_units import DialogueUnits, UnitVersion
from umb.bench import Fact

EARLY, LATE = "2020-01-01T00:00", "2023-10-11T00:00"
FACTS = [
    Fact("H1", "C1", "E0", EARLY, "city", "Austin", "On 2020-01-01, Hamza Park's city was Austin."),
    Fact("H2", "C1", "E0", EARLY, "hobby", "swimming", "Hamza Park's hobby was swimming."),
    Fact("H3", "C1", "E1", EARLY, "event", "travelled to Dubrovnik", "He travelled to Dubrovnik."),
    Fact("H4", "C1", "E1", EARLY, "companion", "a cousin", "(companion: a cousin)"),
    Fact("H5", "C1", "E2", LATE, "hobby", "yoga", "Hamza Park took up yoga (hobby: yoga)."),
    Fact("O1", "C2", "F0", EARLY, "city", "Oslo", "On 2020-01-01, Bo Kim's city was Oslo."),
    Fact("O2", "C2", "F1", EARLY, "club", "the chess club", "Bo joined the chess club."),
    Fact("O3", "C2", "F1", EARLY, "hobby", "chess", "Bo took up chess (hobby: chess)."),
    Fact("O4", "C2", "F2", EARLY, "pet_name", "Olive", "Bo adopted a cat named Olive."),
    Fact("O5", "C2", "F3", EARLY, "companion", "a colleague", "(companion: a colleague)"),
]  # fmt: skip
WORLD = {"characters": [
    {"id": "C1", "name": "Hamza Park", "first_name": "Hamza"},
    {"id": "C2", "name": "Bo Kim", "first_name": "Bo"},
], "events": [], "timelines": {
    "C1": {"city": [{"at": EARLY, "value": "Austin"}],
           "hobby": [{"at": EARLY, "value": "swimming"}, {"at": LATE, "value": "yoga"}]},
    "C2": {"city": [{"at": EARLY, "value": "Oslo"}], "hobby": [{"at": EARLY, "value": "chess"}]},
}}  # fmt: skip

SMALL_TALK = [
    "Hamza Park's mechanic Hana swapped a miniature doormat in a marble yoga studio.",
    "Hamza Park reckon Lotte from yoga limped to a corner shop with Hamza Park's cousin.",
    "Hamza Park reckon Esme from chess club spent all evening painting pebbles with Hana.",
    "Hamza Park cleaned an adorable chess set behind a pastel jumble sale.",
    # a summary: the first sentence's cue words do not reach the second one's nouns
    "Hamza Park lives in Austin and work at Maple Clinic! Olive Ortiz: Tessa Walsh hoovered a"
    " second-hand chess set by the yoga studio on Ali Row.",
]
CLAIMS = {
    "Hamza Park's main hobby is yoga now.": ["yoga"],  # his hobby only from 2023
    "Hamza Park lives in Oslo.": ["Oslo"],  # Bo's city, never his
    "Hamza Park travelled to Dubrovnik with a colleague.": ["a colleague"],  # a wrong companion
}


def _fabricated(texts: list[str]) -> dict[str, list[str]]:
    gold = GoldIndex({f.id: f for f in FACTS}, WORLD)
    sessions = [("s1", "2020-02-01T00:00", ("H1", "H2", "H3", "H4")), ("s2", LATE, ("H5",))]
    dg = DialogueGold.of("D1", gold.people["C1"], sessions, {"s1", "s2"})
    units = DialogueUnits(ingested={"s1", "s2"})
    units.versions = [UnitVersion(f"memory:{i}", 1, t, False, "s1", f"op{i}", "add", i)
                      for i, t in enumerate(texts)]  # fmt: skip
    row = dialogue_metrics(dg, units, gold)
    return {f["text"]: f["values"] for f in row["detail"]["fabricated"]}


@pytest.mark.parametrize("text", SMALL_TALK)
def test_small_talk_nouns_are_no_claims(text: str) -> None:
    assert _fabricated([text]) == {}


def test_a_value_in_its_role_is_still_fabricated() -> None:
    assert _fabricated(list(CLAIMS)) == CLAIMS


def test_sentences_split_at_ends_not_inside_numbers() -> None:
    assert sentences("Paid $12.50 today. Then left! Why? ok") == [
        "Paid $12.50 today.", "Then left!", "Why?", "ok"]  # fmt: skip
