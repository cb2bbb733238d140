"""A joint event's facts are each participant's own: their ``with`` names the others."""

from __future__ import annotations

from umb.world import Character, Event, SpeechProfile, as_told_by
from umb.world._facts import event_facts

_SPEECH = SpeechProfile("casual", "chatty", (), "", False)


def _person(cid: str, name: str) -> Character:
    return Character(cid, name, name.split()[0], 30, "female", "Lyon", "nurse", "ENFP", _SPEECH,
                     (), {})  # fmt: skip


def _hike() -> Event:
    return Event("J-C1-C2-1", "C1", "2024-05-01T10:00", "leisure", "joint_hike",
                 "went hiking at Lake Serene together",
                 {"place": "Lake Serene", "with": "Nadia Umeh and Arjun Becker"},
                 participants=("C2",))  # fmt: skip


def test_each_participant_is_told_the_others() -> None:
    nadia, arjun = _person("C1", "Nadia Umeh"), _person("C2", "Arjun Becker")
    assert as_told_by(_hike(), nadia).slots["with"] == "Arjun Becker"
    assert as_told_by(_hike(), arjun).slots["with"] == "Nadia Umeh"
    stranger = _person("C3", "Ines Moreau")
    assert as_told_by(_hike(), stranger) == _hike()  # not theirs: as the world holds it
    facts = {f.attribute: f for f in event_facts(_hike(), nadia)}
    assert facts["with"].value == "Arjun Becker"
    assert facts["with"].text.endswith("(with: Arjun Becker).")
    assert facts["place"].value == "Lake Serene"  # the other slots are untouched
