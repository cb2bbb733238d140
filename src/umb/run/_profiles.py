"""Choosing a question's answer profile (``umb.interop._profile``) and building its request.

A question imported from a peer is asked with that peer's profile (``PEER.answer_profile``);
everything else with :data:`SHORT`, a short phrase under umb's own system policy.
"""

from __future__ import annotations

from typing import Any, Final

from umb._peer import PEERS
from umb._registry import load_target
from umb.bench import Question
from umb.interop import PROFILE_VERSION, AnswerProfile
from umb.models import GenerateRequest
from umb.run._prompts import SYSTEM_POLICY

__all__ = ["PROFILE_VERSION", "SHORT", "build_profile_request", "profile_for"]

SHORT: Final = AnswerProfile("short", SYSTEM_POLICY, "Conversation history", True)


def profile_for(question: Question) -> AnswerProfile:
    """The profile of ``question``'s benchmark (``meta["source"]``), else :data:`SHORT`."""
    source = str(question.meta.get("source"))
    peer = PEERS.get(source)
    if peer is None or peer.answer_profile is None:
        return SHORT
    profile = load_target(peer.answer_profile)
    assert isinstance(profile, AnswerProfile)
    return profile


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
