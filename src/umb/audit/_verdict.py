"""The thresholds each family must stay under, and the verdict."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from umb.audit._score import Scored

EXCLUDED: Final = frozenset({"ABS"})
"""Families no threshold applies to: an abstention question has no gold to guess."""

ABOVE_FLOOR: Final = 5.0
"""Question-only, profile-only and the template prior: at most this many points above the floor."""
MENTION_MAX: Final = 10.0
CUE_MAX: Final = 10.0
EXAMPLES: Final = 3


@dataclass(frozen=True, slots=True)
class Rule:
    """A threshold of one baseline: which families it binds and how many points it may gain.

    Every limit is read above the no-context floor on the same questions: the floor is 0 on
    every family but MA, where scheme "A" gives half credit to a right premise verdict whatever
    the rest of the answer says, so a baseline is charged only for what its shortcut adds.
    """

    baseline: str
    families: tuple[str, ...] | None
    """None: every family but ABS."""
    limit: float

    def describe(self) -> str:
        """The rule in words, for the report."""
        return f"≤ floor + {self.limit:g} points"


RULES: Final = (
    Rule("question_only", None, ABOVE_FLOOR),
    Rule("profile_only", None, ABOVE_FLOOR),
    Rule("template_prior", None, ABOVE_FLOOR),
    Rule("first_mention", ("KU", "MA"), MENTION_MAX),
    Rule("latest_mention", ("KU", "MA"), MENTION_MAX),
    Rule("cue_matching", ("MSR", "ES"), CUE_MAX),
)


def _examples(scored: list[Scored], family: str) -> list[str]:
    rows = [s for s in scored if s.family == family and s.subset and s.value > 0]
    rows.sort(key=lambda s: (-s.value, s.question_id))
    return [s.question_id for s in rows[:EXAMPLES]]


def _within_noise(fig: dict[str, Any], limit: float) -> bool:
    """Whether the 95 % interval still reaches down to ``limit``.

    A check fails only when the whole interval lies above its maximum: on a few dozen
    questions two golds that happen to repeat (two "project manager"s among nine KU golds) put
    a mean over 5 % that a larger sample of the same generator does not keep.
    """
    ci = fig.get("ci95")
    return ci is not None and len(ci) == 2 and ci[0] <= limit


def checks(
    figures: dict[str, dict[str, Any]],
    floors: dict[str, dict[str, Any]],
    scored: dict[str, list[Scored]],
) -> list[dict[str, Any]]:
    """One check per (baseline, family) with a figure: its value, maximum and outcome.

    ``over``: the mean is above the maximum; ``passed``: it is not, or its 95 % interval still
    reaches the maximum (an excess the sample cannot tell from noise, reported but not failed).

    ``floors`` holds, per baseline, the floor's figures on the questions that baseline's
    figure counts (first- and latest-mention count a subset).
    """
    out = []
    for rule in RULES:
        per_family = figures.get(rule.baseline, {})
        for family, fig in per_family.items():
            if family in EXCLUDED or (rule.families and family not in rule.families):
                continue
            if fig["mean"] is None:
                continue
            base = floors.get(rule.baseline, {}).get(family, {}).get("mean") or 0.0
            limit = round(base + rule.limit, 1)
            over = fig["mean"] > limit
            passed = not over or _within_noise(fig, limit)
            out.append({
                "baseline": rule.baseline,
                "family": family,
                "value": fig["mean"],
                "ci95": fig["ci95"],
                "n": fig["n"],
                "floor": base,
                "max": limit,
                "rule": rule.describe(),
                "over": over,
                "passed": passed,
                "examples": _examples(scored[rule.baseline], family) if over else [],
            })  # fmt: skip
    return out


def verdict(all_checks: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """``("passed" | "failed", the failed checks)``: failed when any check's interval is over."""
    failed = [c for c in all_checks if not c["passed"]]
    return ("failed" if failed else "passed"), failed
