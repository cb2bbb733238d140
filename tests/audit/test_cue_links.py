"""The cue-matching baseline reads every link the template renderer writes."""

from __future__ import annotations

import pytest

from umb.audit._cues import links
from umb.audit._view import DialogueLines, Line
from umb.render import _kindtalk as K
from umb.world import capitalise

OPENER = "On March 3rd I bought a black Fujifilm X-T30 camera."
# A kind reference, a bare one, a gerund, a name with an apostrophe, one with a month and year.
CAUSES = (
    "that holiday in March",
    "my accident",
    "trying cars out at the dealer's",
    "the booking for Cape Town",
    "buying the car back in April 2020",
)
STATEMENTS = sorted({t for ts in K.LINKS.values() for t in ts})


def _dialogue(*texts: tuple[str, str]) -> DialogueLines:
    lines = [Line(speaker, text, (), "2024-03-20T10:00") for speaker, text in texts]
    return DialogueLines("D1", "C1", lines, frozenset(("Ana Lee", "Bo Kim")))


@pytest.mark.parametrize("template", STATEMENTS)
@pytest.mark.parametrize("cause", CAUSES)
@pytest.mark.parametrize("ending", ("", "!", " 🙂"))
def test_every_link_sentence_is_a_cue(template: str, cause: str, ending: str) -> None:
    said = template.format(cause=cause, Cause=capitalise(cause))
    if ending == "!":
        said = said[:-1] + "!"  # the voice's exclamation
    else:
        said += ending
    found = links(_dialogue(("Bo Kim", "How are you?"), ("Ana Lee", f"{OPENER} {said}")))
    assert [x.index for x in found] == [1]
    assert found[0].effect in (OPENER, f"{OPENER}{ending}")  # an emoji stays with the news
    assert found[0].cause.lower() == cause.lower()


@pytest.mark.parametrize("template", K.ASK_LINKS)
@pytest.mark.parametrize("cause", CAUSES)
def test_every_guess_links_the_news_before_it(template: str, cause: str) -> None:
    asked = template.format(cause=cause, Cause=capitalise(cause))
    d = _dialogue(("Ana Lee", OPENER), ("Bo Kim", asked), ("Ana Lee", K.CONFIRMS[0]))
    found = links(d)
    assert [(x.index, x.effect) for x in found] == [(1, OPENER)]
    assert found[0].cause.lower() == cause.lower()


def test_plain_news_and_confirmations_are_no_links() -> None:
    d = _dialogue(("Ana Lee", OPENER), *(("Ana Lee", c) for c in K.CONFIRMS))
    assert links(d) == []
