"""A model backend in 40 lines: ``abstain`` says "not mentioned" to every question, in the shape
its family asks for. It is the floor a memory system must clear: it scores only where abstaining
is right (ABS). Registering it is one decorator, which also says what it is: no language model,
no endpoint, no gold.

    umb eval --bench bench --system no_context --model abstain ...   (after importing this module)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from umb.families import FAMILY_REGISTRY
from umb.models import GenerateRequest, GenerateResult, ModelAPI, ModelOptions, provider

_EMPTY: dict[str, Any] = {"string": "not mentioned", "array": [], "integer": 0, "boolean": False}


def abstention(family: str) -> dict[str, Any]:
    """Every field of ``family``'s answer, empty or "not mentioned" (MA's verdict: its first)."""
    answer = {}
    for field in FAMILY_REGISTRY[family].fields:
        choices = field.schema.get("enum")
        answer[field.name] = choices[0] if choices else _EMPTY[field.schema["type"]]
    return answer


class AbstainModel:
    spec = "abstain"

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        # The runner tells a non-LLM backend each request's family in ``task``.
        return [GenerateResult(json.dumps(abstention(r.task["family"]))) for r in requests]


@provider("abstain", takes_name=False, llm=False, description="Abstains on every question.")
def abstain(name: str, options: ModelOptions) -> tuple[ModelAPI, tuple[str, str, str]]:
    """Build the backend; ("", "", "") keeps its instant replies out of the response cache."""
    return AbstainModel(), ("", "", "")
