"""LoCoMo's QA prompting: short phrases; adversarial questions as a two-option choice."""

from __future__ import annotations

import re
import zlib
from typing import Any, Final

from umb.bench import Question
from umb.interop._common import native_answer_text
from umb.interop._profile import JSON_ONLY, REPLY_SHAPE, AnswerProfile, answer_text

#: The option LoCoMo offers beside the trap answer of an adversarial question.
NOT_MENTIONED_OPTION: Final = "Not mentioned in the conversation"

_LETTER: Final = re.compile(r"^\(([ab])\)|^([ab])[.):]?$")


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
        return text + "\n" + REPLY_SHAPE

    def oracle_gold(self, question: Question) -> dict[str, Any]:
        if question.meta.get("native_category") == 5 or question.family == "ABS":
            return {"answer": NOT_MENTIONED_OPTION}
        return {"answer": native_answer_text(question)}

    def prediction(self, question: Question, answer: dict[str, Any]) -> str:
        text = answer_text(answer.get("answer"))
        options = self.options(question)
        if options is None:
            return text
        # As LoCoMo does: a bare letter (or "(a) …") is mapped back to the option's text.
        m = _LETTER.match(text.strip().lower())
        return options[m.group(1) or m.group(2)] if m else text


LOCOMO: Final = LoCoMoProfile(
    "locomo",
    "You answer questions about a conversation between two people that took place over "
    "several sessions, each headed by its date. Use only what the conversation says. " + JSON_ONLY,
    "Conversation",
    False,
)
