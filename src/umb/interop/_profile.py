"""Answer profiles: how a question is asked when a peer scorer grades the reply.

Peer scorers grade free text (LoCoMo's F1 a short phrase, LongMemEval's judge a response), not
umb's per-family answer objects. A profile asks the question the way its benchmark's own
harness does, for a reply of the one shape ``{"answer": "..."}`` that the strict parser accepts;
the text of ``answer`` is what the peer scorer sees. Each peer declares its profile in its
``PEER.answer_profile``; other questions get the run's ``short`` profile.

The wording is ours; the decisions follow each benchmark's harness (specs/peer-benchmarks.md
§1.6 for LoCoMo: a short phrase in the conversation's own words, temporal questions told to use
the session dates, adversarial questions as a two-option choice with "Not mentioned in the
conversation"). A change to any profile's text changes what is measured: bump
:data:`PROFILE_VERSION` with it.

Non-LLM answerers read ``request.task``: the offline reader gets the family whose recipe gives
the reply it needs (``IE`` for a short span, ``ABS`` where abstaining is right), and the oracle
gets :meth:`AnswerProfile.oracle_gold`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Final

from umb._dates import ISO_MINUTE
from umb._errors import ConfigError
from umb.bench import Question
from umb.interop._common import native_answer_text
from umb.models import Message

PROFILE_VERSION: Final = "2"
"""2: two-option replies are mapped exactly as LoCoMo's ``get_cat_5_answer`` (1: by a pattern)."""

JSON_ONLY: Final = (
    "Reply with exactly one JSON object and nothing else: no prose before or after it and no "
    "code fences."
)
REPLY_SHAPE: Final = 'Reply with one JSON object: {"answer": "..."}.'


def answer_text(value: Any) -> str:
    """A parsed ``answer`` value as the text a peer scorer reads."""
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(answer_text(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def current_date_line(asked_at: str) -> str:
    """``Current date: 2024-03-01 10:00 (Friday)`` for a question asked at ``asked_at``."""
    try:
        when = dt.datetime.strptime(asked_at, ISO_MINUTE)
    except ValueError:
        raise ConfigError(f"asked_at {asked_at!r} is not YYYY-MM-DDTHH:MM") from None
    return f"Current date: {when:%Y-%m-%d %H:%M} ({when:%A})"


@dataclass(frozen=True)
class AnswerProfile:
    """One way of asking for a short free-text answer (see the module docstring)."""

    name: str
    system: str
    history_label: str
    show_current_date: bool

    def instruction(self, question: Question) -> str:
        """The lines after the question: what kind of answer, and its JSON shape."""
        return (
            "Answer with a short phrase: the detail itself, not a sentence around it. If the "
            "history does not contain it, answer 'not mentioned'.\n" + REPLY_SHAPE
        )

    def messages(self, question: Question, context_text: str) -> tuple[Message, ...]:
        """The system and user messages for ``question`` with the retrieved history."""
        history = context_text.strip() or "(no history is available)"
        lines = [f"{self.history_label}:", "<<<", history, ">>>", ""]
        if self.show_current_date:
            lines.append(current_date_line(question.asked_at))
        lines += [f"Question: {question.query}", "", self.instruction(question)]
        return (Message("system", self.system), Message("user", "\n".join(lines)))

    def reader_family(self, question: Question) -> str:
        """The family whose offline-reader recipe answers this profile (a span, or abstain)."""
        return "ABS" if question.family == "ABS" else "IE"

    def oracle_gold(self, question: Question) -> dict[str, Any]:
        """The reply a perfect answerer gives: the gold answer text."""
        if question.family == "ABS":
            return {"answer": "not mentioned"}
        return {"answer": native_answer_text(question)}

    def prediction(self, question: Question, answer: dict[str, Any]) -> str:
        """The text the peer scorer grades, from a parsed reply."""
        return answer_text(answer.get("answer"))
