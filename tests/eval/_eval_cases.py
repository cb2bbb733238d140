"""Hand-built questions for every family and kind, shared by the eval tests."""

from __future__ import annotations

from typing import Any

from umb.bench import Evidence, Question

ASKED_AT = "2021-06-01T12:00"


def question(
    family: str,
    gold: dict[str, Any],
    meta: dict[str, Any],
    *,
    query: str = "What happened?",
    components: tuple[str, ...] = (),
    qid: str = "",
) -> Question:
    return Question(
        id=qid or f"Q-D0001-{family}-01",
        dialogue_id="D0001",
        family=family,
        query=query,
        asked_at=ASKED_AT,
        gold=gold,
        answer_components=components,
        evidence=Evidence(),
        meta=meta,
    )


IE = question(
    "IE",
    {"answer": "Biscuit", "evidence_snippets": ["Maya adopted a beagle called Biscuit."]},
    {"kind": "slot", "slot": "pet_name", "aliases": ["Bisky"]},
    query="What is the name of the dog Maya adopted?",
    components=("Biscuit",),
)
IE_MONEY = question(
    "IE",
    {"answer": "$1,249", "evidence_snippets": ["The adoption fee was $1,249."]},
    {"kind": "slot", "slot": "adoption_fee", "aliases": []},
    query="How much was the adoption fee?",
    components=("$1,249",),
    qid="Q-D0001-IE-02",
)
TR_BETWEEN = question(
    "TR",
    {"final_answer": "2 days", "days": 2, "start_date": "2021-03-16", "end_date": "2021-03-18"},
    {"kind": "days_between"},
)
TR_SINCE = question(
    "TR",
    {"final_answer": "77 days", "days": 77, "start_date": "2021-03-16", "end_date": "2021-06-01"},
    {"kind": "days_since"},
    qid="Q-D0001-TR-02",
)
TR_ORDER = question(
    "TR",
    {"final_answer": "before", "days": 0, "start_date": "2021-04-02", "end_date": "2021-04-02"},
    {"kind": "same_day_order"},
    qid="Q-D0001-TR-03",
)
KU = question(
    "KU",
    {"latest_state": "Northwind Labs", "as_of_time": "2021-04-11", "deprecated_state": "Acme"},
    {"kind": "attribute", "attribute": "employer", "deprecated_values": ["Acme", "Globex"]},
    query="Which company does Maya work for now?",
)
MA_FALSE = question(
    "MA",
    {
        "premise_verdict": "incorrect",
        "premise_error": "The city was Lisbon, not Madrid.",
        "corrected_facts": ["The city was Lisbon."],
        "final_answer": "$1,100",
    },
    {"kind": "false_premise", "slot": "city", "wrong_value": "Madrid", "true_value": "Lisbon"},
)
MA_TRUE = question(
    "MA",
    {
        "premise_verdict": "correct",
        "premise_error": "",
        "corrected_facts": [],
        "final_answer": "$1,100",
    },
    {"kind": "true_premise", "slot": "city", "true_value": "Lisbon"},
    qid="Q-D0001-MA-02",
)
MSR = question(
    "MSR",
    {
        "event_chain": [
            "booked a trip to Hanoi",
            "travelled to Hanoi",
            "saw The Midnight Foxes live",
            "started a band",
        ],
        "final_outcome": "started a band",
    },
    {
        "kind": "causal_chain",
        "step_keys": [
            ["booked a trip to Hanoi", "Hanoi", "travel agency"],
            ["travelled to Hanoi", "Hanoi", "snorkelling"],
            ["The Midnight Foxes"],
            ["started a band", "Paper Boats"],
        ],
    },
)
ES = question(
    "ES",
    {
        "time_span": "2021-01-01 to 2021-12-31",
        "key_turning_points": ["adopted Biscuit", "moved to Lisbon", "joined Northwind Labs"],
        "summary": "In 2021 Maya adopted a dog, moved to Lisbon and changed jobs.",
    },
    {
        "kind": "period",
        "point_keys": [["Biscuit", "beagle"], ["Lisbon"], ["Northwind Labs"]],
    },
)
ABS = question(
    "ABS",
    {"answerable": False, "answer": "not mentioned"},
    {"kind": "never_happened"},
    query="What is the name of Maya's cat?",
)

ALL = (IE, IE_MONEY, TR_BETWEEN, TR_SINCE, TR_ORDER, KU, MA_FALSE, MA_TRUE, MSR, ES, ABS)


def with_answer(q: Question, **changes: Any) -> dict[str, Any]:
    """The gold answer of ``q`` with some fields changed."""
    return {**q.gold, **changes}
