"""The no-download model: a byte-level BPE tokenizer trained on the project's own training text
and a small Llama built from a config with random weights.

Only training records feed the tokenizer, never the evaluation sets, so the never-trained
control characters' names and answers are no more familiar to the tokenizer than to the model.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from umb.parametric._config import TinyModelConfig
from umb.parametric._torch import require

PAD, BOS, EOS = "<pad>", "<s>", "</s>"


def train_tokenizer(texts: Iterable[str], vocab_size: int) -> Any:
    """Train a byte-level BPE tokenizer and wrap it as a transformers fast tokenizer.

    Byte-level means any string encodes (no unknown token), so unseen names still get a
    likelihood, just a low one.
    """
    tokenizers: Any = require("tokenizers")
    transformers: Any = require("transformers")
    byte_level = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok = tokenizers.Tokenizer(tokenizers.models.BPE())
    tok.pre_tokenizer = byte_level
    tok.decoder = tokenizers.decoders.ByteLevel()
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=[PAD, BOS, EOS],
        initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(texts, trainer)
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token=BOS, eos_token=EOS, pad_token=PAD
    )


def build_model(config: TinyModelConfig, tokenizer: Any, seed: int) -> Any:
    """A randomly initialised ``LlamaForCausalLM`` sized by ``config``."""
    torch: Any = require("torch")
    transformers: Any = require("transformers")
    llama_config = transformers.LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=config.hidden_size,
        intermediate_size=config.intermediate_size,
        num_hidden_layers=config.layers,
        num_attention_heads=config.heads,
        num_key_value_heads=config.heads,
        max_position_embeddings=config.max_positions,
        tie_word_embeddings=True,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    torch.manual_seed(seed)
    model = transformers.LlamaForCausalLM(llama_config)
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.bos_token_id = tokenizer.bos_token_id
    return model
