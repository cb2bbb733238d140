"""What the test server answers: settings, per-request rules, and the statistics it keeps.

Pure Python (no web framework), so the behaviour is easy to read and to test on its own.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
from collections import Counter, deque
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from umb._errors import ConfigError

Where = Literal["last_user", "any", "system"]
_WHERE: tuple[Where, ...] = ("last_user", "any", "system")
_RULE_KEYS = frozenset(
    {"match", "in", "times", "reply", "status", "retry_after", "error", "latency", "malformed"}
)
_SETTING_KEYS = frozenset(
    {"latency", "rules", "default_reply", "reject_response_format", "usage", "model"}
)


@dataclass
class Rule:
    """One scripted behaviour; the first live rule whose ``match`` fits a request decides it.

    JSON form (every key optional)::

        {"match": "Biscuit", "in": "last_user", "times": 2,
         "reply": "...", "status": 429, "retry_after": "1", "error": "slow down",
         "latency": 0.5, "malformed": false}
    """

    match: str | None = None
    """Substring the request must contain (case-sensitive); None matches every request."""
    where: Where = "last_user"
    """Where to look for ``match``: the last user message, the system messages, or any."""
    times: int | None = None
    """How many requests the rule answers before it is spent; None for no limit."""
    reply: str | None = None
    """Completion text to return (HTTP 200); None gives the server's default reply."""
    status: int | None = None
    """Answer with this HTTP error status instead of a completion."""
    retry_after: str | None = None
    """``Retry-After`` header sent with ``status`` (seconds or an HTTP date)."""
    error: str = "scripted failure"
    """Error message in the body sent with ``status``."""
    latency: float | None = None
    """Seconds to wait before answering; overrides the server's latency. Set it beyond the
    client's timeout to make a request hang."""
    malformed: bool = False
    """Answer HTTP 200 with a body that is not JSON at all."""

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Rule:
        """Parse one rule; raises ConfigError naming an unknown key or bad value."""
        unknown = set(raw) - _RULE_KEYS
        if unknown:
            raise ConfigError(f"unknown rule keys: {', '.join(sorted(unknown))}")
        where = raw.get("in", "last_user")
        if where not in _WHERE:
            raise ConfigError(f"rule 'in' must be one of {', '.join(_WHERE)}, not {where!r}")
        retry_after = raw.get("retry_after")
        rule = cls(
            match=raw.get("match"),
            where=where,
            times=raw.get("times"),
            reply=raw.get("reply"),
            status=raw.get("status"),
            retry_after=None if retry_after is None else str(retry_after),
            error=str(raw.get("error", "scripted failure")),
            latency=raw.get("latency"),
            malformed=bool(raw.get("malformed", False)),
        )
        if rule.times is not None and rule.times < 1:
            raise ConfigError(f"rule 'times' must be at least 1, not {rule.times}")
        if rule.status is not None and not 400 <= rule.status <= 599:
            raise ConfigError(f"rule 'status' must be an HTTP error (400-599), not {rule.status}")
        return rule

    def fits(self, messages: list[dict[str, Any]]) -> bool:
        """True when this rule is live and ``match`` occurs where it should."""
        if self.times is not None and self.times <= 0:
            return False
        if self.match is None:
            return True
        return any(self.match in text for text in _texts(messages, self.where))


def _texts(messages: list[dict[str, Any]], where: Where) -> list[str]:
    contents = [(m.get("role"), _content(m)) for m in messages]
    if where == "any":
        return [text for _, text in contents]
    if where == "system":
        return [text for role, text in contents if role == "system"]
    users = [text for role, text in contents if role == "user"]
    return users[-1:]


