"""LoCoMo's QA prompting: short phrases; adversarial questions as a two-option choice."""

from __future__ import annotations

import zlib
from typing import Any, Final

from umb.bench import Question
from umb.interop._common import native_answer_text
from umb.interop._profile import JSON_ONLY, REPLY_SHAPE, AnswerProfile, answer_text

#: The option LoCoMo offers beside the trap answer of an adversarial question.
NOT_MENTIONED_OPTION: Final = "Not mentioned in the conversation"



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
        return cat5_answer(text, options)


LOCOMO: Final = LoCoMoProfile(
    "locomo",
    "You answer questions about a conversation between two people that took place over "
    "several sessions, each headed by its date. Use only what the conversation says. " + JSON_ONLY,
    "Conversation",
    False,
)
