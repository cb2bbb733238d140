"""A small English morphology layer: articles, plurals, verb forms, possessives, gerunds.

The generator writes sentences from parts (a summary, a slot value, a name); these functions
make the parts agree instead of pasting strings together.
"""

from __future__ import annotations

_IRREGULAR_PAST = {
    "was": "be",
    "were": "be",
    "met": "meet",
    "went": "go",
    "got": "get",
    "broke": "break",
    "saw": "see",
    "ran": "run",
    "read": "read",
    "took": "take",
    "had": "have",
    "drove": "drive",
    "test-drove": "test-drive",
    "bought": "buy",
    "spent": "spend",
    "made": "make",
    "left": "leave",
    "found": "find",
    "told": "tell",
    "came": "come",
    "gave": "give",
    "wrote": "write",
    "flew": "fly",
    "sold": "sell",
    "began": "begin",
    "paid": "pay",
}
# Past forms whose base keeps a doubled or an e-final letter that a rule cannot guess.
_REGULAR_EXCEPTIONS = {
    "enrolled": "enrol",
    "travelled": "travel",
    "married": "marry",
    "moved": "move",
    "filed": "file",
    "renewed": "renew",
    "adopted": "adopt",
    "volunteered": "volunteer",
    "finished": "finish",
    "switched": "switch",
    "started": "start",
    "attended": "attend",
    "earned": "earn",
    "opened": "open",
    "booked": "book",
    "hiked": "hike",
    "arrived": "arrive",
    "tried": "try",
    "changed": "change",
}
_VOWELS = "aeiou"


def article(phrase: str) -> str:
    """``a`` or ``an`` before ``phrase`` (by its first letter; ``an hour``, ``a user`` aside)."""
    word = phrase.split(" ", 1)[0]
    first = word.lower()
    if word.isdigit():  # "an 8 percent raise", "an 18-hole course", "a 10 km race"
        vowel = word.startswith("8") or (len(word) in (2, 5) and word[:2] in ("11", "18"))
    elif len(word) > 1 and word.isupper():  # an acronym is read letter by letter: "a UX course"
        vowel = word[0] in "AEFHILMNORSX"
    else:
        vowel = first[:1] in _VOWELS and not first.startswith(("uni", "use", "one", "eu"))
        vowel = vowel or first in ("hour", "honest", "heir")
    return ("an " if vowel else "a ") + phrase


def definite(phrase: str) -> str:
    """``a red Ford Focus`` -> ``the red Ford Focus``; other phrases unchanged."""
    for art in ("a ", "an "):
        if phrase.startswith(art):
            return "the " + phrase[len(art) :]
    return phrase


def bare(phrase: str) -> str:
    """The phrase without a leading article."""
    for art in ("a ", "an ", "the "):
        if phrase.lower().startswith(art):
            return phrase[len(art) :]
    return phrase


def plural(noun: str) -> str:
    """``friend`` -> ``friends``, ``box`` -> ``boxes``, ``party`` -> ``parties``."""
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in _VOWELS:
        return noun[:-1] + "ies"
    return noun + "s"


def base_verb(past: str) -> str:
    """The base form of a past-tense verb (``bought`` -> ``buy``, ``hiked`` -> ``hike``)."""
    if past in _IRREGULAR_PAST:
        return _IRREGULAR_PAST[past]
    if past in _REGULAR_EXCEPTIONS:
        return _REGULAR_EXCEPTIONS[past]
    if past.endswith("ied"):
        return past[:-3] + "y"
    if past.endswith("ed"):
        stem = past[:-2]
        if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "ls":
            return stem[:-1]
        return stem
    return past


def base_phrase(past_phrase: str) -> str:
    """A past-tense verb phrase in its base form: ``was promoted to X`` -> ``get promoted to X``."""
    head, _, rest = past_phrase.partition(" ")
    if head in ("was", "were") and rest.split(" ", 1)[0].endswith("ed"):
        return f"get {rest}"
    verb = base_verb(head)
    return f"{verb} {rest}".strip()


def second_person(past_phrase: str) -> str:
    """A first-person past phrase said to ``you``: ``was promoted`` -> ``were promoted``."""
    return "were " + past_phrase[4:] if past_phrase.startswith("was ") else past_phrase


def possessive(name: str) -> str:
    """``Maya`` -> ``Maya's``, ``Silas`` -> ``Silas's``."""
    return f"{name}'s"


def gerund(activity: str) -> str:
    """What one is doing during an activity: ``chess`` -> ``playing chess``."""
    words = activity.split(" ")
    if any(w.endswith("ing") for w in words) or words[0] in ("a", "an", "the"):
        return activity
    if activity in ("chess", "board games", "tennis", "football"):
        return f"playing {activity}"
    return f"doing {activity}"


def capitalise(text: str) -> str:
    """The first letter upper-cased, the rest untouched."""
    return text[:1].upper() + text[1:]
