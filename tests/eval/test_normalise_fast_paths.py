"""``normalise_tokens`` skips rules that cannot apply; the tokens must not change."""

from __future__ import annotations

import pytest

from umb.scoring import normalise_tokens


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        # a number word becomes a digit, and only then do the digit rules apply
        ("one,000 dollars", ("1000", "dollars")),
        ("ninety-nine.", ("99",)),
        ("twenty-one cafés", ("21", "cafes")),
        # non-ASCII: accents stripped, compatibility forms decomposed
        ("Café au lait on 3 March", ("cafe", "au", "lait", "on", "03", "03")),
        ("ﬁve apples", ("5", "apples")),
        ("x \u0663 y", ("x", "y")),
        # dates and decimals need a digit; number words inside other words stay words
        ("the 4th of July", ("07", "04")),
        ("Room 12.50 and 7.0", ("room", "12.5", "and", "7")),
        ("No digits here.", ("no", "digits", "here")),
        ("often tent ...", ("often", "tent")),
        # a dot stays only between two digits; dates need a month stem, decimals a digit-dot
        ("v1.2.3 and 1..2 end.", ("v1.2.3", "and", "1", "2", "end")),
        ("Paid $1,249.00, i.e. 3. items", ("paid", "1249", "i", "e", "3", "items")),
        ("Sept. 3rd, 2021 or 2021-09-03", ("2021", "09", "03", "or", "2021", "09", "03")),
        ("Dec 5 at 10.50", ("12", "05", "at", "10.5")),
        ("decided on 5", ("decided", "on", "5")),
    ],
)
def test_tokens_of_the_fast_paths(text: str, tokens: tuple[str, ...]) -> None:
    assert normalise_tokens(text) == tokens
