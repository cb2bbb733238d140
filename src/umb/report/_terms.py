"""What every abbreviation and column of the report means: the glossary's entries.

Column headers link here (``ctx.term(key)``), and the glossary section lists the entries that the
page uses. Keys are plain words (``task_balanced``), family codes (``IE``), ``system:NAME``,
``model:KIND`` and ``scorer:NAME``. The fixed terms are written here; a memory system, model
provider or peer scorer describes itself (its ``description``), so a plug-in's entry comes with
it and a built-in's cannot go missing.
"""

from __future__ import annotations

from typing import Final

from umb._errors import UmbError
from umb.families import FAMILY_NAMES
from umb.memory import memory_system_class
from umb.models import PROVIDERS
from umb.scoring import PEER_SCORERS

#: key -> (title, explanation).
TERMS: Final[dict[str, tuple[str, str]]] = {
    "task_balanced": (
        "task-balanced",
        "The mean of the family means: every question family weighs the same, however many "
        "questions it has. The leaderboard ranks by it.",
    ),
    "sample_weighted": (
        "sample-weighted",
        "The mean over all scored questions: big families weigh more.",
    ),
    "ci95": (
        "95% CI",
        "Bootstrap 95% confidence interval of a mean (resampling questions), written under it "
        "in brackets.",
    ),
    "invalid_json": (
        "invalid JSON",
        "Share of replies that were not one JSON object with the family's fields; they score 0.",
    ),
    "errors": ("errors", "Model calls that failed after every retry; they score 0."),
    "context_tokens": (
        "context tokens",
        "Mean estimated tokens (characters / 4) of the context a memory system handed to the "
        "answerer.",
    ),
    "latency": ("latency p50", "Median seconds per answer, memory lookup and model call."),
    "n": ("n", "Questions in the group (scored or not)."),
    "score": (
        "per-question score",
        "Each answer scores 0, 0.5 (partly right; MSR, ES and MA only) or 1 by the family's "
        "rule scorer; coloured red, amber and green.",
    ),
    "failed": ("failed", "Questions that scored below 1 and were attributed."),
    "scorer:umb": (
        "umb",
        "umb's family rule scorers (exact fields, dates, chains), optionally with a judge for "
        "free text.",
    ),
    "ExtractionError": ("ExtractionError", "The fact never made it into memory."),
    "UpdateError": ("UpdateError", "A changed fact was not updated (the old value stayed)."),
    "DeletionError": ("DeletionError", "A fact was deleted or overwritten when it should stay."),
    "RetrievalError": ("RetrievalError", "Memory held the fact but did not hand it over."),
    "ResponseError": ("ResponseError", "The answerer had the facts and still answered wrongly."),
    "AnnotationError": ("AnnotationError", "The gold answer or its evidence is at fault."),
    "JudgeError": ("JudgeError", "The judge's votes disagree with the rules' verdict."),
    "Unattributed": ("Unattributed", "No stage could be blamed from the trace."),
    **{code: (code, name) for code, name in FAMILY_NAMES.items()},
}

#: The glossary's groups, in page order: (title, key prefix or explicit keys).
GROUPS: Final = (
    ("Question families", tuple(FAMILY_NAMES)),
    ("Scores and columns", ("task_balanced", "sample_weighted", "ci95", "score", "invalid_json",
                            "errors", "context_tokens", "latency", "n", "failed")),
)  # fmt: skip


def model_key(spec: str) -> str:
    """The glossary key of a model spec: ``openai/gpt-4o`` -> ``model:openai``."""
    kind = spec.split("/", 1)[0] if "/" in spec else spec
    return f"model:{kind}"


Term = tuple[str, str]
"""(title, explanation)."""


def describe(key: str) -> Term | None:
    """The glossary entry of ``key``: a fixed term, or what a registered extension says of
    itself; None when there is none (an unknown key, or a plug-in not installed here)."""
    if key in TERMS:
        return TERMS[key]
    kind, _, name = key.partition(":")
    try:
        if kind == "system":
            return _entry(name, memory_system_class(name).description)
        if kind == "model" and name in PROVIDERS:
            found = PROVIDERS[name]
            return _entry(found.form, found.description)
        if kind == "scorer" and name in PEER_SCORERS:
            return _entry(name, getattr(PEER_SCORERS[name], "description", ""))
    except (UmbError, ImportError):  # a plug-in whose package is not installed here
        return None
    return None


def _entry(title: str, text: str) -> Term | None:
    return (title, text) if text else None
