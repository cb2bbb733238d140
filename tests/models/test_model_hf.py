"""hf/<path> on a tiny randomly initialised model built in the test (needs the ``hf`` extra)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from umb.models import GenerateRequest, Message, ModelOptions, load_model

transformers = pytest.importorskip("transformers")
pytest.importorskip("torch")
tokenizers = pytest.importorskip("tokenizers")

WORDS = [
    "[UNK]",
    "[PAD]",
    "[EOS]",
    "user",
    "assistant",
    "system",
    ":",
    "hello",
    "world",
    "maya",
    "dog",
]


def _tiny_model(folder: Path, template: str | None = None) -> Path:
    vocab = {word: i for i, word in enumerate(WORDS)}
    backend = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, unk_token="[UNK]"))
    backend.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=backend, unk_token="[UNK]", pad_token="[PAD]", eos_token="[EOS]"
    )
    if template is not None:
        tokenizer.chat_template = template
    tokenizer.save_pretrained(folder)
    config = transformers.GPT2Config(
        vocab_size=len(WORDS),
        n_positions=128,
        n_embd=16,
        n_layer=1,
        n_head=2,
        eos_token_id=2,
        pad_token_id=1,
        bos_token_id=2,
    )
    transformers.GPT2LMHeadModel(config).save_pretrained(folder)
    return folder


# Contents only, so the prompt length tells which path built it.
TEMPLATE = "{% for m in messages %}{{ m['content'] }} {% endfor %}"


@pytest.mark.parametrize(
    ("template", "prompt_tokens"),
    [
        (None, 9),  # "system : hello user : maya dog assistant :"
        (TEMPLATE, 3),  # "hello maya dog"
    ],
)
def test_hf_generates_from_a_local_folder(tmp_path: Path, template, prompt_tokens):
    folder = _tiny_model(tmp_path / "tiny", template)
    model = load_model(f"hf/{folder}", options=ModelOptions(device="cpu"))
    request = GenerateRequest(
        messages=(Message("system", "hello"), Message("user", "maya dog")), max_tokens=4
    )
    first, second = asyncio.run(model.generate([request, request]))
    assert first.error is None
    assert first.input_tokens == prompt_tokens
    assert 0 < first.output_tokens <= 4
    assert first.text == second.text  # greedy decoding at temperature 0 is deterministic
    assert model.meter.to_dict()["answerer"]["requests"] == 2


def test_hf_missing_folder_is_a_config_error(tmp_path: Path):
    from umb import ConfigError

    with pytest.raises(ConfigError, match="cannot load"):
        load_model(f"hf/{tmp_path / 'absent'}")
