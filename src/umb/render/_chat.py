"""Small talk composed clause by clause: anecdotes, the interlocutor's news, echoes, follow-ups.

Each clause joins parts drawn from the word banks in ``_chatwords`` (who, a verb, a thing, a
place, a comment), with few fixed words between them, so a long dialogue rarely repeats itself.
Small talk states no facts of the world.
"""

from __future__ import annotations

import random

from umb.render import _chatwords as W
from umb.render import _phrases as P
from umb.render._vary import pick
from umb.world import _vocab as V
from umb.world import article, capitalise

Line = tuple[str, str, tuple[str, ...]]


class _Clause:
    """One composed sentence and the noun and name it mentions (for echoes)."""

    def __init__(self, text: str, noun: str, name: str) -> None:
        self.text, self.noun, self.name = text, noun, name


def _gendered_name(rng: random.Random, avoid: tuple[str, ...] = ()) -> tuple[str, str]:
    """A first name and its gender, never one of ``avoid`` (the two speakers': "my teammate
    Otto" said by Otto). A name to avoid gives way to the next of the list, not to a new draw,
    so the small talk around it stays the same."""
    gender = rng.choice(("female", "male"))
    names = V.FIRST_NAMES[gender]
    name = rng.choice(names)
    if name in avoid:
        start = names.index(name)
        name = next(n for k in range(1, len(names)) if (n := names[(start + k) % len(names)])
                    not in avoid)  # fmt: skip
    return name, gender


def first_name(rng: random.Random, avoid: tuple[str, ...] = ()) -> str:
    """A first name of either gender, never one of ``avoid`` (see :func:`_gendered_name`)."""
    return _gendered_name(rng, avoid)[0]


def _kin(rng: random.Random, gender: str) -> str:
    """A relation for a person of ``gender``: one draw from :data:`W.KIN` whatever the gender,
    so the small talk around it stays the same, then the word of that gender."""
    kin = rng.choice(W.KIN)
    kin_gender, other = W.GENDERED_KIN.get(kin, (gender, kin))
    return kin if kin_gender == gender else other


