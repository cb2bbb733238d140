"""A character's voice: openers, fillers, hedges, exclamations, emoji and spelling, by profile.

Only the wrapping of a line changes; the values a line states are never touched (spelling
variants apply to lines that state no fact).
"""

from __future__ import annotations

import random
import re

from umb.render._narrate import lower_start
from umb.world import SpeechProfile

FILLERS = ("like,", "I mean,", "you know,", "basically,", "okay so")
HEDGES = ("I think", "I guess", "I reckon", "I suppose", "I believe")
EMOJI = (" 😅", " 🙂", " 😂", " 🙌", " 🤷")
_AMERICAN = {
    "neighbour": "neighbor",
    "colour": "color",
    "favourite": "favorite",
    "flat": "apartment",
    "centre": "center",
    "theatre": "theater",
    "organise": "organize",
}
_AMERICAN_RE = re.compile(r"\b(" + "|".join(_AMERICAN) + r")")


class Voice:
    """How one character wraps what they say (``spelling`` is ``uk`` or ``us``)."""

    def __init__(self, speech: SpeechProfile, spelling: str) -> None:
        self.sp = speech
        self.spelling = spelling
        chatty, casual = speech.verbosity == "chatty", speech.formality == "casual"
        self.opener_rate = 0.3 if chatty else 0.15
        self.filler_rate = 0.15 if casual else 0.0
        self.hedge_rate = 0.05 if casual else 0.15
        self.emoji_rate = 0.15 if casual and speech.exclaims else 0.0
        self.tail_rate = 0.012 if chatty else 0.004

    def say(self, rng: random.Random, text: str, states_facts: bool) -> str:
        """``text`` as this character would put it."""
        roll = rng.random()
        if text.split(" ", 1)[0].endswith((",", ":")) or text.startswith(("Oh, and", "And ")):
            roll = 1.0  # the line already opens with a discourse marker
        if roll < self.opener_rate:
            text = f"{rng.choice(self.sp.openers)} {lower_start(text)}"
        elif roll < self.opener_rate + self.filler_rate:
            text = f"{rng.choice(FILLERS).capitalize()} {lower_start(text)}"
        elif roll < self.opener_rate + self.filler_rate + self.hedge_rate and not states_facts:
            text = f"{rng.choice(HEDGES).capitalize()} {lower_start(text)}"
        if self.sp.exclaims and text.endswith(".") and rng.random() < 0.3:
            text = text[:-1] + "!"
        if rng.random() < self.tail_rate:
            text = f"{text} {self.sp.catchphrase.capitalize()}"
        if rng.random() < self.emoji_rate:
            text += rng.choice(EMOJI)
        if self.spelling == "us" and not states_facts:
            text = _AMERICAN_RE.sub(lambda m: _AMERICAN[m.group(1)], text)
        return text
