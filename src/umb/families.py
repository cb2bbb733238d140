"""Question families: each one declared once, as a :class:`Family` in :data:`FAMILY_REGISTRY`.

A family's record holds its code, name, answer fields (with their JSON schemas and what the
prompt says of them), its main answer field and the names of what other layers register for it:
its rule scorer and its attribution needs rule. The per-family tables other modules read
(:data:`FAMILIES`, :data:`REQUIRED_FIELDS`, :data:`BINARY_FAMILIES`, …) are live views of the
registry, so a family registered later shows in all of them.

The fields follow the original UnifiedMemBench release so results line up with its tables;
``ABS`` (unanswerable) is umb's own addition.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar, overload

from umb._errors import ConfigError
from umb._registry import Registry

V = TypeVar("V")

# Lists and strings are bounded: a small model under a grammar can otherwise repeat an item or a
# sentence until it runs out of tokens, which leaves the JSON unclosed. Six items is the most any
# family's rules ask for; the longest field (ES's summary of two or three sentences) fits in 400
# characters, and a whole answer in about 400 tokens.
MAX_ITEMS: Final = 6
TEXT: Final[Mapping[str, Any]] = {"type": "string", "maxLength": 200}
LONG_TEXT: Final[Mapping[str, Any]] = {"type": "string", "maxLength": 400}
LIST: Final[Mapping[str, Any]] = {
    "type": "array", "items": {"type": "string", "maxLength": 120}, "maxItems": MAX_ITEMS
}  # fmt: skip
INTEGER: Final[Mapping[str, Any]] = {"type": "integer"}
BOOLEAN: Final[Mapping[str, Any]] = {"type": "boolean"}


@dataclass(frozen=True, slots=True)
class Field:
    """One answer field of a family."""

    name: str
    schema: Mapping[str, Any]
    """The JSON schema of its value, as constrained decoding gets it (``response_format``)."""
    meaning: str
    """Its type and meaning as the prompt states them (``string: the detail``)."""


@dataclass(frozen=True, slots=True)
class Family:
    """Everything umb needs to know about a question family, in one place.

    What other layers register for a family is named here: its rule scorer (:attr:`scorer`,
    in ``umb.scoring.SCORERS``) and its attribution needs rule (:attr:`needs`, in
    ``umb.attribute.NEEDS_RULES``). The answerer's prompt is built from :attr:`goal`,
    :attr:`rules`, the fields' meanings and :attr:`example`.
    """

    code: str
    """Short code questions carry in ``family`` (``"IE"``)."""
    name: str
    """Long name for tables (``"Information Extraction"``)."""
    fields: tuple[Field, ...]
    """The answer fields, in the order the prompt lists them and gold answers hold them."""
    primary_field: str
    """The field holding the one-line answer (a peer format's single answer, the reference)."""
    scorer: str
    """Name of the family's rule scorer (``ie_value_match``); :func:`umb.scoring.rule_scorer`
    refuses another name for the family."""
    needs: str
    """Name of the attribution rule that says which facts an answer rests on
    (``umb.attribute.NEEDS_RULES``); attribution refuses a family whose rule is missing rather
    than blame all its failures on the answerer."""
    goal: str
    """What the family asks for, as the prompt's first line says it ("Recall one detail …")."""
    rules: tuple[str, ...]
    """The prompt's rules for an answer of this family."""
    example: Mapping[str, Any]
    """A tiny, made-up answer of the right shape (about no benchmark character), every field."""
    binary: bool = False
    """Scored 0/1; otherwise 0, 0.5 or 1 (as in the original's scheme "A")."""
    judged_field: str | None = None
    """The free-text field the optional LLM judge grades, if any."""
    weight: float = 1.0
    """The original's up-weighting of harder families when sampling QA training records."""

    def __post_init__(self) -> None:
        names = self.field_names
        if not self.code or not names or len(set(names)) != len(names):
            raise ConfigError(f"question family {self.code!r} needs a code and distinct fields")
        if not self.goal.strip() or list(self.example) != list(names):
            raise ConfigError(
                f"question family {self.code!r} needs a prompt goal and an example answer with "
                f"its fields in order ({', '.join(names)})"
            )
        for role, name in (("primary", self.primary_field), ("judged", self.judged_field)):
            if name is not None and name not in names:
                raise ConfigError(
                    f"question family {self.code!r}: {role} field {name!r} is not one of its "
                    f"fields ({', '.join(names)})"
                )

    @property
    def field_names(self) -> tuple[str, ...]:
        """The answer fields' names, in order."""
        return tuple(f.name for f in self.fields)


def _checked(code: str, obj: object) -> Family:
    if not isinstance(obj, Family) or obj.code != code:
        raise ConfigError(f"question family {code!r} must be a Family with that code")
    return obj


FAMILY_REGISTRY: Registry[Family] = Registry("question family", "family", check=_checked)
"""Family code -> :class:`Family`, the built-ins first, in the order tables list them."""


def register_family(family: Family) -> Family:
    """Register ``family`` under its code (``FAMILY_REGISTRY.remove(code)`` undoes it).

    Raises:
        ConfigError: The code is taken.
    """
    FAMILY_REGISTRY.add(family.code, family)
    return family


for _family in (
    Family(
        "IE", "Information Extraction",
        (
            Field("answer", TEXT, "string: the detail"),
            Field("evidence_snippets", LIST, "list of strings: lines of the history that state it"),
        ),
        primary_field="answer", scorer="ie_value_match", needs="ie_answer", binary=True,
        goal="Recall one specific detail that was mentioned in the conversation.",
        rules=(
            "Give the detail itself as briefly as possible (a name, number, place, date or "
            "short phrase), not a sentence around it.",
            "Quote the line or lines of the history that state it as evidence.",
        ),
        example={
            "answer": "Juniper",
            "evidence_snippets": ["We named the kitten Juniper after the tree in the yard."],
        },
    ),
    Family(
        "MSR", "Multi-session Reasoning",
        (
            Field("event_chain", LIST, "list of strings: the steps in time order"),
            Field("final_outcome", TEXT, "string: where the chain ended up"),
        ),
        primary_field="final_outcome", scorer="msr_chain_recall", needs="msr_steps",
        judged_field="final_outcome", weight=1.75,
        goal="Trace how one situation led to another across several sessions.",
        rules=(
            "List the events that actually connect the start to the outcome, in the order they "
            "happened, 3 to 6 short steps.",
            "Keep the real intermediate events from the history; do not replace them with "
            "plausible ones.",
        ),
        example={
            "event_chain": [
                "Lost the lease on the studio",
                "Moved the pottery wheel to a friend's garage",
                "Started selling bowls at the Saturday market",
            ],
            "final_outcome": "Opened a small shop with a market regular as partner",
        },
    ),
    Family(
        "ES", "Event Summarization",
        (
            Field("time_span", TEXT, "string: 'YYYY-MM-DD to YYYY-MM-DD'"),
            Field("key_turning_points", LIST, "list of strings: the turning points in time order"),
            Field("summary", LONG_TEXT, "string: two or three sentences"),
        ),
        primary_field="summary", scorer="es_point_recall", needs="es_points",
        judged_field="summary", weight=1.75,
        goal="Summarise what happened over a period or around one theme.",
        rules=(
            "Name the period covered as 'YYYY-MM-DD to YYYY-MM-DD'.",
            "List at most six key turning points in time order, each as a short phrase.",
            "Use the milestones the history actually mentions, not similar ones.",
        ),
        example={
            "time_span": "2017-01-01 to 2017-12-31",
            "key_turning_points": ["Joined a running club", "Finished a first half marathon"],
            "summary": "A year that went from casual jogs to a first race.",
        },
    ),
    Family(
        "TR", "Temporal Reasoning",
        (
            Field("final_answer", TEXT, "string: the answer in words"),
            Field("days", INTEGER, "integer: number of days"),
            Field("start_date", TEXT, "string YYYY-MM-DD"),
            Field("end_date", TEXT, "string YYYY-MM-DD"),
        ),
        primary_field="final_answer", scorer="tr_days_dates", needs="tr_events", binary=True,
        weight=2.0,
        goal="Work out dates and the number of days between events, or their order.",
        rules=(
            "Turn relative phrases ('two weeks ago', 'last Friday') into calendar dates using "
            "the date of the session they were said in.",
            "days must equal end_date minus start_date, with start_date the earlier date.",
            "For a question about how long ago something happened, end_date is the current date.",
            "If the question asks whether one thing happened before or after another on the "
            "same day, final_answer is 'before' or 'after', days is 0 and both dates are that day.",
        ),
        example={
            "final_answer": "45 days",
            "days": 45,
            "start_date": "2019-02-01",
            "end_date": "2019-03-18",
        },
    ),
    Family(
        "KU", "Knowledge Updating",
        (
            Field("latest_state", TEXT, "string: the current value"),
            Field("as_of_time", TEXT, "string YYYY-MM-DD"),
            Field("deprecated_state", TEXT, "string: the previous value"),
        ),
        primary_field="latest_state", scorer="ku_latest_not_deprecated", needs="ku_latest",
        binary=True, weight=1.25,
        goal="Report the current value of something that changed over time.",
        rules=(
            "Follow every change in the history and give the value that holds as of the "
            "current date, not an earlier one.",
            "as_of_time is the date (YYYY-MM-DD) from which the current value holds.",
            "deprecated_state is the value it replaced ('' if it never changed).",
        ),
        example={
            "latest_state": "Harbor Street Bakery",
            "as_of_time": "2018-09-03",
            "deprecated_state": "Greenline Grocers",
        },
    ),
    Family(
        "MA", "Memory Arbitration",
        (
            Field(
                "premise_verdict",
                {"type": "string", "enum": ["correct", "incorrect"]},
                "string: 'correct' or 'incorrect'",
            ),
            Field("premise_error", TEXT, "string: what the question got wrong, or ''"),
            Field("corrected_facts", LIST, "list of strings: the true facts"),
            Field("final_answer", TEXT, "string: the answer"),
        ),
        primary_field="final_answer", scorer="ma_verdict_slot_answer", needs="ma_premise",
        judged_field="final_answer", weight=1.25,
        goal="Check the question's assumption against the history before answering it.",
        rules=(
            "premise_verdict is 'incorrect' if the question assumes something the history "
            "contradicts, otherwise 'correct'.",
            "If it is incorrect, say what is wrong in premise_error and state the true facts "
            "in corrected_facts; if it is correct, premise_error is '' and corrected_facts "
            "may be empty.",
            "final_answer answers the question on the basis of the true facts.",
        ),
        example={
            "premise_verdict": "incorrect",
            "premise_error": "The trip was to Oslo, not Bergen.",
            "corrected_facts": ["The trip in June was to Oslo."],
            "final_answer": "The trip to Oslo lasted a week.",
        },
    ),
    Family(
        "ABS", "Abstention",
        (
            Field("answerable", BOOLEAN, "boolean"),
            Field("answer", TEXT, "string: the answer, or 'not mentioned'"),
        ),
        primary_field="answer", scorer="abs_abstain", needs="abs_nothing", binary=True,
        goal="Answer only if the history actually contains the answer.",
        rules=(
            "If the history never mentions what is asked, set answerable to false and answer "
            "'not mentioned'.",
            "Otherwise set answerable to true and give the answer briefly.",
        ),
        example={"answerable": False, "answer": "not mentioned"},
    ),
):  # fmt: skip
    register_family(_family)
del _family


# -- the per-family tables, as views of the registry -----------------------------------------


class _Codes(Sequence[str]):
    """The codes of the registered families (those ``where`` accepts), in registry order."""

    def __init__(self, where: Callable[[Family], bool] | None = None) -> None:
        self._where = where

    def _codes(self) -> list[str]:
        where = self._where
        return [c for c, f in FAMILY_REGISTRY.items() if where is None or where(f)]

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self._codes()[index]

    def __len__(self) -> int:
        return len(self._codes())

    def __iter__(self) -> Iterator[str]:
        return iter(self._codes())

    def __contains__(self, code: object) -> bool:
        if not isinstance(code, str) or code not in FAMILY_REGISTRY:
            return False
        return self._where is None or self._where(FAMILY_REGISTRY[code])

    def __repr__(self) -> str:
        return repr(tuple(self._codes()))


class _Column(Mapping[str, V]):
    """Family code -> one value read off its record (for the families that have one)."""

    def __init__(self, value: Callable[[Family], V | None]) -> None:
        self._value = value

    def __getitem__(self, code: str) -> V:
        value = self._value(FAMILY_REGISTRY[code])
        if value is None:
            raise KeyError(code)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter([c for c, f in FAMILY_REGISTRY.items() if self._value(f) is not None])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return repr(dict(self.items()))


FAMILIES: Final[Sequence[str]] = _Codes()
"""Every family code, in registry order."""

FAMILY_NAMES: Final[Mapping[str, str]] = _Column(lambda f: f.name)

REQUIRED_FIELDS: Final[Mapping[str, tuple[str, ...]]] = _Column(lambda f: f.field_names)

#: Families scored 0/1; the others get 0, 0.5 or 1 (as in the original's scheme "A").
BINARY_FAMILIES: Final[Sequence[str]] = _Codes(lambda f: f.binary)

PRIMARY_FIELDS: Final[Mapping[str, str]] = _Column(lambda f: f.primary_field)
"""Family -> the field holding its one-line answer."""

FIELD_SCHEMAS: Final[Mapping[str, Mapping[str, Mapping[str, Any]]]] = _Column(
    lambda f: {x.name: x.schema for x in f.fields}
)
"""Family -> field -> JSON schema of the field, fields in the order the prompt lists them."""

JUDGED_FIELDS: Final[Mapping[str, str]] = _Column(lambda f: f.judged_field)
"""Family -> the free-text field the LLM judge grades (judged families only)."""

FAMILY_WEIGHTS: Final[Mapping[str, float]] = _Column(lambda f: f.weight)
"""Family -> the original's sampling weight of its QA training records."""


def family_name(code: str) -> str:
    """Return the long name of a family code such as ``"IE"``."""
    return FAMILY_NAMES[code]
