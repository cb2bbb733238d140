"""The names the help texts list are the registered ones, read when the help is shown: a help
text cannot drift from :data:`umb.scoring.PEER_SCORERS`, :data:`umb.memory.MEMORY_SYSTEMS` or
:data:`umb.models.PROVIDERS`, and a plug-in's name is listed once it registers."""

from __future__ import annotations

import re

import click
import pytest

from umb._cli.eval import eval_command
from umb._cli.score import score as score_command
from umb.memory import memory_system_names
from umb.models import PROVIDERS
from umb.scoring import JUDGE_SCORERS, PEER_SCORERS, answer_scorer_names, retrieval_scorer_names


def _help(command: click.Command, option: str) -> str:
    found = next(p for p in command.params if isinstance(p, click.Option) and option in p.opts)
    with click.Context(command) as ctx:
        record = found.get_help_record(ctx)
    assert record is not None
    return re.sub(r"\s+\[(default: [^]]*|required)\]$", "", record[1])


def _listed(text: str, after: str) -> list[str]:
    names = text.split(after, 1)[1].rstrip(".")
    return [n.strip() for n in re.split(r",| or ", names) if n.strip()]


def test_scorer_help_lists_every_registered_scorer_and_nothing_else() -> None:
    peers = list(answer_scorer_names()[1:])
    assert _listed(_help(eval_command, "--scorer"), "a peer scorer: ") == peers
    every = [*answer_scorer_names(), *retrieval_scorer_names()]
    assert _listed(_help(score_command, "--scorer"), "Comma-separated: ") == every


def test_system_model_and_judge_help_list_the_registries() -> None:
    assert _listed(_help(eval_command, "--system"), "registered: ") == memory_system_names()
    forms = [PROVIDERS[n].form for n in PROVIDERS]
    assert _listed(_help(eval_command, "--model"), "Answerer: ") == forms
    assert _listed(_help(eval_command, "--judge"), "a judge scorer: ") == list(JUDGE_SCORERS)


def test_a_plug_in_is_listed_once_it_registers() -> None:
    plug_in = type("VowelMetric", (), {"description": "Counts vowels."})
    PEER_SCORERS.add("vowel_metric", plug_in)
    try:
        assert "vowel_metric" in _listed(_help(eval_command, "--scorer"), "a peer scorer: ")
    finally:
        PEER_SCORERS.remove("vowel_metric")
    assert "vowel_metric" not in _help(eval_command, "--scorer")


@pytest.mark.parametrize("option", ["--system", "--model", "--scorer", "--judge"])
def test_listed_help_ends_in_one_full_stop(option: str) -> None:
    text = _help(eval_command, option)
    assert text.endswith(".") and not text.endswith("..")
