"""Which facts a question's answer rests on: one registered rule per question family.

A family names its rule (``Family.needs``); :data:`NEEDS_RULES` maps that name to a function of
the question and the benchmark's facts. A family whose rule is missing is refused with a
:class:`~umb.ConfigError` when its questions are attributed, never blamed silently on the
answerer. The built-in rules:

- IE (``ie_answer``): the slot value (gold answer or an alias);
- KU (``ku_latest``): the latest value; the deprecated values ride along to recognise stale
  memories;
- MA (``ma_premise``): the true value of the premise's slot, and the asked value (the final
  answer);
- TR (``tr_events``): each evidence event (its description; the date comes with the turn or
  unit);
- MSR / ES (``msr_steps`` / ``es_points``): each step or turning point (its text; two of its
  distinctive keys only show that an evidence turn is about it);
- ABS (``abs_nothing``): nothing (a failure there is the answerer's).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from umb._errors import ConfigError
from umb._registry import Registry
from umb.attribute._facts import Need, _has, as_text, as_text_list, padded, tokens
from umb.families import FAMILY_REGISTRY

if TYPE_CHECKING:
    from umb.bench import Fact, Question

NeedsRule = Callable[["Question", Mapping[str, "Fact"]], list[Need]]
"""``rule(question, facts_by_id) -> needs``; ``facts`` is empty for an imported benchmark."""


def _checked(name: str, obj: object) -> NeedsRule:
    if not callable(obj):
        raise ConfigError(f"attribution needs rule {name!r} must be a function")
    return obj


NEEDS_RULES: Registry[NeedsRule] = Registry("attribution needs rule", "needs", check=_checked)
"""Rule name (``Family.needs``) -> the function that lists a question's needed facts."""

_SPEAKER = re.compile(r"\A[A-Z][\w.' -]{0,40}: ")


def build_needs(question: Question, facts: Mapping[str, Fact] | None = None) -> list[Need]:
    """The facts ``question`` rests on (empty for ABS, or when the gold names none).

    Args:
        question: The question, with its gold, meta and evidence.
        facts: The benchmark's facts by id; TR uses them to name its evidence events. Without
            them (an imported benchmark) TR falls back to its evidence turns.

    Raises:
        ConfigError: The question's family is not registered, or names a rule that is not.
    """
    return needs_rule(question.family)(question, facts or {})


def needs_rule(family: str) -> NeedsRule:
    """The needs rule of ``family``.

    Raises:
        ConfigError: ``family`` is not registered, or its rule is not.
    """
    name = FAMILY_REGISTRY.get_or_raise(family).needs
    if name not in NEEDS_RULES:
        raise ConfigError(
            f"question family {family!r} names the attribution needs rule {name!r}, which is "
            f"not registered (umb.attribute.NEEDS_RULES: {', '.join(NEEDS_RULES)})"
        )
    return NEEDS_RULES[name]


def _values(primary: object, aliases: Iterable[object] = ()) -> tuple[str, ...]:
    out = [as_text(primary), *(as_text(a) for a in aliases)]
    return tuple(dict.fromkeys(v for v in out if v.strip()))


@NEEDS_RULES.register("ie_answer")
def _ie_answer(question: Question, facts: Mapping[str, Fact]) -> list[Need]:
    values = _values(question.gold.get("answer"), question.meta.get("aliases", ()))
    return [Need("answer", values, (), question.evidence.turn_ids)]


@NEEDS_RULES.register("ku_latest")
def _ku_latest(question: Question, facts: Mapping[str, Fact]) -> list[Need]:
    gold, meta = question.gold, question.meta
    latest = as_text(gold.get("latest_state"))
    stale = [as_text(v) for v in meta.get("deprecated_values", ())]
    if not stale and gold.get("deprecated_state"):
        stale = [as_text(gold["deprecated_state"])]
    # An old value inside the new one ("Acme" in "Acme Labs") cannot mark a memory stale.
    stale = [s for s in stale if s.strip() and not _has(padded(latest), s)]
    values = _values(latest, meta.get("aliases", ()))
    turns = question.evidence.turn_ids
    return [Need("latest value", values, (), turns, tuple(dict.fromkeys(stale)))]


@NEEDS_RULES.register("ma_premise")
def _ma_premise(question: Question, facts: Mapping[str, Fact]) -> list[Need]:
    gold, turns = question.gold, question.evidence.turn_ids
    needs = []
    true_value = question.meta.get("true_value")
    if true_value:
        needs.append(Need("premise value", _values(true_value), (), turns))
    if as_text(gold.get("final_answer")).strip():
        needs.append(Need("asked value", _values(gold.get("final_answer")), (), turns))
    return needs


@NEEDS_RULES.register("tr_events")
def _tr_events(question: Question, facts: Mapping[str, Fact]) -> list[Need]:
    turns = question.evidence.turn_ids
    needs = []
    seen: set[str] = set()
    for fid in question.evidence.fact_ids:
        fact = facts.get(fid)
        if fact is None or fact.event_id in seen:
            continue
        seen.add(fact.event_id)
        needs.append(Need(f"event {fact.event_id}", _values(fact.value), (), turns))
    if needs:
        return needs
    # An imported question names no events: follow its evidence turns through the graph.
    return [Need(f"evidence turn {t}", (), (), (t,)) for t in turns]


@NEEDS_RULES.register("msr_steps")
def _msr_steps(question: Question, facts: Mapping[str, Fact]) -> list[Need]:
    return _chain(question, "step_keys", "event_chain", "step")


@NEEDS_RULES.register("es_points")
def _es_points(question: Question, facts: Mapping[str, Fact]) -> list[Need]:
    return _chain(question, "point_keys", "key_turning_points", "turning point")


@NEEDS_RULES.register("abs_nothing")
def _abs_nothing(question: Question, facts: Mapping[str, Fact]) -> list[Need]:
    return []


def _chain(question: Question, meta_key: str, gold_key: str, label: str) -> list[Need]:
    turns = question.evidence.turn_ids
    if not question.meta.get(meta_key) and question.answer_components:
        # An imported chain quotes its evidence turns as steps; what the answer needs is its
        # components (LoCoMo's multi-hop answer, say).
        return [Need(f"component {i + 1}", _values(c), (), turns)
                for i, c in enumerate(question.answer_components)]  # fmt: skip
    raw = question.meta.get(meta_key)
    gold_steps = as_text_list(question.gold.get(gold_key))
    keys = [as_text_list(k) for k in raw] if isinstance(raw, list) and raw else []
    if not keys:
        keys = [[s] for s in gold_steps]
    distinct = _distinctive(keys)
    needs = []
    for i, ks in enumerate(keys):
        own = gold_steps[i] if i < len(gold_steps) else (ks[0] if ks else "")
        first = ks[0] if ks else own
        # Imported chains quote their evidence turns as "Speaker: text"; a turn's own text has
        # no speaker, so the quote without it is the value to find.
        quoted = _SPEAKER.sub("", own, count=1)
        values = _values(own, [v for v in (first, quoted) if v != own])
        weak = tuple(k for k in distinct[i] if k not in values)
        needs.append(Need(f"{label} {i + 1}", values, weak, turns))
    return needs


def _distinctive(step_keys: Sequence[Sequence[str]]) -> list[list[str]]:
    # A key shared by two steps (a city both booked and visited) says nothing about which.
    counts: dict[tuple[str, ...], int] = {}
    for ks in step_keys:
        for k in {tokens(k) for k in ks}:
            counts[k] = counts.get(k, 0) + 1
    return [[k for k in ks if counts[tokens(k)] == 1] for ks in step_keys]
