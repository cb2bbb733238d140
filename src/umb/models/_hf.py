"""``hf/<path>``: a local transformers causal LM (the ``hf`` extra).

Requests run one at a time in a worker thread, so the event loop stays free for memory systems
and other models. ``json_mode`` is not enforced here (no constrained decoding); the prompt's
instructions carry the JSON request, as with any endpoint that ignores it.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from typing import Any

from umb._errors import ConfigError, MissingDependencyError
from umb.models._api import GenerateRequest, GenerateResult
from umb.models._options import ModelOptions


class HFModel:
    """A local Hugging Face model answering chat requests.

    Args:
        path: A local folder or (with ``options.allow_download``) a Hub id.
        options: ``device`` and ``allow_download`` apply here.

    Raises:
        MissingDependencyError: transformers or torch is not installed.
        ConfigError: The model cannot be loaded from ``path``.
    """

    provider = "hf"

    def __init__(self, path: str, options: ModelOptions) -> None:
        if not path:
            raise ConfigError("hf/<path> needs a model folder or id, e.g. hf/./models/qwen")
        try:
            import torch
            import transformers
        except ImportError as e:
            raise MissingDependencyError(e.name or "transformers", "hf") from e
        self.model = path
        self.spec = f"hf/{path}"
        self.base_url = ""
        self._torch = torch
        local_only = not options.allow_download
        # Any: transformers' own annotations vary by release and do not help here.
        auto_tokenizer: Any = transformers.AutoTokenizer
        auto_lm: Any = transformers.AutoModelForCausalLM
        try:
            self._tokenizer = auto_tokenizer.from_pretrained(path, local_files_only=local_only)
            self._lm = auto_lm.from_pretrained(path, local_files_only=local_only)
        except (OSError, ValueError) as e:
            raise ConfigError(f"cannot load {self.spec}: {e}") from e
        device = options.device or ("cuda" if torch.cuda.is_available() else "cpu")
        self._lm.to(device)
        self._lm.eval()
        self._device = device
        self._lock = threading.Lock()

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        """Answer each request in turn, off the event loop."""
        return [await asyncio.to_thread(self._generate_one, r) for r in requests]

    def _prompt(self, request: GenerateRequest) -> tuple[str, bool]:
        """The prompt text, and whether it already holds the special tokens."""
        chat = [{"role": m.role, "content": m.content} for m in request.messages]
        if getattr(self._tokenizer, "chat_template", None):
            text = self._tokenizer.apply_chat_template(
                chat, tokenize=False, add_generation_prompt=True
            )
            return str(text), True
        # Base models without a template get a plain transcript ending on the reply cue.
        lines = [f"{m.role}: {m.content}" for m in request.messages]
        return "\n\n".join([*lines, "assistant:"]), False

    def _generate_one(self, request: GenerateRequest) -> GenerateResult:
        started = time.perf_counter()
        prompt, templated = self._prompt(request)
        tokenizer = self._tokenizer
        encoded = tokenizer(prompt, return_tensors="pt", add_special_tokens=not templated)
        encoded = {k: v.to(self._device) for k, v in encoded.items()}
        prompt_len = int(encoded["input_ids"].shape[1])
        kwargs: dict[str, Any] = {
            "max_new_tokens": request.max_tokens,
            "do_sample": request.temperature > 0,
            "pad_token_id": tokenizer.pad_token_id
            if tokenizer.pad_token_id is not None
            else tokenizer.eos_token_id,
        }
        if request.temperature > 0:
            kwargs["temperature"] = request.temperature
        try:
            with self._lock, self._torch.inference_mode():
                output = self._lm.generate(**encoded, **kwargs)
        except RuntimeError as e:  # out of memory, context too long for the model, …
            return GenerateResult(
                text="", latency_s=time.perf_counter() - started, error=f"generation failed: {e}"
            )
        new_tokens = output[0, prompt_len:]
        text = tokenizer.decode(new_tokens, skip_special_tokens=True)
        return GenerateResult(
            text=str(text).strip(),
            input_tokens=prompt_len,
            output_tokens=int(new_tokens.shape[0]),
            latency_s=time.perf_counter() - started,
        )
