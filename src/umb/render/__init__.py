"""Renderers: world + questions -> dialogues."""

from umb.render._template import TemplateRenderer

__all__ = ["TemplateRenderer"]
