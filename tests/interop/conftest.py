"""Fixtures for the interop tests: the real LoCoMo file (read in place) and small synthetic
benchmarks and peer files written to follow the peers' schemas exactly."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from umb.bench import Dialogue, Evidence, Interlocutor, Question, Session, Turn, write_benchmark
from umb.models import GenerateRequest, GenerateResult

LOCOMO = Path(__file__).resolve().parents[2] / ".." / "shared" / "external" / "locomo10.json"
LOCOMO_SHA256 = "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"


@pytest.fixture(scope="session")
def locomo_path() -> Path:
    """The unmodified locomo10.json beside the repository, or a clean skip."""
    if not LOCOMO.is_file():
        pytest.skip("../shared/external/locomo10.json is not present")
    if hashlib.sha256(LOCOMO.read_bytes()).hexdigest() != LOCOMO_SHA256:
        pytest.skip("../shared/external/locomo10.json is not the unmodified release")
    return LOCOMO


@pytest.fixture(scope="session")
def locomo_bench(locomo_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """locomo10.json imported once for the whole session."""
    from umb.interop import import_locomo

    out = tmp_path_factory.mktemp("locomo") / "bench"
    import_locomo(locomo_path, out)
    return out


def _turns(sid: str, lines: list[tuple[str, str]], facts: dict[int, str]) -> tuple[Turn, ...]:
    speakers = {"user": "Alex", "assistant": "Maya"}
    return tuple(
        Turn(f"{sid}:T{k:04d}", role, speakers[role], text, (facts[k],) if k in facts else ())
        for k, (role, text) in enumerate(lines, start=1)
    )


def make_umb_benchmark(root: Path) -> Path:
    """A two-dialogue umb benchmark with one question per family it can express."""
    s1 = Session(
        "D0001:S001",
        "2021-03-20T18:30",
        _turns(
            "D0001:S001",
            [
                ("user", "How was your week?"),
                ("assistant", "I finally adopted a dog, a beagle called Biscuit."),
                ("user", "Oh nice!"),
            ],
            {2: "C0001-E001/C0001/F1"},
        ),
    )
    s2 = Session(
        "D0001:S002",
        "2021-05-02T10:00",
        _turns(
            "D0001:S002",
            [
                ("user", "Any news?"),
                ("assistant", "I left Acme and joined Globex last month."),
            ],
            {2: "C0001-E002/C0001/F1"},
        ),
    )
    d1 = Dialogue("D0001", "C0001", Interlocutor("Alex", "friend", "a cafe"), (s1, s2))
    s3 = Session(
        "D0002:S001",
        "2022-01-10T09:15",
        _turns(
            "D0002:S001",
            [
                ("user", "Hi!"),
                ("assistant", "We moved to Lisbon in January."),
            ],
            {},
        ),
    )
    d2 = Dialogue("D0002", "C0002", Interlocutor("Alex", "neighbour", "the stairs"), (s3,))
    q = [
        Question(
            "Q-D0001-IE-01",
            "D0001",
            "IE",
            "What is the name of Maya's dog?",
            "2021-06-01T12:00",
            {"answer": "Biscuit", "evidence_snippets": ["a beagle"]},
            ("Biscuit",),
            Evidence(
                ("C0001-E001",), ("C0001-E001/C0001/F1",), ("D0001:S001",), ("D0001:S001:T0002",)
            ),
            {"kind": "slot", "slot": "pet_name", "aliases": []},
        ),
        Question(
            "Q-D0001-TR-01",
            "D0001",
            "TR",
            "How many days passed between the two?",
            "2021-06-01T12:00",
            {
                "final_answer": "43 days",
                "days": 43,
                "start_date": "2021-03-20",
                "end_date": "2021-05-02",
            },
            ("43 days",),
            Evidence(
                session_ids=("D0001:S001", "D0001:S002"),
                turn_ids=("D0001:S001:T0002", "D0001:S002:T0002"),
            ),
            {"kind": "days_between"},
        ),
        Question(
            "Q-D0001-KU-01",
            "D0001",
            "KU",
            "Where does Maya work now?",
            "2021-06-01T12:00",
            {"latest_state": "Globex", "as_of_time": "2021-05-02", "deprecated_state": "Acme"},
            ("Globex",),
            Evidence(session_ids=("D0001:S002",), turn_ids=("D0001:S002:T0002",)),
            {
                "kind": "attribute",
                "attribute": "employer",
                "deprecated_values": ["Acme"],
                "old_state_event_id": "C0001-E000",
            },
        ),
        Question(
            "Q-D0001-ABS-01",
            "D0001",
            "ABS",
            "What is the name of Maya's cat?",
            "2021-06-01T12:00",
            {"answerable": False, "answer": "not mentioned"},
            (),
            Evidence(),
            {"kind": "never_happened"},
        ),
        Question(
            "Q-D0002-MSR-01",
            "D0002",
            "MSR",
            "Why did they end up in Lisbon?",
            "2022-02-01T08:00",
            {"event_chain": ["job offer", "move"], "final_outcome": "They moved to Lisbon."},
            ("job offer", "move"),
            Evidence(session_ids=("D0002:S001",), turn_ids=("D0002:S001:T0002",)),
            {"kind": "causal_chain", "step_keys": [["offer"], ["Lisbon"]]},
        ),
    ]
    write_benchmark(
        root,
        world=None,
        dialogues=[d1, d2],
        questions=q,
        facts=(),
        generator="test",
        config={"seed": 1},
    )
    return root


@pytest.fixture
def umb_bench(tmp_path: Path) -> Path:
    return make_umb_benchmark(tmp_path / "umb")


def lme_instance(qid: str, qtype: str, answer: Any, **over: Any) -> dict[str, Any]:
    """One LongMemEval instance with the release's fields, a filler and an evidence session."""
    inst: dict[str, Any] = {
        "question_id": qid,
        "question_type": qtype,
        "question": "What is the name of my dog?",
        "answer": answer,
        "question_date": "2023/05/30 (Tue) 23:40",
        "haystack_session_ids": ["sharegpt_yywfgrD_0", f"answer_{qid}_1", "ultrachat_42"],
        "haystack_dates": [
            "2023/05/20 (Sat) 10:00",
            "2023/05/21 (Sun) 11:30",
            "2023/05/22 (Mon) 09:05",
        ],
        "haystack_sessions": [
            [
                {"role": "user", "content": "Write a haiku about rain."},
                {"role": "assistant", "content": "Rain on the window..."},
            ],
            [
                {
                    "role": "user",
                    "content": "I just adopted a beagle named Biscuit!",
                    "has_answer": True,
                },
                {
                    "role": "assistant",
                    "content": "Congratulations on Biscuit!",
                    "has_answer": False,
                },
                {"role": "user", "content": "Any tips for walks?", "has_answer": False},
                {"role": "assistant", "content": "Keep them short at first.", "has_answer": False},
            ],
            [
                {"role": "user", "content": "Explain photosynthesis."},
                {"role": "assistant", "content": "Plants turn light into sugar."},
            ],
        ],
        "answer_session_ids": [f"answer_{qid}_1"],
    }
    inst.update(over)
    return inst


class ScriptedJudge:
    """A ModelAPI stand-in: answers each prompt with ``reply(prompt)`` and keeps the requests."""

    def __init__(self, reply: Any, spec: str = "scripted/judge") -> None:
        self.reply = reply
        self.spec = spec
        self.requests: list[GenerateRequest] = []

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        self.requests.extend(requests)
        out = []
        for r in requests:
            text = self.reply(r.messages[0].content)
            out.append(
                GenerateResult("", error=text[6:])
                if text.startswith("ERROR:")
                else GenerateResult(text)
            )
        return out
