"""Records of a benchmark directory: dialogues, questions and atomic facts.

These are the public on-disk contract (docs/benchmark-format.md). Each record is a frozen
dataclass whose fields serialise, in order, to one JSON line. The dataclasses are the one
declaration of the format: msgspec decodes and checks every line against them (types, required
fields, defaults), so a broken field reads ``file:line: field: problem``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

import msgspec

R = TypeVar("R")

TEMPLATE: Final = "template"
"""``Session.rendered_by`` of a session written by the template renderer."""


def _convert(cls: type[R], d: Any) -> R:
    # Strict: a number where text belongs is an error, not coerced.
    return msgspec.convert(d, cls)


@dataclass(frozen=True, slots=True)
class Fact:
    """One atomic fact of the world, as a dialogue turn can state it."""

    id: str
    character_id: str
    """The character whose history holds the fact (joint events give one fact per participant)."""
    event_id: str
    at: str
    """When the fact became true, ``YYYY-MM-DDTHH:MM``."""
    attribute: str
    """A slot name (``destination``), a tracked attribute (``employer``) or ``event``."""
    value: str
    text: str
    """A third-person sentence stating the fact."""

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Fact:
        return _convert(cls, d)


@dataclass(frozen=True, slots=True)
class Turn:
    """One utterance of a session."""

    id: str
    role: str
    """``user`` (the interlocutor) or ``assistant`` (the character), as in the original."""
    speaker: str
    text: str
    fact_ids: tuple[str, ...] = ()
    """The facts this turn states."""

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Turn:
        return _convert(cls, d)


@dataclass(frozen=True, slots=True)
class Session:
    """One dated conversation between the character and the interlocutor."""

    id: str
    started_at: str
    turns: tuple[Turn, ...]
    rendered_by: str | None = None
    """Who wrote the text: ``template``, or the spec of the model that wrote it (the LLM
    renderer); None for imported peer benchmarks, whose text was written by their authors."""

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Session:
        return _convert(cls, d)


@dataclass(frozen=True, slots=True)
class Interlocutor:
    """Who the character talks to, and where."""

    name: str
    role: str
    scene: str


@dataclass(frozen=True, slots=True)
class Dialogue:
    """All sessions of one character with one interlocutor, in time order."""

    id: str
    character_id: str
    interlocutor: Interlocutor
    sessions: tuple[Session, ...]

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Dialogue:
        return _convert(cls, d)

    def turns(self) -> list[Turn]:
        """Every turn of every session, in order."""
        return [t for s in self.sessions for t in s.turns]


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a question's gold answer rests on."""

    event_ids: tuple[str, ...] = ()
    fact_ids: tuple[str, ...] = ()
    session_ids: tuple[str, ...] = ()
    turn_ids: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Evidence:
        return _convert(cls, d)


@dataclass(frozen=True, slots=True)
class Question:
    """One question about one dialogue, with its structured gold answer."""

    id: str
    dialogue_id: str
    family: str
    """A code of :data:`umb.families.FAMILIES`."""
    query: str
    asked_at: str
    """When the question is asked, ``YYYY-MM-DDTHH:MM``; only sessions before it count."""
    gold: dict[str, Any]
    """The family's answer fields (:data:`umb.families.REQUIRED_FIELDS`)."""
    answer_components: tuple[str, ...] = ()
    evidence: Evidence = field(default_factory=Evidence)
    meta: dict[str, Any] = field(default_factory=dict)
    """Family-specific details: ``kind`` (sub-type), native ids and categories of imports, …"""

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Question:
        return _convert(cls, d)