"""Answer profiles: how a question is asked when a peer scorer grades the reply.

Peer scorers grade free text (LoCoMo's F1 a short phrase, LongMemEval's judge a response), not
umb's per-family answer objects. A profile asks the question the way its benchmark's own
harness does, for a reply of the one shape ``{"answer": "..."}`` that the strict parser accepts;
the text of ``answer`` is what the peer scorer sees. The profile is chosen from
``question.meta["source"]``: ``locomo``, ``longmemeval``, and ``short`` for everything else.

The wording is ours; the decisions follow each benchmark's harness (specs/peer-benchmarks.md
§1.6 for LoCoMo: a short phrase in the conversation's own words, temporal questions told to use
the session dates, adversarial questions as a two-option choice with "Not mentioned in the
conversation"). A change to any text here changes what is measured: bump
:data:`PROFILE_VERSION` with it.

Non-LLM answerers read ``request.task``: the offline reader gets the family whose recipe gives
the reply it needs (``IE`` for a short span, ``ABS`` where abstaining is right), and the oracle
gets :meth:`AnswerProfile.oracle_gold`.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any, Final

from umb.bench import Question
from umb.interop._common import native_answer_text
from umb.models._api import GenerateRequest, Message
from umb.run._prompts import SYSTEM_POLICY, _current_date_line

PROFILE_VERSION: Final = "2"
"""2: two-option replies are mapped exactly as LoCoMo's ``get_cat_5_answer`` (1: by a pattern)."""

#: The option LoCoMo offers beside the trap answer of an adversarial question.
NOT_MENTIONED_OPTION: Final = "Not mentioned in the conversation"

_JSON_ONLY: Final = (
    "Reply with exactly one JSON object and nothing else: no prose before or after it and no "
    "code fences."
)
_REPLY_SHAPE: Final = 'Reply with one JSON object: {"answer": "..."}.'


def cat5_answer(reply: str, options: dict[str, str]) -> str:
    """The reply to a two-option question as LoCoMo's ``get_cat_5_answer`` reads it.

    Stripped and lower-cased, a reply of one character is option a if it is ``a`` and option b
    otherwise (``"x"`` is b); one of three characters is option a if it is ``(a)`` and option b
    otherwise (``"a.)"`` is b); any other reply, ``"a."`` and ``"(a) Not mentioned"`` included,
    is kept, stripped and lower-cased.
    """
    text = reply.strip().lower()
    if len(text) == 1:
        return options["a" if "a" in text else "b"]
    if len(text) == 3:
        return options["a" if "(a)" in text else "b"]
    return text


def _text(value: Any) -> str:
    """A parsed ``answer`` value as the text a peer scorer reads."""
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


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
            "history does not contain it, answer 'not mentioned'.\n" + _REPLY_SHAPE
        )

    def messages(self, question: Question, context_text: str) -> tuple[Message, ...]:
        """The system and user messages for ``question`` with the retrieved history."""
        history = context_text.strip() or "(no history is available)"
        lines = [f"{self.history_label}:", "<<<", history, ">>>", ""]
        if self.show_current_date:
            lines.append(_current_date_line(question.asked_at))
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
        return _text(answer.get("answer"))


class LoCoMoProfile(AnswerProfile):
    """LoCoMo's QA prompting: short phrases; adversarial questions as a two-option choice."""

    def options(self, question: Question) -> dict[str, str] | None:
        """``{"a": …, "b": …}`` for an adversarial question with a trap answer, else None.

        LoCoMo shuffles the two options at random; here the order follows the question id, so
        a prompt (and a cached reply) is the same on every run.
        """
        if question.meta.get("native_category") != 5:
            return None
        trap = question.meta.get("adversarial_answer")
        if trap is None:
            trap = question.meta.get("native_answer")
        if trap is None or not str(trap).strip():
            return None
        pair = [NOT_MENTIONED_OPTION, str(trap).strip()]
        if zlib.crc32(question.id.encode()) & 1:
            pair.reverse()
        return {"a": pair[0], "b": pair[1]}

    def instruction(self, question: Question) -> str:
        options = self.options(question)
        if options is not None:
            return (
                f"Choose one option: (a) {options['a']} (b) {options['b']}.\n"
                'Reply with one JSON object whose answer is the letter you chose: {"answer": "a"} '
                'or {"answer": "b"}.'
            )
        text = "Answer with a short phrase, using the words of the conversation where you can."
        if question.meta.get("native_category") == 2:
            text += (
                " Use the dates of the sessions to work out the date; an approximate date is fine."
            )
        return text + "\n" + _REPLY_SHAPE

    def oracle_gold(self, question: Question) -> dict[str, Any]:
        if question.meta.get("native_category") == 5 or question.family == "ABS":
            return {"answer": NOT_MENTIONED_OPTION}
        return {"answer": native_answer_text(question)}

    def prediction(self, question: Question, answer: dict[str, Any]) -> str:
        text = _text(answer.get("answer"))
        options = self.options(question)
        if options is None:
            return text
        return cat5_answer(text, options)


class LongMemEvalProfile(AnswerProfile):
    """LongMemEval's reading prompt: chat history, current date, question, a direct answer."""

    def instruction(self, question: Question) -> str:
        if question.meta.get("answer_is_rubric"):
            return (
                "Give the response the user would find most helpful, making use of what the "
                "history tells you about them.\n" + _REPLY_SHAPE
            )
        return (
            "Answer directly and concisely. If the history does not contain the information, "
            "say that it was not mentioned.\n" + _REPLY_SHAPE
        )


SHORT: Final = AnswerProfile("short", SYSTEM_POLICY, "Conversation history", True)
LOCOMO: Final = LoCoMoProfile(
    "locomo",
    "You answer questions about a conversation between two people that took place over "
    "several sessions, each headed by its date. Use only what the conversation says. " + _JSON_ONLY,
    "Conversation",
    False,
)
LONGMEMEVAL: Final = LongMemEvalProfile(
    "longmemeval",
    "You are a chat assistant. You get several earlier chats between you and the user, each "
    "with its date, and answer the user's question from them. " + _JSON_ONLY,
    "History chats",
    True,
)

PROFILES: Final[dict[str, AnswerProfile]] = {p.name: p for p in (SHORT, LOCOMO, LONGMEMEVAL)}
"""Profile name -> profile."""


def profile_for(question: Question) -> AnswerProfile:
    """The profile of ``question``'s benchmark (``meta["source"]``), else ``short``."""
    return PROFILES.get(str(question.meta.get("source")), SHORT)


def build_profile_request(
    question: Question,
    context_text: str,
    *,
    include_gold: bool,
    max_tokens: int = 1024,
    temperature: float = 0.0,
) -> GenerateRequest:
    """The answerer's request under ``question``'s profile (see :func:`profile_for`).

    ``task`` holds what the offline reader may see, with the profile's reader family in place
    of the question's; the oracle also gets the profile's gold reply.
    """
    profile = profile_for(question)
    task: dict[str, Any] = {
        "family": profile.reader_family(question),
        "query": question.query,
        "asked_at": question.asked_at,
        "context": context_text,
        "profile": profile.name,
    }
    if include_gold:
        task["gold"] = profile.oracle_gold(question)
    return GenerateRequest(
        messages=profile.messages(question, context_text),
        max_tokens=max_tokens,
        temperature=temperature,
        json_mode=True,
        task=task,
    )
