"""The optional LLM check: does this text state this fact? (Off by default.)

Value matching cannot see a paraphrase ("the Subaru broke down" for "had the car break down (a
teal Subaru Forester)"). Given a judge model, attribution asks it — only where matching said no
and the text was derived from the fact's evidence (so a handful of calls per failed question),
and each (text, fact) once.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Final, TypeVar

import orjson

from umb.attribute._facts import Need
from umb.models import GenerateRequest, Message

if TYPE_CHECKING:
    from umb.models import GenerateRequest, ModelAPI

T = TypeVar("T")

CHECK_PROMPT_VERSION: Final = "1"
_SYSTEM: Final = (
    "You check whether a piece of text states a given fact. Paraphrases count; a text that only "
    "mentions related things, or states a different value, does not. Reply with a JSON object "
    '{"states": true} or {"states": false} and nothing else.'
)


def check_request(text: str, need: Need) -> GenerateRequest:
    """The request asking whether ``text`` states ``need``."""

    values = " / ".join(repr(v) for v in need.values) or "(see the label)"
    user = f"Fact ({need.label}): {values}\n\nText:\n{text[:4000]}\n\nDoes the text state the fact?"
    return GenerateRequest(
        messages=(Message("system", _SYSTEM), Message("user", user)),
        max_tokens=16,
        temperature=0.0,
        json_mode=True,
        task={"kind": "fact_check", "values": list(need.values)},
    )


def parse_verdict(reply: str) -> bool | None:
    """``True``/``False`` from a reply, ``None`` when it says neither."""
    try:
        data = orjson.loads(reply)
    except orjson.JSONDecodeError:
        low = reply.strip().lower()
        return True if low.startswith("yes") or low == "true" else (
            False if low.startswith("no") or low == "false" else None
        )  # fmt: skip
    value = data.get("states") if isinstance(data, dict) else data
    return value if isinstance(value, bool) else None


class LLMFactChecker:
    """A :class:`~umb.trace.FactChecker` backed by a judge model.

    Attribution is synchronous; the model's calls run on a private event loop in a thread.

    Args:
        model: The judge model (``load_model(spec, role="judge")``).

    Example:
        >>> with LLMFactChecker(load_model("openai/gpt-4o-mini", role="judge")) as checker:
        ...     attribute_run(run_dir, checker=checker)  # doctest: +SKIP
    """

    def __init__(self, model: ModelAPI) -> None:
        self.model = model
        self.calls = 0
        self.failures = 0
        self._memo: dict[tuple[str, tuple[str, ...]], bool] = {}
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    def states(self, text: str, need: Need) -> bool:
        """Whether ``text`` states ``need``, per the model (a failed call says no)."""
        key = (text, need.values)
        if key in self._memo:
            return self._memo[key]
        self.calls += 1
        (result,) = self._run(self.model.generate([check_request(text, need)]))
        verdict = None if result.error is not None else parse_verdict(result.text)
        if verdict is None:
            self.failures += 1
        self._memo[key] = bool(verdict)
        return bool(verdict)

    def close(self) -> None:
        """Close the model (when it can be) and stop the loop."""
        if self._loop.is_closed():
            return
        closer = getattr(self.model, "aclose", None)
        if closer is not None:
            self._run(closer())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def __enter__(self) -> LLMFactChecker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
