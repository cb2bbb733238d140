"""Turning records into token ids: the same prompt format for training and evaluation.

A QA prompt goes through the tokenizer's chat template when it has one (instruction-tuned
models), otherwise it is the prompt text and a newline. Prompt and answer are tokenised
separately and concatenated, so the answer's tokens are the same in training, in the
log-likelihood metric and in what generation is asked to produce.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

IGNORE = -100
"""Label of positions that carry no loss."""


@dataclass(frozen=True, slots=True)
class Example:
    """One training sequence: input ids and labels (``IGNORE`` where no loss is taken)."""

    ids: list[int]
    labels: list[int]


@dataclass(frozen=True, slots=True)
class Scored:
    """A prompt and its gold answer, with which answer tokens hold values."""

    prompt_ids: list[int]
    target_ids: list[int]
    value_mask: list[bool]
    """Per target token: does it overlap a value span of the answer JSON?"""


class Encoder:
    """Tokenises records for one tokenizer.

    Args:
        tokenizer: A transformers tokenizer.
        max_length: Longest sequence fed to the model.
        chat_template: Use the tokenizer's chat template for QA prompts when it has one.
    """

    def __init__(self, tokenizer: Any, max_length: int, *, chat_template: bool = True) -> None:
        self.tokenizer = tokenizer
        self.max_length = max_length
        self.use_template = chat_template and bool(getattr(tokenizer, "chat_template", None))
        self.bos = [tokenizer.bos_token_id] if tokenizer.bos_token_id is not None else []
        self.eos_id: int = tokenizer.eos_token_id

    def _ids(self, text: str) -> list[int]:
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def prompt_ids(self, prompt: str) -> list[int]:
        """Token ids of a QA prompt, ready for the answer to follow."""
        if self.use_template:
            text = self.tokenizer.apply_chat_template(
                [{"role": "user", "content": prompt}], tokenize=False, add_generation_prompt=True
            )
            # The template already holds the special tokens it wants.
            return self._ids(str(text))
        return self.bos + self._ids(prompt + "\n")

    def _fit_prompt(self, prompt_ids: list[int], room: int) -> list[int]:
        # Cut the prompt's start: the question sits at its end.
        return prompt_ids[-room:] if room > 0 else []

    def pretraining(self, text: str) -> list[Example]:
        """A pre-training text as one or more blocks of at most ``max_length`` tokens."""
        ids = self.bos + self._ids(text) + [self.eos_id]
        step = self.max_length
        return [Example(ids[i : i + step], ids[i : i + step]) for i in range(0, len(ids), step)]

    def supervised(self, prompt: str, output: str) -> Example:
        """A QA pair: loss on the answer and its end token only."""
        target = self._ids(output) + [self.eos_id]
        target = target[: self.max_length - 1]
        prompt_ids = self._fit_prompt(self.prompt_ids(prompt), self.max_length - len(target))
        return Example(prompt_ids + target, [IGNORE] * len(prompt_ids) + target)

    def scored(self, prompt: str, output: str, spans: list[tuple[int, int]]) -> Scored:
        """A QA pair for the log-likelihood metric, marking the value tokens of ``output``."""
        try:
            enc = self.tokenizer(output, add_special_tokens=False, return_offsets_mapping=True)
            offsets = enc.get("offset_mapping")
        except NotImplementedError:  # slow tokenizers have no offsets: score every token
            enc, offsets = self.tokenizer(output, add_special_tokens=False), None
        ids = list(enc["input_ids"])
        if offsets is None:
            mask = [True] * len(ids)
        else:
            mask = [any(s < b and e > a for a, b in spans) for s, e in offsets]
        ids.append(self.eos_id)
        mask.append(False)
        ids, mask = ids[: self.max_length - 1], mask[: self.max_length - 1]
        prompt_ids = self._fit_prompt(self.prompt_ids(prompt), self.max_length - len(ids))
        return Scored(prompt_ids, ids, mask)

    def generation_prompt(self, prompt: str, max_new_tokens: int) -> list[int]:
        """Prompt ids leaving room for ``max_new_tokens`` within ``max_length``."""
        return self._fit_prompt(self.prompt_ids(prompt), self.max_length - max_new_tokens)
