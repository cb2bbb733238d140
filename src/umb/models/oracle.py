"""The ``oracle`` model: replies with the gold answer, to check scorers and plumbing end to end."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from umb._errors import ConfigError
from umb._tokens import estimate_tokens
from umb.models._api import GenerateRequest, GenerateResult


class OracleModel:
    """Answers every request with ``json.dumps(request.task["gold"])``.

    The runner puts the gold into ``task`` only for this model (``build_request(...,
    include_gold=True)``). A run that scores below 1.0 with it has a broken scorer or pipeline.
    """

    spec = "oracle"

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        """Return the gold answer of each request as JSON text.

        Raises:
            ConfigError: A request carries no ``task["gold"]``; that is a wiring mistake, not a
                model failure, so it is raised rather than recorded.
        """
        results = []
        for request in requests:
            start = time.perf_counter()
            gold = request.task.get("gold")
            if not isinstance(gold, dict):
                raise ConfigError(
                    "the oracle model needs the gold answer in request.task['gold'] "
                    "(build the request with include_gold=True)"
                )
            text = json.dumps(gold, ensure_ascii=False)
            results.append(
                GenerateResult(
                    text=text,
                    input_tokens=sum(estimate_tokens(m.content) for m in request.messages),
                    output_tokens=estimate_tokens(text),
                    latency_s=time.perf_counter() - start,
                )
            )
        return results
