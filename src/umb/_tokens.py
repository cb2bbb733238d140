"""Token estimates without a tokenizer: ``ceil(chars / 4)``, the original release's rule.

Real tokenizers give 0.8–1.3× this on English dialogue; every size umb reports uses this rule so
sizes compare across machines and models.
"""

from __future__ import annotations


def estimate_tokens(text: str) -> int:
    """Estimated tokens in ``text`` (``ceil(len / 4)``)."""
    return (len(text) + 3) // 4
