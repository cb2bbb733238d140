"""Generic English rules behind the model-free extractor: what is worth remembering, whose words
they are, and which changeable part of a life ("key") a statement is about.

These are deliberately plain patterns over everyday English, not a parser: they let the
``mem0_style`` and ``summary`` systems run without a model, as a lower bound of what an LLM
extractor does.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from umb.memory._text import STOPWORDS, words

_FIRST_PERSON = re.compile(r"\b(i|i'm|i've|i'd|i'll|my|me|mine|myself|we|we're|we've|our|us)\b")
_FILLER_OPENER = re.compile(
    r"^(?:(?:honestly|oh|so|well|hmm+|anyway|actually|yeah|yes|wow|ah|um+|uh|okay|ok|guess what|"
    r"you know|i suppose|lol|haha|right|no joke|listen|look)[,!.:]?\s+)+",
    re.IGNORECASE,
)
_HYPOTHETICAL = re.compile(
    r"\b(might|maybe|would|could|should|want to|wanna|wish|thinking (?:about|of)|considering|"
    r"hope to|hoping to|plan to|planning to|if i|used to|back when|when i was|years ago|someday|"
    r"one day|dream of|don't|do not|didn't|never)\b"
)
# "no longer X" / "X anymore": the clause whose state ended.
_NO_LONGER_AFTER = re.compile(r"\bno longer\b([^,.;:!?]*)")
_NO_LONGER_BEFORE = re.compile(r"([^,.;:!?]*)\bany ?more\b")
_GENERIC_ENDING = re.compile(
    r"\b(gave up|given up|quit|stopped|sold|no longer|not anymore|got rid of|passed away|"
    r"broke up|split up|ended)\b"
)
#: Words that say when, not what (matched before stemming; plurals by the caller).
DATE_TERMS = frozenset(
    """january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday yesterday today tomorrow tonight
    ago day week month year weekend morning afternoon evening night am pm last next earlier
    later recently one two three four five six seven eight nine ten eleven twelve""".split()
)
_DATE_WORD = re.compile(
    r"\b(january|february|march|april|may|june|july|august|september|october|november|december|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|yesterday|tomorrow|tonight|"
    r"weekend|last (?:week|month|year|night)|next (?:week|month|year)|ago)\b"
)


@dataclass(frozen=True)
class StateKey:
    """A changeable part of a life, such as an employer or a car.

    A sentence ``starts`` a new value, or ``ends`` the current one when it also names the
    ``topic`` (``sold my car``); some endings are clear on their own (``I got laid off``).
    """

    name: str
    topic: re.Pattern[str]
    starts: re.Pattern[str]
    ends: re.Pattern[str] | None = None
    ending_wins: bool = False
    """Whether a sentence that both starts and ends (``broke up with my boyfriend``) ends."""
    ends_alone: bool = False


def _rx(alternatives: str) -> re.Pattern[str]:
    """A pattern matching any of the ``|``-separated alternatives as whole words."""
    return re.compile(rf"\b(?:{alternatives})\b")


_PET = r"(?:dog|puppy|cat|kitten|pet|parrot|hamster|rabbit|bunny|goldfish|tortoise|turtle)"
_VEHICLE = r"(?:car|truck|motorbike|motorcycle|scooter|suv|sedan|hatchback|van)"
_PARTNER = r"(?:partner|boyfriend|girlfriend|fianc[eé]e?|wife|husband)"
_HAVE = r"(?:bought|got|leased|new|picked up|drive|driving|have an?|own an?)"

# Order matters: the first key whose patterns match a sentence claims it. A mention alone ("my
# dog loves the park") starts nothing: a start needs a verb of acquiring, joining or changing.
STATE_KEYS: tuple[StateKey, ...] = (
    StateKey(
        "employer",
        _rx(r"job|work|company|employer|office|boss|position|role"),
        _rx(
            r"work(?:s|ing|ed)? (?:at|for)|new job|job (?:at|with)|hired|started (?:at|with)|"
            r"join(?:ed)?(?! (?:an?|the|my|our) [\w ]*?(?:club|class|group|team|gym|choir))|"
            r"position (?:at|with)|role at|"
            r"offer from|my (?:new )?employer is"
        ),
        _rx(
            r"quit (?:my|the|that) (?:job|position|role)|lost my job|laid off|got fired|"
            r"was fired|resigned|left my job|unemployed|between jobs"
        ),
        ends_alone=True,
    ),
    StateKey(
        "job_title",
        _rx(r"promoted|promotion|job title|title"),
        _rx(r"promoted|promotion|job title|my (?:new )?title|my job is|i work as"),
    ),
    StateKey(
        "partner",
        _rx(rf"{_PARTNER}|relationship|dating|together"),
        _rx(
            rf"dating|started seeing|seeing someone|in a relationship|going out with|engaged|"
            rf"(?:got|getting|just) married|married (?!life)|new {_PARTNER}|my {_PARTNER} is|"
            rf"(?:are|we're|got back) together"
        ),
        _rx(
            r"broke up|break up|breaking up|split up|divorced|separated|ended things|dumped|single"
        ),
        ending_wins=True,
        ends_alone=True,
    ),
    StateKey(
        "residence",
        _rx(r"live|lives|living|moved|apartment|flat|house"),
        _rx(
            r"(?:live|lives|living|lived|moved|moving|relocated|relocating|settled) "
            r"(?:in|to|from|into|out)|my (?:new )?(?:apartment|flat|house|place) in"
        ),
    ),
    StateKey(
        "pet",
        _rx(_PET),
        _rx(rf"adopt(?:ed|ing)?|rescued an?|my new {_PET}|my pet is|{_HAVE}\b[^.]*\b{_PET}"),
        _rx(r"passed away|died|put down|put to sleep|ran away|rehomed|gave away|lost|have none"),
        ending_wins=True,
    ),
    StateKey(
        "car",
        _rx(_VEHICLE),
        _rx(
            rf"{_HAVE}\b[^.]*\b{_VEHICLE}|{_VEHICLE}\b[^.]*\bi (?:have|own|drive|bought|got)|"
            rf"my (?:new )?{_VEHICLE} is"
        ),
        _rx(r"sold|totaled|totalled|wrecked|scrapped|got rid of|stolen|written off|have none"),
        ending_wins=True,
    ),
    StateKey(
        "hobby",
        _rx(r"hobby|hobbies|club|lessons|classes"),
        _rx(
            r"took up|taken up|taking up|take up|picked up|started learning|getting into|"
            r"got into|joined (?:an?|the|my|our) [\w ]*?(?:club|class|group|team|gym|choir)|"
            r"member of|(?:main |new )?hobby is|hobbies are"
        ),
        _rx(r"gave up|given up|quit|stopped|dropped"),
    ),
)

# Base-form verbs that take an -s after a third-person subject ("I work" -> "Maya works").
_PRESENT_VERBS = frozenset(
    """work live love like own drive play teach study run walk enjoy hate want need think feel
    know miss plan rent train volunteer cook write read paint practise practice attend visit take
    make keep spend prefer date go do have commute swim bake sing dance hike climb""".split()
)
_ADVERBS = frozenset("still also just really now finally usually often always actually".split())


def clean_sentence(sentence: str) -> str:
    """Drop conversational openers (``Honestly,``, ``Oh,``) from the front of a sentence."""
    stripped = _FILLER_OPENER.sub("", sentence.strip())
    return stripped[:1].upper() + stripped[1:] if stripped else stripped


def content_words(sentence: str) -> list[str]:
    """Words of three letters or more that are not stop words."""
    # Contractions ("i'll", "don't") are grammar, not content.
    return [w for w in words(sentence) if len(w) > 2 and w not in STOPWORDS and "'" not in w]


def names_in(sentence: str) -> set[str]:
    """Capitalised words after the first word, other than ``I``: likely names and places."""
    tokens = re.findall(r"[A-Za-z][\w'-]*", sentence)
    return {
        re.sub(r"'s$", "", t) for t in tokens[1:] if t[0].isupper() and t[:2] not in ("I", "I'")
    }


def ended_clause(lower: str) -> str:
    """The words a ``no longer``/``anymore`` applies to (``i no longer have a car`` -> the car)."""
    match = _NO_LONGER_AFTER.search(lower) or _NO_LONGER_BEFORE.search(lower)
    return match.group(1) if match else ""


@functools.lru_cache(maxsize=8192)  # dialogues repeat themselves; the rules are pure
def state_key(sentence: str) -> tuple[str | None, bool]:
    """The key a statement is about and whether it ends that state, e.g. ``("car", True)``.

    Hypothetical, negated or past-habit statements (``I might move``, ``I used to drive``) get
    no key: they do not change the current state. A ``no longer``/``anymore`` clause ends its
    key (``I no longer have a car``) unless it denies an ending (``not single anymore``).
    """
    lower = sentence.lower().replace("\u2019", "'")
    clause = ended_clause(lower)
    rest = lower.replace(clause, " ") if clause else lower
    if _HYPOTHETICAL.search(rest) and not clause:
        return None, False
    for key in STATE_KEYS:
        starts = bool(key.starts.search(rest))
        ends = bool(key.ends and key.ends.search(rest))
        if starts:
            return key.name, ends and key.ending_wins
        if ends and (key.ends_alone or key.topic.search(rest)):
            return key.name, True
        if clause and (key.topic.search(clause) or key.starts.search(clause)):
            return key.name, not (key.ends and key.ends.search(clause))
    return None, False


def ends_something(sentence: str) -> bool:
    """Whether a sentence says that something stopped, whatever it was (``I gave up chess``)."""
    return bool(_GENERIC_ENDING.search(sentence.lower().replace("\u2019", "'")))


@functools.lru_cache(maxsize=8192)
def is_informative(sentence: str) -> bool:
    """A first-person statement (not a question) with some substance: names, numbers, a key,
    or at least three content words."""
    if not sentence or sentence.rstrip().endswith("?"):
        return False
    lower = sentence.lower().replace("\u2019", "'")
    if not _FIRST_PERSON.search(lower):
        return False
    if re.search(r"\d", sentence) or names_in(sentence) or ends_something(sentence):
        return True
    if state_key(sentence)[0]:
        return True
    return len(content_words(sentence)) >= 3


def third_person(sentence: str, name: str) -> str:
    """Rewrite a first-person sentence about ``name`` in the third person, roughly.

    ``I'm moving to Lyon with my sister`` -> ``Maya is moving to Lyon with Maya's sister``.
    Plural ``we``/``our`` stay as they are; if the name does not appear afterwards the text is
    prefixed ``Maya: `` so a memory always says whose it is.
    """
    text = sentence.replace("\u2019", "'")
    for pattern, repl in (
        (r"\bI'm\b|\bI am\b", f"{name} is"),
        (r"\bI've\b|\bI have\b", f"{name} has"),
        (r"\bI'd\b", f"{name} would"),
        (r"\bI'll\b", f"{name} will"),
        (r"\b[Mm]y\b|\b[Mm]ine\b", f"{name}'s"),
        (r"\b[Mm]yself\b", name),
    ):
        text = re.sub(pattern, repl, text)
    text = re.sub(r"\bI\s+((?:\w+\s+)?)(\w+)", lambda m: _subject_verb(name, m), text)
    text = re.sub(r"\b[Mm]e\b", name, text)
    text = re.sub(r"\bI\b", name, text)
    return text if name in text else f"{name}: {text}"


def _subject_verb(name: str, match: re.Match[str]) -> str:
    adverb, verb = match.group(1), match.group(2)
    if adverb and adverb.strip().lower() not in _ADVERBS:
        # Not "I <adverb> <verb>": only conjugate the word right after "I".
        first = adverb.strip()
        return f"{name} {_third_singular(first)} {verb}"
    return f"{name} {adverb}{_third_singular(verb)}"


def _third_singular(verb: str) -> str:
    lower = verb.lower()
    if lower not in _PRESENT_VERBS:
        return verb
    if lower == "have":
        return "has"
    if lower.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if lower.endswith("y") and lower[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


@functools.lru_cache(maxsize=8192)
def salience(sentence: str, by_character: bool) -> int:
    """How much a sentence is worth keeping in an extractive summary (higher is better)."""
    lower = sentence.lower()
    score = 2 * bool(re.search(r"\d", sentence)) + 2 * bool(_DATE_WORD.search(lower))
    score += min(len(names_in(sentence)), 3) + int(by_character)
    score += int(state_key(sentence)[0] is not None)
    return score
