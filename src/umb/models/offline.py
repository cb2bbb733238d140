"""The ``offline`` model: a deterministic, non-LLM reader that gives a lower bound.

It reads only ``request.task["family"]``, ``["query"]``, ``["asked_at"]`` and ``["context"]`` (the
history the memory system handed over), never the world or the gold. It ranks the context's dated
sentences against the question (BM25), resolves relative time expressions against each sentence's
session date, and fills in the family's JSON fields with surface heuristics. docs/offline-reader.md
explains each family's recipe. Any LLM worth testing should beat it.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from datetime import date
from typing import Any, Final

from umb._dates import clock_minutes, has_time_expression
from umb._errors import ConfigError
from umb._tokens import estimate_tokens
from umb.models._api import GenerateRequest, GenerateResult
from umb.models._offline_lists import answer_es, answer_ku, answer_msr
from umb.models._offline_reader import NOT_MENTIONED, Reader
from umb.models._offline_spans import Span, answer_kind, cue_tail, spans

#: Below this share of the question's (idf-weighted) words in any one sentence, say "not
#: mentioned" to an abstention question.
ABSTAIN_COVERAGE: Final = 0.6


def _iso(d: date) -> str:
    return d.isoformat()


def answer_ie(r: Reader) -> dict[str, Any]:
    top, _, _ = r.rank(r.query)
    evidence = [r.text(i) for i in sorted(top[:3], key=lambda i: int(r.ix.starts[i]))]
    return {"answer": r.short_answer(top), "evidence_snippets": evidence}


_BETWEEN: Final = re.compile(r"\bbetween\s+(.+?)\s+and\s+(.+)", re.IGNORECASE | re.DOTALL)
_ORDER: Final = re.compile(r"(.+?)\s+before or after\s+(.+)", re.IGNORECASE | re.DOTALL)
_SINCE: Final = re.compile(r"\b(today|ago|since|now|so far)\b", re.IGNORECASE)


def _best_event(r: Reader, phrase: str, avoid: int | None = None) -> int | None:
    """The sentence that best tells of the event in ``phrase``; dated sentences preferred."""
    top, scores, _ = r.rank(phrase, k=10, smooth=False)
    top = [i for i in top if i != avoid]
    if not top:
        return None
    return max(
        top, key=lambda i: (scores[i] * (1.25 if has_time_expression(r.text(i)) else 1.0), -i)
    )


def answer_tr(r: Reader) -> dict[str, Any]:
    q = r.query
    order = _ORDER.search(q)
    if order:
        a = _best_event(r, order.group(1))
        b = _best_event(r, order.group(2), avoid=a)
        if a is None or b is None:
            day = r.asked_on
            return {
                "final_answer": "before",
                "days": 0,
                "start_date": _iso(day),
                "end_date": _iso(day),
            }
        ta, tb = clock_minutes(r.text(a)), clock_minutes(r.text(b))
        before = ta < tb if ta is not None and tb is not None and ta != tb else a < b
        day = r.event_date(a)
        word = "before" if before else "after"
        return {"final_answer": word, "days": 0, "start_date": _iso(day), "end_date": _iso(day)}
    between = _BETWEEN.search(q)
    if between is None and _SINCE.search(q):
        a = _best_event(r, q)
        start = r.event_date(a) if a is not None else r.asked_on
        days = (r.asked_on - start).days
        return {
            "final_answer": f"{days} days",
            "days": days,
            "start_date": _iso(start),
            "end_date": _iso(r.asked_on),
        }
    if between and " and the day " in between.group(0):
        first, _, second = between.group(0)[len("between ") :].partition(" and the day ")
    elif between:
        first, second = between.group(1), between.group(2)
    else:
        first, second = q, q
    a = _best_event(r, first)
    b = _best_event(r, second, avoid=a)
    dates = sorted(r.event_date(i) for i in (a, b) if i is not None) or [r.asked_on]
    start, end = dates[0], dates[-1]
    days = (end - start).days
    return {
        "final_answer": f"{days} days",
        "days": days,
        "start_date": _iso(start),
        "end_date": _iso(end),
    }


_PREMISE: Final = re.compile(
    r"^\s*(?:given that|since|as|now that|considering that|if)\b(.+?),(.+)$", re.I | re.S
)
_YEAR: Final = re.compile(r"(?:19|20)\d{2}")


def _premise_values(r: Reader, clause: str) -> list[Span]:
    """Values a premise asserts: names, amounts and the phrase after its last copula."""
    values = [
        s
        for s in spans(clause, r.speakers)
        if s.kind != "time" and not (s.kind == "number" and _YEAR.fullmatch(s.text))
    ]
    tail = cue_tail(clause)
    if tail and not any(
        tail.lower() in v.text.lower() or v.text.lower() in tail.lower() for v in values
    ):
        values.append(Span(tail, "phrase", max(clause.rfind(tail), 0)))
    return values


def _correction(r: Reader, wrong: Span, window: list[int]) -> tuple[str, list[str]]:
    """What the history says instead of ``wrong``, and the sentences that say it."""
    numeric = wrong.kind in ("money", "number")
    for i in window:
        for s in spans(r.text(i), r.exclude):
            if s.kind != "time" and (s.kind in ("money", "number")) == numeric:
                if numeric or wrong.kind != "phrase":
                    return s.text, [r.text(i)]
    # A lower-case value has no surface shape to look for: report the statements around it.
    said = [r.text(i) for i in window if not r.text(i).endswith("?")][:3]
    return (said[0] if said else NOT_MENTIONED), said


def answer_ma(r: Reader) -> dict[str, Any]:
    m = _PREMISE.match(r.query)
    clause, question = (m.group(1), m.group(2)) if m else (r.query, r.query)
    premise = _premise_values(r, clause)
    rest = r.query
    for s in premise:
        rest = rest.replace(s.text, " ")
    # Rank without the premise's own values, so a wrong value cannot pull in its own sentence.
    top, _, _ = r.rank(rest)
    final = r.short_answer(top, answer_kind(question)) if top else NOT_MENTIONED
    correct = {
        "premise_verdict": "correct",
        "premise_error": "",
        "corrected_facts": [],
        "final_answer": final,
    }
    if not top:
        return correct
    window = sorted(set(r.window(top[0])), key=lambda i: (i != top[0], i))
    window_text = " ".join(r.text(i) for i in window).lower()
    missing = [s for s in premise if s.text.lower() not in window_text]
    if not missing:
        return correct
    true_value, facts = _correction(r, missing[0], window)
    return {
        "premise_verdict": "incorrect",
        "premise_error": f"The history does not say {missing[0].text}; it says {true_value}.",
        "corrected_facts": facts,
        "final_answer": final,
    }


def answer_abs(r: Reader) -> dict[str, Any]:
    top, _, coverage = r.rank(r.query, fallback=False)
    if not top or float(coverage.max(initial=0.0)) < ABSTAIN_COVERAGE:
        return {"answerable": False, "answer": NOT_MENTIONED}
    return {"answerable": True, "answer": r.short_answer(top)}


_ANSWERERS: Final = {
    "IE": answer_ie,
    "TR": answer_tr,
    "KU": answer_ku,
    "MA": answer_ma,
    "MSR": answer_msr,
    "ES": answer_es,
    "ABS": answer_abs,
}


def read(family: str, query: str, asked_at: str, context: str) -> dict[str, Any]:
    """Answer one question from ``context`` alone, as the family's JSON object.

    Raises:
        ConfigError: Unknown family.
    """
    try:
        answerer = _ANSWERERS[family]
    except KeyError:
        raise ConfigError(f"the offline reader has no recipe for family {family!r}") from None
    return answerer(Reader(query, asked_at, context))


class OfflineModel:
    """A deterministic lower-bound reader; see the module docstring and docs/offline-reader.md."""

    spec = "offline"

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        """Answer each request from its ``task`` (family, query, asked_at, context).

        Raises:
            ConfigError: A request lacks one of those task fields (a wiring mistake).
        """
        results = []
        for request in requests:
            start = time.perf_counter()
            task = request.task
            missing = [k for k in ("family", "query", "asked_at", "context") if k not in task]
            if missing:
                raise ConfigError(f"the offline reader needs task fields: {', '.join(missing)}")
            answer = read(
                str(task["family"]), str(task["query"]), str(task["asked_at"]), str(task["context"])
            )
            text = json.dumps(answer, ensure_ascii=False)
            results.append(
                GenerateResult(
                    text=text,
                    input_tokens=sum(estimate_tokens(m.content) for m in request.messages),
                    output_tokens=estimate_tokens(text),
                    latency_s=time.perf_counter() - start,
                )
            )
        return results
