"""What every abbreviation and column of the report means: the glossary's entries.

Column headers link here (``ctx.term(key)``), and the glossary section lists the entries that the
page uses. Keys are plain words (``task_balanced``), family codes (``IE``), ``system:NAME``,
``model:KIND`` and ``scorer:NAME``.
"""

from __future__ import annotations

from typing import Final

from umb.families import FAMILY_NAMES

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
    "model:offline": (
        "offline",
        "A deterministic rule-based reader (BM25 over sentences and date arithmetic), not a "
        "language model: a heuristic lower bound that a real model should beat "
        "(docs/offline-reader.md).",
    ),
    "model:oracle": (
        "oracle",
        "Answers with the gold answer: a check of the scorers, not a result.",
    ),
    "model:openai": ("openai/MODEL", "A model behind an OpenAI-compatible endpoint."),
    "model:hf": ("hf/PATH", "A local transformers model."),
    "model:llamacpp": ("llamacpp/FILE", "A GGUF model run in process by llama.cpp."),
    "system:full_context": (
        "full_context",
        "The whole dialogue history in the prompt (oldest sessions dropped beyond the input "
        "limit).",
    ),
    "system:no_context": ("no_context", "No history at all: what the question alone gives."),
    "system:oracle_evidence": (
        "oracle_evidence",
        "Only the gold evidence turns: an upper bound for retrieval.",
    ),
    "system:rag_bm25": ("rag_bm25", "Retrieval of the top-k units by BM25."),
    "system:rag_dense": ("rag_dense", "Retrieval of the top-k units by dense embeddings."),
    "system:rag_hybrid": ("rag_hybrid", "BM25 and dense retrieval fused."),
    "system:mem0_style": (
        "mem0_style",
        "Extract facts, add/update/delete them in a memory store, retrieve the top-k.",
    ),
    "system:mem0": ("mem0", "The mem0 library itself as the memory system."),
    "system:oracle_memory": (
        "oracle_memory",
        "Exactly the gold facts of each session, updates applied: the memory metrics' reference.",
    ),
    "system:summary": ("summary", "One rolling summary per session; the answerer reads them all."),
    "scorer:umb": (
        "umb",
        "umb's family rule scorers (exact fields, dates, chains), optionally with a judge for "
        "free text.",
    ),
    "scorer:locomo_f1": ("locomo_f1", "LoCoMo's own token F1 per category."),
    "scorer:mem0_f1": ("mem0_f1", "The token F1 of mem0's LoCoMo evaluation."),
    "scorer:mem0_bleu1": ("mem0_bleu1", "The BLEU-1 of mem0's LoCoMo evaluation."),
    "scorer:longmemeval_judge": (
        "longmemeval_judge",
        "LongMemEval's LLM judge with its per-type prompts.",
    ),
    "scorer:mem0_judge": ("mem0_judge", "The CORRECT/WRONG LLM judge of mem0's LoCoMo evaluation."),
    "scorer:longmemeval_retrieval": (
        "longmemeval_retrieval",
        "LongMemEval's turn- and session-level retrieval metrics (recall and NDCG at k).",
    ),
    "scorer:locomo_recall": (
        "locomo_recall",
        "LoCoMo's RAG recall: the share of a question's evidence among the retrieved turns.",
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
