"""Variable identities and content-addressed value encoding.

An identity is ``role:key``: the role says what the variable is (a dialogue turn, a memory unit,
a question's context or answer), the key says which one. Identities are stable across runs, so a
resumed run and a re-run of the same benchmark name the same variables the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from hashlib import sha256
from typing import Any

import orjson

from umb.trace._context import current_attrs

HASH_CHARS = 16
"""Hex digits of sha256 kept as a value's key (64 bits: no collision at any realistic size)."""

_JSON_OPTS = orjson.OPT_SORT_KEYS | orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_NON_STR_KEYS


def var(role: str, key: str) -> str:
    """Build the identity ``role:key``.

    Args:
        role: What the variable is, e.g. ``turn``, ``memory``, ``prompt``.
        key: Which one, e.g. a turn id or a memory-unit id.

    Returns:
        The identity string.
    """
    return f"{role}:{key}"


def role_of(identity: str) -> str:
    """Return the role part of an identity (``""`` when it has none)."""
    role, sep, _ = identity.partition(":")
    return role if sep else ""


def key_of(identity: str) -> str:
    """Return the key part of an identity (the whole string when it has no role)."""
    role, sep, key = identity.partition(":")
    return key if sep else role


def turn_var(turn_id: str) -> str:
    """Identity of a dialogue turn, e.g. ``turn:D0001:S003:T0004``."""
    return f"turn:{turn_id}"


def session_var(session_id: str) -> str:
    """Identity of a whole dialogue session, e.g. ``session:D0001:S003``."""
    return f"session:{session_id}"


def memory_var(unit_id: str, dialogue_id: str | None = None) -> str:
    """Identity of a memory unit.

    Memory-unit ids are only unique within one memory system instance, which serves one dialogue,
    so the identity carries the dialogue: ``memory:D0001:m17``. When ``dialogue_id`` is not given
    it is taken from the current scope (a dialogue or question scope sets it); outside any such
    scope the identity is ``memory:m17``.
    """
    return _memory_prefix(dialogue_id) + unit_id


def memory_vars(unit_ids: Iterable[str]) -> list[str]:
    """:func:`memory_var` of several units of the current scope's dialogue (one scope lookup)."""
    prefix = _memory_prefix(None)
    return [prefix + unit_id for unit_id in unit_ids]


def _memory_prefix(dialogue_id: str | None) -> str:
    did = dialogue_id if dialogue_id is not None else current_attrs().get("dialogue_id")
    return f"memory:{did}:" if did else "memory:"


def query_var(question_id: str) -> str:
    """Identity of a question's query text, e.g. ``query:Q-D0001-IE-01``."""
    return f"query:{question_id}"


def context_var(question_id: str) -> str:
    """Identity of the context retrieved for a question, e.g. ``context:Q-D0001-IE-01``."""
    return f"context:{question_id}"


def answer_var(question_id: str) -> str:
    """Identity of the answer given to a question, e.g. ``answer:Q-D0001-IE-01``."""
    return f"answer:{question_id}"


def judgement_var(question_id: str) -> str:
    """Identity of the judge's verdict on a question's answer."""
    return f"judgement:{question_id}"


@dataclass(frozen=True, slots=True)
class EncodedValue:
    """A value reduced to what a trace stores about it."""

    hash: str
    """First :data:`HASH_CHARS` hex digits of the sha256 of the canonical bytes."""
    size: int
    """Length of the canonical bytes (UTF-8 text, or sorted-key JSON)."""
    preview: str
    """A short one-line excerpt for listings and pictures."""
    payload: Any
    """What goes into the file: the string itself, or an ``orjson.Fragment`` of the JSON."""


def digest(value: Any) -> tuple[str, int, Any]:
    """Return ``(hash, size, payload)``: the content key of a value and what a trace stores.

    Strings are stored as they are; anything orjson can serialise is stored as sorted-key JSON;
    anything else as its ``repr``. The hash is the sha256 of those bytes (UTF-8 for text).
    """
    if isinstance(value, str):
        raw = utf8(value)
        return sha256(raw).hexdigest()[:HASH_CHARS], len(raw), value
    try:
        raw = orjson.dumps(value, option=_JSON_OPTS)
    except TypeError:
        text = repr(value)
        raw = utf8(text)
        return sha256(raw).hexdigest()[:HASH_CHARS], len(raw), text
    # A Fragment freezes the bytes now, so a later mutation of the object changes nothing recorded.
    return sha256(raw).hexdigest()[:HASH_CHARS], len(raw), orjson.Fragment(raw)


def encode_value(value: Any, preview_chars: int = 80) -> EncodedValue:
    """Reduce ``value`` to its content hash, size, preview and payload (see :func:`digest`)."""
    h, size, payload = digest(value)
    return EncodedValue(h, size, preview_of(value, preview_chars), payload)


def preview_of(value: Any, limit: int = 80) -> str:
    """A one-line excerpt of any value: text as is, anything else as JSON (or its repr)."""
    if isinstance(value, str):
        return make_preview(value, limit)
    try:
        text = orjson.dumps(value, option=_JSON_OPTS)[: limit * 8].decode("utf-8", "ignore")
    except TypeError:
        text = repr(value)
    return make_preview(text, limit)


def utf8(text: str) -> bytes:
    """UTF-8 bytes of ``text``; lone surrogates (not valid UTF-8) are kept as their code units."""
    try:
        return text.encode()
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def make_preview(text: str, limit: int = 80) -> str:
    """Collapse whitespace in the head of ``text`` and cut it to ``limit`` characters."""
    head = " ".join(text[: limit * 2].split())
    return head if len(head) <= limit else head[: limit - 1] + "…"
