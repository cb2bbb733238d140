"""The scorer names the ``--scorer`` help texts list are the registered ones, so the help cannot
drift from :data:`umb.scoring.PEER_SCORERS`."""

from __future__ import annotations

import re

import click
import pytest

from umb._cli.eval import eval_command
from umb._cli.score import score
from umb.scoring import answer_scorer_names, retrieval_scorer_names


def _help(command: click.Command, option: str) -> str:
    found = next(p for p in command.params if isinstance(p, click.Option) and option in p.opts)
    return found.help or ""


def _listed(text: str) -> set[str]:
    return set(re.findall(r"\b[a-z0-9]+_[a-z0-9_]+\b", text.split(":", 1)[1]))


@pytest.mark.parametrize(
    ("command", "kinds"),
    [(eval_command, ("answer",)), (score, ("answer", "retrieval"))],
)
def test_scorer_help_lists_every_registered_scorer_and_nothing_else(
    command: click.Command, kinds: tuple[str, ...]
) -> None:
    registered = set(answer_scorer_names()) - {"umb"}
    if "retrieval" in kinds:
        registered |= set(retrieval_scorer_names())
    assert _listed(_help(command, "--scorer")) == registered