def _content(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts: keep the text ones
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


#: Length of the vectors ``POST /v1/embeddings`` returns when the request names no ``dimensions``.
DEFAULT_EMBEDDING_DIMS = 256
_WORD = re.compile(r"\w+")


def hash_embedding(text: str, dims: int = DEFAULT_EMBEDDING_DIMS) -> list[float]:
    """The test server's embedding of ``text``: a unit vector, the same on every run.

    Each lower-cased word adds +1 or -1 to one coordinate, both picked by a hash of the word, so
    texts sharing words get a positive cosine similarity, as with a real embedding model. A
    text without words maps to a coordinate picked by a hash of the whole text.
    """
    if dims < 1:
        raise ConfigError(f"dimensions must be at least 1, not {dims}")
    vector = [0.0] * dims
    for word in _WORD.findall(text.lower()) or [text]:
        digest = hashlib.sha256(word.encode("utf-8")).digest()
        vector[int.from_bytes(digest[:4], "little") % dims] += 1.0 if digest[4] & 1 else -1.0
    norm = math.sqrt(sum(x * x for x in vector))
    if norm == 0:  # the words cancelled out: fall back to the whole text's coordinate
        digest = hashlib.sha256(text.encode("utf-8")).digest()
        vector[int.from_bytes(digest[:4], "little") % dims] = norm = 1.0
    return [x / norm for x in vector]


def last_user_text(messages: list[dict[str, Any]]) -> str:
    """Text of the last user message ("" if none)."""
    found = _texts(messages, "last_user")
    return found[0] if found else ""


@dataclass
class Settings:
    """Server-wide behaviour; every field can be changed at run time through ``POST /_control``."""

    latency: float = 0.0
    """Seconds every completion waits before answering (unless a rule says otherwise)."""
    rules: list[Rule] = field(default_factory=list)
    """Scripted behaviours, tried in order."""
    default_reply: str | None = None
    """Reply when no rule gives one; None echoes ``{"echo": <last user message, cut>}``."""
    reject_response_format: bool = False
    """Answer 400 to any request carrying ``response_format`` (like servers without JSON mode)."""
    usage: bool = True
    """Report token usage in responses (off: clients must estimate)."""
    model: str = "umb-test"
    """Model name listed by ``GET /v1/models``."""

    def updated(self, raw: dict[str, Any]) -> Settings:
        """A copy with the JSON fields in ``raw`` applied; raises ConfigError on unknown keys."""
        unknown = set(raw) - _SETTING_KEYS
        if unknown:
            raise ConfigError(f"unknown setting keys: {', '.join(sorted(unknown))}")
        changes = dict(raw)
        if "rules" in changes:
            changes["rules"] = [Rule.from_json(r) for r in changes["rules"]]
        if "latency" in changes:
            changes["latency"] = float(changes["latency"])
        return replace(self, **changes)


def load_settings(path: Path) -> Settings:
    """Read a responder file: a JSON list of rules, or an object of settings with ``rules``."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise ConfigError(f"cannot read responder file {path}: {e}") from e
    if isinstance(raw, list):
        raw = {"rules": raw}
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: expected a list of rules or an object of settings")
    return Settings().updated(raw)


@dataclass
class Stats:
    """What the server has seen since the last reset (``GET /_stats``)."""

    requests: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    authorization: set[str] = field(default_factory=set)
    models: set[str] = field(default_factory=set)
    response_format_requests: int = 0
    embedding_requests: int = 0
    """``POST /v1/embeddings`` calls (also counted in ``requests`` and ``statuses``)."""
    embedding_inputs: int = 0
    """Texts embedded by those calls."""
    recent: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=200))
    first_request_at: float | None = None
    """Wall clock (``time.time()``) when the first request arrived: a client's start-up ends."""
    last_response_at: float | None = None
    """Wall clock when the last request finished."""
    epoch: int = 0
    """Bumped by each reset, so a request that began before it is not counted after it."""
    _epoch_in_flight: int = 0

    def begin(self) -> int:
        """Count a request arriving; returns the epoch to hand to :meth:`end`."""
        self.requests += 1
        if self.first_request_at is None:
            self.first_request_at = time.time()
        self.in_flight += 1
        self._epoch_in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self._epoch_in_flight)
        return self.epoch

    def end(self, status: int, epoch: int) -> None:
        """Count a request finishing with ``status``."""
        self.in_flight -= 1
        if epoch == self.epoch:
            self._epoch_in_flight -= 1
            self.statuses[status] += 1
            self.last_response_at = time.time()

    def to_json(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "in_flight": self.in_flight,
            "max_in_flight": self.max_in_flight,
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "authorization": sorted(self.authorization),
            "models": sorted(self.models),
            "response_format_requests": self.response_format_requests,
            "embedding_requests": self.embedding_requests,
            "embedding_inputs": self.embedding_inputs,
            "first_request_at": self.first_request_at,
            "last_response_at": self.last_response_at,
        }

    def reset(self) -> None:
        """Zero the counters. Requests still running stay in ``in_flight`` but count towards
        nothing else."""
        self.epoch += 1
        self._epoch_in_flight = 0
        self.requests = 0
        self.max_in_flight = 0
        self.statuses.clear()
        self.authorization.clear()
        self.models.clear()
        self.response_format_requests = 0
        self.embedding_requests = 0
        self.embedding_inputs = 0
        self.first_request_at = self.last_response_at = None
        self.recent.clear()


class Script:
    """Settings plus rule bookkeeping: picks the rule for each request and spends its uses."""

    def __init__(self, settings: Settings) -> None:
        self.initial = settings
        self.settings = _copy(settings)
        self.stats = Stats()

    def pick(self, messages: list[dict[str, Any]]) -> Rule | None:
        """The first live rule fitting ``messages``, with one use spent; None if none fits."""
        for rule in self.settings.rules:
            if rule.fits(messages):
                if rule.times is not None:
                    rule.times -= 1
                return rule
        return None

    def control(self, raw: dict[str, Any]) -> None:
        """Apply ``POST /_control``: settings keys, plus ``reset_stats: true``."""
        raw = dict(raw)
        reset = bool(raw.pop("reset_stats", False))
        self.settings = self.settings.updated(raw)
        if reset:
            self.stats.reset()

    def reset(self) -> None:
        """Back to the start-up settings, counters zeroed."""
        self.settings = _copy(self.initial)
        self.stats.reset()

    def rules_left(self) -> list[int | None]:
        """Remaining uses of each rule (None: unlimited)."""
        return [r.times for r in self.settings.rules]


def _copy(settings: Settings) -> Settings:
    # Rules are mutated as their uses are spent, so each copy gets its own.
    return replace(settings, rules=[replace(r) for r in settings.rules])
