"""LoCoMo facts shared by the importer, the exporter and the scorers."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

#: sha256 of the unmodified ``locomo10.json`` release that every published number uses.
LOCOMO10_SHA256: Final = "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"


@dataclass(frozen=True)
class LoCoMoCategory:
    """One native LoCoMo category id and what it means in umb and in the Mem0 paper."""

    id: int
    name: str
    family: str
    mem0_paper_label: str
    """The label the Mem0 paper prints for this id (it swaps 1, 3 and 4)."""


CATEGORIES: Final[dict[int, LoCoMoCategory]] = {
    1: LoCoMoCategory(1, "multi-hop", "MSR", "single-hop"),
    2: LoCoMoCategory(2, "temporal", "TR", "temporal"),
    3: LoCoMoCategory(3, "open-domain", "IE", "multi-hop"),
    4: LoCoMoCategory(4, "single-hop", "IE", "open-domain"),
    5: LoCoMoCategory(5, "adversarial", "ABS", "adversarial"),
}

#: Category a umb family gets when a umb benchmark is exported to LoCoMo.
FAMILY_TO_CATEGORY: Final[dict[str, int]] = {
    "IE": 4,
    "KU": 4,
    "MA": 4,
    "MSR": 1,
    "ES": 1,
    "TR": 2,
    "ABS": 5,
}

#: How LoCoMo renders an image turn (speaker, quoted text, "and shared" + caption): umb keeps
#: the caption in the turn text with the same words so text-only systems see it.
CAPTION_SUFFIX: Final = " and shared {caption}."

_DIA_ID = re.compile(r"^D:?0*(\d+):0*(\d+)$")
_CANONICAL = re.compile(r"^D[1-9]\d*:[1-9]\d*$")
_SESSION_KEY = re.compile(r"^session_(\d+)$")
_DATE_KEY = re.compile(r"^session_(\d+)_date_time$")


def is_canonical_dia_id(text: str) -> bool:
    """True for ``D<session>:<turn>`` with no padding."""
    return bool(_CANONICAL.match(text))


def split_evidence_entry(raw: object) -> list[str]:
    """Every ``D<s>:<t>`` id an evidence entry names, repaired.

    Handles ``"D8:6; D9:17"``, ``"D9:1 D4:4"``, ``"D:11:26"``, zero padding and the parentheses
    the official stats code strips; anything else (``"D"``) yields nothing.
    """
    if not isinstance(raw, str):
        return []
    out = []
    for part in re.split(r"[;,\s]+", raw.replace("(", " ").replace(")", " ").strip()):
        m = _DIA_ID.match(part)
        if m:
            out.append(f"D{int(m.group(1))}:{int(m.group(2))}")
    return out


def session_number(key: str) -> int | None:
    """``session_12`` -> 12; None for any other key."""
    m = _SESSION_KEY.match(key)
    return int(m.group(1)) if m else None


def date_key_number(key: str) -> int | None:
    """``session_12_date_time`` -> 12; None for any other key."""
    m = _DATE_KEY.match(key)
    return int(m.group(1)) if m else None


def dia_session(dia_id: str) -> int | None:
    """The session number a canonical ``D<s>:<t>`` id carries."""
    m = _DIA_ID.match(dia_id)
    return int(m.group(1)) if m else None
