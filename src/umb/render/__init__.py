"""Renderers: world + questions -> dialogues.

The template renderer is imported eagerly (``umb generate`` needs nothing else); the LLM
renderer's names load on first use, so the template path never imports the model layer.
"""

from __future__ import annotations

import importlib
from typing import Any

from umb.render._template import TemplateRenderer

_LAZY: dict[str, str] = {
    "DialoguePlan": "umb.render._plan",
    "EventBrief": "umb.render._plan",
    "FactSpec": "umb.render._plan",
    "SessionPlan": "umb.render._plan",
    "plan_dialogue": "umb.render._plan",
    "Finding": "umb.render._audit",
    "SessionAuditor": "umb.render._audit",
    "LLMRenderConfig": "umb.render._llm",
    "LLMRenderer": "umb.render._llm",
    "RenderedDialogue": "umb.render._assemble",
    "RenderStats": "umb.render._llm",
    "questions_for": "umb.render._questions",
    "load_worlds": "umb.render._worldio",
    "Endpoint": "umb.render._run",
    "RenderJob": "umb.render._run",
    "RenderOutcome": "umb.render._run",
    "arender_benchmark": "umb.render._run",
    "dry_run": "umb.render._run",
    "render_benchmark": "umb.render._run",
    "estimate": "umb.render._estimate",
    "format_estimate": "umb.render._estimate",
    "SKELETON": "umb.render._workdir",
    "WORK": "umb.render._workdir",
}

__all__ = ["TemplateRenderer", *sorted(_LAZY)]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'umb.render' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
