"""The dry run: how many renderer calls and tokens a render will take, before it starts.

The first pass is exact in calls (one per session) and in prompt tokens (the prompts are built);
output tokens follow from each session's length target. Retries, repairs and verifier votes
depend on the model, so they are given as upper bounds.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from umb._tokens import estimate_tokens
from umb.render._llm import LLMRenderConfig
from umb.render._plan import DialoguePlan
from umb.render._prompts import WRITER_SYSTEM, writer_prompt

#: (prompt, reply) tokens of one repair call and one verifier vote. The prompts, system prompt
#: included, are the means over the demo preset's events; the replies are what a two-turn
#: exchange and ``{"states": true}`` take.
REPAIR_TOKENS = (320, 90)
VOTE_TOKENS = (210, 8)


def estimate(
    plans: Iterable[DialoguePlan], config: LLMRenderConfig, done: int = 0
) -> dict[str, Any]:
    """Calls and tokens of rendering ``plans`` with ``config``.

    Args:
        plans: The dialogues to render.
        config: Attempts, rounds, votes.
        done: Dialogues already rendered (checkpointed), left out of the totals.

    Returns:
        A JSON-ready dict: ``dialogues``, ``sessions``, ``facts``, ``first_pass`` (calls,
        prompt/output tokens), ``upper_bounds`` (retries, repairs, verifier), ``already_done``.
    """
    dialogues = sessions = facts = groups = 0
    prompt = output = system = 0
    for plan in plans:
        dialogues += 1
        for s in plan.sessions:
            sessions += 1
            n = len(s.required_facts())
            facts += n
            groups += len(s.news) + (1 if s.profile else 0)
            system += estimate_tokens(WRITER_SYSTEM)
            prompt += estimate_tokens(WRITER_SYSTEM) + estimate_tokens(writer_prompt(s))
            words = max(40 + 12 * n, s.target_tokens * 3 // 4)
            output += words * 4 // 3 + 10 * s.target_turns
    retries = sessions * (config.write_attempts - 1)
    repairs = groups * config.repair_rounds * config.repair_attempts
    votes = facts * config.votes if config.verifier else 0
    return {
        "dialogues": dialogues,
        "sessions": sessions,
        "facts": facts,
        "first_pass": {
            "calls": sessions,
            "prompt_tokens": prompt,
            "system_prompt_tokens": system,
            "output_tokens": output,
        },
        "upper_bounds": {
            "retry_calls": retries,
            "retry_prompt_tokens": retries * (prompt // max(1, sessions) + 30),
            "repair_calls": repairs,
            "repair_prompt_tokens": repairs * REPAIR_TOKENS[0],
            "repair_output_tokens": repairs * REPAIR_TOKENS[1],
            "verifier_calls": votes,
            "verifier_prompt_tokens": votes * VOTE_TOKENS[0],
        },
        "already_done": done,
    }


def format_estimate(est: dict[str, Any], model: str) -> str:
    """The estimate as a few lines for the terminal."""
    fp, ub = est["first_pass"], est["upper_bounds"]
    lines = [
        f"dry run with {model}: {est['dialogues']:,} dialogues, {est['sessions']:,} sessions, "
        f"{est['facts']:,} facts to state",
        f"  writing (one call per session): {fp['calls']:,} calls, "
        f"~{fp['prompt_tokens']:,} prompt tokens (of which {fp['system_prompt_tokens']:,} are "
        f"the shared system prompt), ~{fp['output_tokens']:,} output tokens",
        f"  retries of broken or leaking replies: at most {ub['retry_calls']:,} calls, "
        f"~{ub['retry_prompt_tokens']:,} prompt tokens",
        f"  repairs: at most {ub['repair_calls']:,} calls, ~{ub['repair_prompt_tokens']:,} "
        f"prompt and ~{ub['repair_output_tokens']:,} output tokens",
    ]
    if ub["verifier_calls"]:
        lines.append(
            f"  verifier: at most {ub['verifier_calls']:,} votes, "
            f"~{ub['verifier_prompt_tokens']:,} prompt tokens"
        )
    if est["already_done"]:
        lines.append(f"  already rendered (skipped): {est['already_done']:,} dialogues")
    return "\n".join(lines)
