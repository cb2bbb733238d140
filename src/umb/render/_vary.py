"""Word-level variation of template text: each fixed word may come out as one of its synonyms.

Only a template's own words are varied, never the ``{slot}`` values filled in afterwards, so a
value is always stated exactly. The table holds drop-in replacements only (same part of speech
and form), and none of the words the readers key on (``not``, ``no longer``, ``instead of``,
``no pets``, time expressions) are in it.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache

SYNONYMS: dict[str, tuple[str, ...]] = {
    "finally": ("finally", "at last", "eventually"),
    "really": ("really", "truly", "genuinely"),
    "big": ("big", "huge", "major"),
    "started": ("started", "began"),
    "bought": ("bought", "picked up", "got"),
    "brilliant": ("brilliant", "fantastic", "superb", "amazing"),
    "amazing": ("amazing", "incredible", "wonderful", "unreal"),
    "great": ("great", "lovely", "fantastic", "terrific"),
    "expensive": ("expensive", "pricey", "costly"),
    "wow": ("wow", "whoa", "gosh", "blimey"),
    "honestly": ("honestly", "frankly", "truthfully", "seriously"),
    "maybe": ("maybe", "perhaps"),
    "ages": ("ages", "forever", "an eternity"),
    "hard": ("hard", "tough", "difficult", "rough"),
    "happy": ("happy", "glad", "pleased", "delighted"),
    "exciting": ("exciting", "thrilling", "a big deal"),
    "lovely": ("lovely", "sweet", "charming", "delightful"),
    "funny": ("funny", "odd", "curious", "strange"),
    "wonderful": ("wonderful", "marvellous", "terrific", "splendid"),
    "definitely": ("definitely", "certainly", "absolutely"),
    "came round": ("came round", "came over", "stopped by", "popped over"),
    "fix": ("fix", "repair", "sort out"),
    "the whole": ("the whole", "the entire"),
    "everyone": ("everyone", "everybody"),
    "someone": ("someone", "somebody"),
    "anyway": ("anyway", "anyhow", "in any case"),
    "okay": ("okay", "OK", "alright", "right"),
    "pretty": ("pretty", "fairly", "rather", "quite"),
    "weird": ("weird", "strange", "odd", "bizarre"),
    "tell me more": ("tell me more", "go on", "I want details", "spill"),
    "i need the full story": ("I need the full story", "I want every detail", "start from the top"),
    "a lot": ("a lot", "loads", "heaps"),
    "interesting": ("interesting", "fascinating", "intriguing"),
    "nice": ("nice", "lovely", "cool", "sweet"),
    "huge": ("huge", "massive", "enormous"),
    "good news": ("good news", "great news", "welcome news"),
    "relief": ("relief", "weight off your shoulders"),
    "brave": ("brave", "bold", "gutsy"),
    "ended up": ("ended up", "wound up"),
    "chatting": ("chatting", "talking", "nattering"),
    "quickly": ("quickly", "fast", "in no time"),
    "picked it up": ("picked it up", "collected it", "fetched it"),
    "it just happened": ("it just happened", "it sort of happened", "it happened naturally"),
    "for a while": ("for a while", "for some time", "for months"),
    "told me": ("told me", "let me know", "informed me"),
    "signed me off": ("signed me off", "discharged me", "gave me the all-clear"),
    "proud": ("proud", "chuffed", "thrilled"),
    "stuff": ("stuff", "things"),
    "hilarious": ("hilarious", "priceless", "too funny"),
    "strangest": ("strangest", "oddest", "weirdest"),
    "lucky": ("lucky", "fortunate"),
    "jealous": ("jealous", "envious"),
    "surprised": ("surprised", "amazed", "shocked"),
    "worth it": ("worth it", "worth the money", "worth the effort"),
    "trouble": ("trouble", "hassle", "effort"),
    "thinking about": ("thinking about", "pondering", "mulling over"),
    "remembering": ("remembering", "recalling", "thinking of"),
    "random thought": ("random thought", "totally unrelated", "out of nowhere"),
    "good times": ("good times", "fun times", "happy days"),
    "mostly": ("mostly", "largely", "on the whole"),
    "feels like": ("feels like", "seems like"),
    "tiny": ("tiny", "little", "small"),
    "packed": ("packed", "crammed", "stuffed"),
    "dragged": ("dragged", "hauled", "pulled"),
    "talked me into": ("talked me into", "persuaded me into", "convinced me into"),
    "enormous": ("enormous", "gigantic", "huge"),
    "tidied": ("tidied", "cleaned", "sorted out"),
    "argued": ("argued", "bickered", "debated"),
}
_KEYS = sorted(SYNONYMS, key=len, reverse=True)
_PATTERN = re.compile(r"\{[^}]*\}|\b(" + "|".join(re.escape(k) for k in _KEYS) + r")\b", re.I)


@lru_cache(maxsize=4096)
def _segments(template: str) -> tuple[tuple[str, str | None], ...]:
    """``template`` cut into (text, synonym key or None) pieces, once per template."""
    out: list[tuple[str, str | None]] = []
    last = 0
    for m in _PATTERN.finditer(template):
        if m.group(1) is None:
            continue
        out.append((template[last : m.start()], None))
        out.append((m.group(1), m.group(1).lower()))
        last = m.end()
    out.append((template[last:], None))
    return tuple(out)


def vary(rng: random.Random, template: str, rate: float = 0.6) -> str:
    """``template`` with some of its own words swapped for synonyms (placeholders untouched)."""
    parts = _segments(template)
    if len(parts) == 1:
        return template
    out: list[str] = []
    for text, key in parts:
        if key is None or rng.random() >= rate:
            out.append(text)
            continue
        choice = rng.choice(SYNONYMS[key])
        out.append(choice[:1].upper() + choice[1:] if text[:1].isupper() else choice)
    return "".join(out)


def pick(rng: random.Random, options: tuple[str, ...] | list[str]) -> str:
    """One of ``options``, varied."""
    return vary(rng, rng.choice(options))
