"""The model-provider extension point: ``@provider("name")`` and the :data:`PROVIDERS` registry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from umb._registry import Registry
from umb.models._api import ModelAPI
from umb.models._options import ModelOptions

CacheIdentity = tuple[str, str, str]
"""(provider, model, endpoint) that responses are cached under; empty strings: not cached."""

Build = Callable[[str, ModelOptions], tuple[ModelAPI, CacheIdentity]]


@dataclass(frozen=True)
class Provider:
    """How one spec prefix becomes a backend."""

    name: str
    build: Build
    takes_name: bool = True
    """``openai/<model>`` takes a name after the slash; ``offline`` is a whole word."""
    form: str = ""
    """The spec form for help texts, e.g. ``openai/<model>``."""


def _is_provider(name: str, obj: object) -> Provider:
    if not isinstance(obj, Provider):
        raise TypeError(f"model provider {name!r} is not a Provider: {obj!r}")
    return obj


PROVIDERS: Registry[Provider] = Registry("model provider", "model", check=_is_provider)
"""Spec prefix -> :class:`Provider`; the built-ins live in :mod:`umb.models._providers`."""


def provider(name: str, *, takes_name: bool = True, form: str = "") -> Callable[[Build], Build]:
    """Register ``build(name_after_slash, options) -> (backend, cache identity)`` as ``name``."""

    def add(build: Build) -> Build:
        PROVIDERS.add(name, Provider(name, build, takes_name, form or name))
        return build

    return add