def _place(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.4:
        return article(f"{rng.choice(W.ALL_ADJ)} {rng.choice(W.ALL_SPOT)}")
    if roll < 0.75:
        street = f"{rng.choice(V.LAST_NAMES)} {rng.choice(W.STREETS)}"
        return f"the {rng.choice(W.ALL_SPOT)} on {street}"
    spot = rng.choice(W.ALL_SPOT)
    return f"{rng.choice(V.LAST_NAMES)}'s {spot} {rng.choice(W.PREPS)} {rng.choice(W.LANDMARK)}"


def _adverb(rng: random.Random) -> str:
    return f"{rng.choice(W.ALL_ADVERBS)} " if rng.random() < 0.45 else ""


def _subject(rng: random.Random, name: str, gender: str) -> str:
    roll = rng.random()
    if roll < 0.35:
        return "I"
    if roll < 0.6:
        return f"my {_kin(rng, gender)} {name}"
    if roll < 0.75:
        return f"{name} from {rng.choice(W.GROUPS)}"
    if roll < 0.85:
        return f"{name} {rng.choice(V.LAST_NAMES)}"
    return f"{name} and I"


def _thing(rng: random.Random) -> tuple[str, str]:
    noun = rng.choice(W.ALL_THING)
    adjectives = rng.sample(W.ALL_ADJ, 2 if rng.random() < 0.3 else 1)
    return article(f"{', '.join(adjectives)} {noun}"), noun


def clause(rng: random.Random, avoid: tuple[str, ...] = ()) -> _Clause:
    """A small-talk sentence: someone did something to a thing, a show, a meal or the weather;
    the people it names are none of ``avoid`` (the speakers' first names)."""
    name, gender = _gendered_name(rng, avoid)
    who = _subject(rng, name, gender)
    opener = f"{rng.choice(W.WHEN_VAGUE)} " if rng.random() < 0.15 else ""
    adv = _adverb(rng)
    kind = rng.random()
    if kind < 0.42:
        obj, noun = _thing(rng)
        verb = pick(rng, W.ALL_THING_VERBS)
        body = f"{who} {adv}{verb} {obj} {rng.choice(W.PREPS)} {_place(rng)}"
    elif kind < 0.52:
        noun = rng.choice(W.FORMAT)
        show = f"{rng.choice(W.GENRE)} {noun} about {rng.choice(W.ALL_SUBJECT)}"
        body = f"{who} {adv}{pick(rng, W.SHOW_VERBS)} {article(show)}"
    elif kind < 0.62:
        food = rng.choice(W.ALL_FOOD)
        noun = food.split()[-1]
        body = f"{who} {adv}{pick(rng, W.FOOD_VERBS)} {food} for {first_name(rng, avoid)}"
    elif kind < 0.72:
        noun = rng.choice(W.ALL_SPOT)
        verb = rng.choice(W.GATHER_VERBS)
        body = f"{who} {adv}{verb} to {article(noun)} with {rng.choice(W.COMPANY)}"
    elif kind < 0.8:
        noun = "afternoon"
        doing = rng.choice(W.ALL_PASTIMES)
        body = f"{who} spent {rng.choice(W.STRETCHES)} {doing} with {first_name(rng, avoid)}"
    elif kind < 0.95:
        noun = "argument"
        verb = rng.choice(("argued", "bickered", "debated"))
        topic = rng.choice(W.ALL_TOPICS)
        body = f"{who} {adv}{verb} with {first_name(rng, avoid)} about {topic}"
    else:
        noun = "weather"
        obj, _ = _thing(rng)
        weather = f"{rng.choice(W.WEATHER_WHAT)} {rng.choice(W.WEATHER_DID)}"
        body = f"{weather}, and {who} {adv}{pick(rng, W.THING_VERBS)} {obj}"
    tail = f", {pick(rng, W.COMMENT)}" if rng.random() < 0.06 else ""
    text = capitalise(f"{opener}{body}{tail}.")
    return _Clause(text, noun, name)


def small_talk(rng: random.Random, first: str, other_first: str) -> list[Line]:
    """One small-talk exchange of four turns, started by the interlocutor's own news; the
    people it names are neither of the two speakers (``first``, ``other_first``)."""
    avoid = (first, other_first)
    news = clause(rng, avoid)
    opening = f"{news.text} {pick(rng, W.ASK_BACK)}" if rng.random() < 0.3 else news.text
    story = clause(rng, avoid)
    more = f" {clause(rng, avoid).text}" if rng.random() < 0.5 else ""
    reply = f"{story.text}{more}"
    if rng.random() < 0.5:
        noun = story.noun
        follow = pick(rng, W.ASK_ABOUT).format(name=story.name, noun=noun, noun_a=article(noun))
    else:
        follow = clause(rng, avoid).text
    react = f"{verdict(rng, rng.choice(tuple(W.VERDICTS)))} {follow}"  # light news: any mood
    answer = pick(rng, W.SHORT_ANSWER).format(name=story.name)
    coda = f"{answer}. {clause(rng, avoid).text}"
    return [("user", opening, ()), ("assistant", reply, ()), ("user", react, ()),
            ("assistant", coda, ())]  # fmt: skip


def verdict(rng: random.Random, mood: str) -> str:
    """``Ooh, perfect!``: an interjection and a verdict that fit news of ``mood`` (or any news)."""
    fit = rng.choice(("neutral", mood))
    return f"{rng.choice(W.INTERJS[fit])}, {rng.choice(W.VERDICTS[fit])}!"


def transition(rng: random.Random, mood: str = "neutral", avoid: tuple[str, ...] = ()) -> str:
    """What the interlocutor says between two pieces of the character's news; a verdict on the
    news before fits its ``mood``, and the people it names are none of ``avoid``."""
    if rng.random() < 0.5:
        return f"{verdict(rng, mood)} {pick(rng, P.NEXT)}"
    return f"{clause(rng, avoid).text} {pick(rng, P.NEXT)}"
