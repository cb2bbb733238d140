"""Scoring one checkpoint on evaluation items: log-likelihood of the gold, and generation.

The log-likelihood metric reads the model's probability of the gold answer JSON given the
prompt, over the tokens that hold the answer's values (names, dates, numbers, steps). Its item
score is the geometric mean probability of those tokens, ``exp(mean log p)``, in (0, 1]: 1 when
the model is certain of every value token, about ``1 / vocabulary`` for an untrained model.
Generation decodes greedily and scores the reply with the same parser and family scorers as
the contextual evaluation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from umb.parametric._encode import IGNORE, Encoder, Scored
from umb.parametric._project import EvalItem
from umb.parametric._torch import require
from umb.scoring import parse_answer, score_parsed


def loglik_batch(
    model: Any, encoder: Encoder, items: Sequence[EvalItem], device: str
) -> list[dict[str, Any]]:
    """Log-likelihood fields of each item (one forward pass for the batch)."""
    torch: Any = require("torch")
    scored: list[Scored] = [encoder.scored(i.prompt, i.output, i.spans) for i in items]
    width = max(len(s.prompt_ids) + len(s.target_ids) for s in scored)
    pad = encoder.tokenizer.pad_token_id
    ids = torch.full((len(items), width), pad, dtype=torch.long)
    labels = torch.full((len(items), width), IGNORE, dtype=torch.long)
    keep = torch.zeros((len(items), width), dtype=torch.bool)
    mask = torch.zeros((len(items), width), dtype=torch.long)
    for row, s in enumerate(scored):
        p, t = len(s.prompt_ids), len(s.target_ids)
        ids[row, : p + t] = torch.tensor(s.prompt_ids + s.target_ids)
        labels[row, p : p + t] = torch.tensor(s.target_ids)
        keep[row, p : p + t] = torch.tensor(s.value_mask)
        mask[row, : p + t] = 1
    with torch.no_grad():
        logits = model(input_ids=ids.to(device), attention_mask=mask.to(device)).logits
        # Position j predicts token j + 1. Only answer positions are turned into float
        # log-probabilities, which keeps a large vocabulary's memory in check.
        targets = labels[:, 1:].to(device)
        answer = targets != IGNORE
        picked = logits[:, :-1][answer].float()
        wanted = targets[answer]
        logp = -torch.nn.functional.cross_entropy(picked, wanted, reduction="none")
        hit = picked.argmax(-1) == wanted
    rows = torch.arange(len(items), device=device).unsqueeze(1).expand_as(answer)[answer]
    values = keep[:, 1:].to(device)[answer]
    out = []
    for row in range(len(items)):
        sel = (rows == row) & values
        n = int(sel.sum())
        total = float(logp[sel].sum()) if n else 0.0
        mean = total / n if n else 0.0
        out.append(
            {
                "ll_sum": round(total, 4),
                "ll_tokens": n,
                "ll_mean": round(mean, 5),
                "ll_score": math.exp(mean) if n else None,
                "token_acc": round(float(hit[sel].float().mean()), 4) if n else None,
            }
        )
    return out


def generate_batch(
    model: Any, encoder: Encoder, items: Sequence[EvalItem], device: str, max_new_tokens: int
) -> list[str]:
    """Greedy replies to each item's prompt (left-padded batch)."""
    torch: Any = require("torch")
    prompts = [encoder.generation_prompt(i.prompt, max_new_tokens) for i in items]
    width = max(len(p) for p in prompts)
    pad = encoder.tokenizer.pad_token_id
    ids = torch.full((len(items), width), pad, dtype=torch.long)
    mask = torch.zeros((len(items), width), dtype=torch.long)
    for row, p in enumerate(prompts):
        ids[row, width - len(p) :] = torch.tensor(p)
        mask[row, width - len(p) :] = 1
    # Chat models may end a turn with a token other than the tokenizer's end token.
    configured = getattr(model.generation_config, "eos_token_id", None)
    extra = configured if isinstance(configured, list) else [configured]
    stops = [encoder.eos_id, *(t for t in extra if t is not None and t != encoder.eos_id)]
    with torch.no_grad():
        out = model.generate(
            input_ids=ids.to(device),
            attention_mask=mask.to(device),
            max_new_tokens=max_new_tokens,
            do_sample=False,
            pad_token_id=pad,
            eos_token_id=stops,
        )
    texts = []
    for seq in out[:, width:].tolist():
        end = next((i for i, t in enumerate(seq) if t in stops), len(seq))
        texts.append(encoder.tokenizer.decode(seq[:end], skip_special_tokens=True).strip())
    return texts


def score_generation(item: EvalItem, text: str) -> dict[str, Any]:
    """Parse ``text`` strictly and score it with the family's rule scorer."""

    parsed = parse_answer(text, item.question.family, policy="strict")
    score = score_parsed(item.question, parsed)
    return {
        "generation": text,
        "gen_score": score.value,
        "invalid_json": parsed.invalid_json,
        "parse_error": parsed.error,
        "scorer": score.scorer,
        "scorer_version": score.version,
    }
