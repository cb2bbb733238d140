"""LongMemEval's reading prompt: chat history, current date, question, a direct answer."""

from __future__ import annotations

from typing import Final

from umb.bench import Question
from umb.interop._profile import JSON_ONLY, REPLY_SHAPE, AnswerProfile


class LongMemEvalProfile(AnswerProfile):
    """LongMemEval's reading prompt: chat history, current date, question, a direct answer."""

    def instruction(self, question: Question) -> str:
        if question.meta.get("answer_is_rubric"):
            return (
                "Give the response the user would find most helpful, making use of what the "
                "history tells you about them.\n" + REPLY_SHAPE
            )
        return (
            "Answer directly and concisely. If the history does not contain the information, "
            "say that it was not mentioned.\n" + REPLY_SHAPE
        )


LONGMEMEVAL: Final = LongMemEvalProfile(
    "longmemeval",
    "You are a chat assistant. You get several earlier chats between you and the user, each "
    "with its date, and answer the user's question from them. " + JSON_ONLY,
    "History chats",
    True,
)
