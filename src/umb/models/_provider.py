"""The model-provider extension point: ``@provider("name")`` and the :data:`PROVIDERS` registry."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from umb._errors import ConfigError
from umb._registry import Registry
from umb.models._api import ModelAPI
from umb.models._options import BACKEND_OPTIONS, ModelOptions

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
    llm: bool = True
    """Whether it is a language model. A memory system given a non-LLM extractor (``offline``,
    ``oracle``) extracts by its rules, so the runner loads that model only if one calls it."""
    reads_gold: bool = False
    """Whether it answers from the gold (``oracle``): the runner puts the gold in its requests."""
    endpoint: bool = False
    """Whether it calls an HTTP endpoint: ``base_url``, ``api_key_env`` and ``replicas`` apply,
    and the run's header records them."""
    description: str = ""
    """One line on what the backend is: its entry in the report's glossary."""
    options: tuple[str, ...] = ()
    """The backend-only :class:`ModelOptions` fields it reads (of :data:`BACKEND_OPTIONS`):
    ``hf`` reads ``device`` and ``allow_download``, ``llamacpp`` ``n_ctx``, ``threads`` and
    ``seed``."""

    def __post_init__(self) -> None:
        unknown = [o for o in self.options if o not in BACKEND_OPTIONS]
        if unknown:
            raise ConfigError(
                f"model provider {self.name!r} names {', '.join(unknown)}, not among the "
                f"backend options ({', '.join(BACKEND_OPTIONS)})"
            )


def _is_provider(name: str, obj: object) -> Provider:
    if not isinstance(obj, Provider):
        raise TypeError(f"model provider {name!r} is not a Provider: {obj!r}")
    return obj


PROVIDERS: Registry[Provider] = Registry("model provider", "model", check=_is_provider)
"""Spec prefix -> :class:`Provider`; the built-ins live in :mod:`umb.models._providers`."""

BUILTIN_PROVIDERS: tuple[str, ...] = ("offline", "oracle", "openai", "hf", "llamacpp")
"""The built-in providers, each loaded by its entry at its first lookup."""
for _name in BUILTIN_PROVIDERS:
    PROVIDERS.add_lazy(_name, f"umb.models._providers:{_name.upper()}")
del _name


def provider(
    name: str,
    *,
    takes_name: bool = True,
    form: str = "",
    llm: bool = True,
    reads_gold: bool = False,
    endpoint: bool = False,
    description: str = "",
    options: tuple[str, ...] = (),
) -> Callable[[Build], Build]:
    """Register ``build(name_after_slash, options) -> (backend, cache identity)`` as ``name``.

    The keywords are the :class:`Provider`'s facts other layers act on (``llm``,
    ``reads_gold``, ``endpoint``); a backend declares them here rather than being named there.
    """

    def add(build: Build) -> Build:
        PROVIDERS.add(
            name,
            Provider(name, build, takes_name, form or name, llm, reads_gold, endpoint,
                     description, options),  # fmt: skip
        )
        return build

    return add


def spec_provider(spec: str) -> Provider | None:
    """The provider a model spec names (the part before ``/``), or None when none is registered.

    Other layers ask it what a model is (:attr:`Provider.llm`, :attr:`~Provider.reads_gold`,
    :attr:`~Provider.endpoint`) instead of matching spec strings.
    """
    return PROVIDERS.get(spec.strip().partition("/")[0])


def unread_options(options: ModelOptions, specs: Iterable[str]) -> list[str]:
    """The backend-only options set away from their defaults that no provider of ``specs``
    reads (``n_ctx`` with an ``openai/…`` answerer): set, they would silently do nothing."""
    read: set[str] = set()
    for spec in specs:
        found = spec_provider(spec)
        if found is None:
            return []  # an unknown spec is refused when it loads, with a "did you mean"
        read.update(found.options)
    default = ModelOptions(base_url=None)
    return [
        name
        for name in BACKEND_OPTIONS
        if name not in read and getattr(options, name) != getattr(default, name)
    ]
