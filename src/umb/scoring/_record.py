"""The score record and the registry of rule scorers, one per family."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from umb._errors import ConfigError
from umb._registry import Registry, did_you_mean
from umb.bench import Question
from umb.families import FAMILY_REGISTRY

RuleFn = Callable[[Question, dict[str, Any]], tuple[float | None, dict[str, Any]]]
"""A rule: (question, parsed answer) -> (value, details explaining it)."""


@dataclass(frozen=True, slots=True)
class Score:
    """The score of one prediction, from any scorer (rule, judge, peer metric).

    ``value`` is in [0, 1] (umb's rules give 0, 0.5 or 1), or ``None`` when the item could not
    be scored (a judge failure) or is skipped by design; unscored items are counted, never
    averaged in as zeros. A peer metric's own record is ``details``.
    """

    value: float | None
    scorer: str
    """Name of the scorer that decided, e.g. ``ie_value_match``."""
    version: str
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def scored(self) -> bool:
        """Whether the item has a value."""
        return self.value is not None

    @property
    def skipped(self) -> bool:
        """Whether the scorer leaves the item out by design (Mem0's category 5, say)."""
        return bool(self.details.get("skipped"))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view for run records."""
        return {
            "value": self.value,
            "scorer": self.scorer,
            "version": self.version,
            "details": self.details,
        }


@dataclass(frozen=True, slots=True)
class RuleScorer:
    """A registered rule scorer for one family."""

    family: str
    name: str
    version: str
    """Bumped whenever the rule changes what a score means (docs/scoring.md)."""
    fn: RuleFn

    def __call__(self, question: Question, answer: dict[str, Any]) -> Score:
        """Score a parsed answer object of this scorer's family."""
        value, details = self.fn(question, answer)
        return Score(value, self.name, self.version, details)


def _check_declared(family: str, name: str) -> None:
    if family not in FAMILY_REGISTRY:
        raise ConfigError(f"unknown question family {family!r}")
    declared = FAMILY_REGISTRY[family].scorer
    if name != declared:
        raise ConfigError(f"question family {family!r} declares scorer {declared!r}, not {name!r}")


def _checked(family: str, obj: object) -> RuleScorer:
    """A rule scorer registered for ``family`` must be that family's, under its declared name."""
    if not isinstance(obj, RuleScorer) or obj.family != family:
        raise ConfigError(f"the rule scorer of family {family!r} must be a RuleScorer for it")
    _check_declared(family, obj.name)
    return obj


SCORERS: Registry[RuleScorer] = Registry("family scorer", "rule", check=_checked)
"""Family code -> its rule scorer: the built-ins by entry (loaded at first lookup), others by
:func:`rule_scorer`."""

BUILTIN_RULES: dict[str, str] = {
    "IE": "umb.scoring._rules:IE",
    "MSR": "umb.scoring._chains:MSR",
    "ES": "umb.scoring._chains:ES",
    "TR": "umb.scoring._rules:TR",
    "KU": "umb.scoring._rules:KU",
    "MA": "umb.scoring._rules:MA",
    "ABS": "umb.scoring._rules:ABS",
}
"""The built-in families' rule scorers, by entry (``module:RuleScorer``)."""
for _family, _target in BUILTIN_RULES.items():
    SCORERS.add_lazy(_family, _target)
del _family, _target


def rule_scorer(family: str, *, name: str, version: str) -> Callable[[RuleFn], RuleFn]:
    """Register a function as the rule scorer of ``family`` (one per family).

    Raises:
        ConfigError: ``family`` is not registered, declares another scorer name, or has one.
    """
    _check_declared(family, name)

    def register(fn: RuleFn) -> RuleFn:
        SCORERS.add(family, RuleScorer(family, name, version, fn))
        return fn

    return register


def get_scorer(family: str) -> RuleScorer:
    """The rule scorer of ``family``.

    Raises:
        ConfigError: No scorer for that family (the message suggests a close code).
    """
    if family in SCORERS:
        return SCORERS[family]
    hint = did_you_mean(family.upper(), SCORERS)
    raise ConfigError(f"no scorer for family {family!r}{hint}")
