"""The population: profiles, speech styles and the relation graph."""

from __future__ import annotations

from umb.world import _vocab as V
from umb.world._morph import article
from umb.world._records import Character, Relation, SpeechProfile
from umb.world._rng import rng_for

RELATION_KINDS = ("friend", "sibling", "colleague", "neighbour")


def character_id(index: int) -> str:
    """The id of the ``index``-th character (0-based): ``C0001``, ``C0002``, …"""
    return f"C{index + 1:04d}"


def speech_profile(mbti: str, seed: int, cid: str) -> SpeechProfile:
    """Derive a speech style from the personality: E talks more, T is more formal, and so on."""
    rng = rng_for(seed, "speech", cid)
    extravert, thinking = mbti[0] == "E", mbti[2] == "T"
    openers = (
        ("Honestly,", "Oh,", "So,", "Guess what,") if extravert else ("Well,", "Hmm,", "I suppose")
    )
    phrases_casual = ("you know?", "no joke.", "long story.", "typical me.", "which was wild.")
    phrases_formal = ("all things considered.", "to be fair.", "as it turned out.", "in any case.")
    formal = thinking and rng.random() < 0.7
    return SpeechProfile(
        formality="formal" if formal else "casual",
        verbosity="chatty" if extravert else "terse",
        openers=tuple(rng.sample(openers, 2)),
        catchphrase=rng.choice(phrases_formal if formal else phrases_casual),
        exclaims=extravert and not formal,
    )


def _unique_names(seed: int, n: int) -> list[tuple[str, str, str]]:
    """(first name, last name, gender) for ``n`` characters, all full names distinct."""
    rng = rng_for(seed, "names", n)
    seen: set[str] = set()
    out: list[tuple[str, str, str]] = []
    while len(out) < n:
        gender = rng.choice(("female", "male"))
        first, last = rng.choice(V.FIRST_NAMES[gender]), rng.choice(V.LAST_NAMES)
        if len(seen) >= len(V.LAST_NAMES) * 60:  # very large worlds: add a middle initial
            last = f"{rng.choice('ABCDEFGHJKLMNPRSTW')}. {last}"
        if f"{first} {last}" in seen:
            continue
        seen.add(f"{first} {last}")
        out.append((first, last, gender))
    return out


def relation_graph(seed: int, n: int) -> dict[str, list[Relation]]:
    """Ties between characters: each character links to 1–2 others (symmetric)."""
    ids = [character_id(i) for i in range(n)]
    graph: dict[str, list[Relation]] = {cid: [] for cid in ids}
    if n < 2:
        return graph
    rng = rng_for(seed, "relations", n)
    order = ids[:]
    rng.shuffle(order)
    for i, a in enumerate(order):
        partners = [order[(i + 1) % n]] if i % 2 == 0 else []
        if rng.random() < 0.35:
            partners.append(order[(i + 3) % n])
        for b in partners:
            if a == b or any(r.character_id == b for r in graph[a]):
                continue
            kind = rng.choice(RELATION_KINDS)
            graph[a].append(Relation(b, kind))
            graph[b].append(Relation(a, kind))
    for rels in graph.values():
        rels.sort(key=lambda r: r.character_id)
    return graph


def build_population(seed: int, n: int) -> list[Character]:
    """All ``n`` characters. Cheap, so shards rebuild the whole population."""
    names = _unique_names(seed, n)
    graph = relation_graph(seed, n)
    people = []
    for i, (first, last, gender) in enumerate(names):
        cid = character_id(i)
        rng = rng_for(seed, "profile", cid)
        mbti = rng.choice(V.MBTI)
        occupation = rng.choice(V.OCCUPATIONS)
        city = rng.choice(V.CITIES)
        brand = rng.choice(sorted(V.CAR_BRANDS))
        car = article(f"{rng.choice(V.COLOURS)} {brand} {rng.choice(V.CAR_BRANDS[brand])}")
        initial = {
            "employer": rng.choice(V.EMPLOYERS),
            "job_title": occupation,
            "city": city,
            "relationship_status": "single",
            "partner": "none",
            "pet": "none",
            "car": car if rng.random() < 0.6 else "none",
            "hobby": rng.choice(V.HOBBIES),
        }
        people.append(
            Character(
                id=cid,
                name=f"{first} {last}",
                first_name=first,
                age=rng.randint(22, 45),
                gender=gender,
                home_city=city,
                occupation=occupation,
                mbti=mbti,
                speech=speech_profile(mbti, seed, cid),
                relations=tuple(graph[cid]),
                initial_state=initial,
            )
        )
    return people
