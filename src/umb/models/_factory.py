"""Build a model from its spec: ``offline``, ``oracle``, ``openai/<model>``, ``hf/<path>``."""

from __future__ import annotations

import difflib
import importlib

from umb._errors import ConfigError
from umb.models._api import ModelAPI, Role
from umb.models._cache import ResponseCache
from umb.models._loaded import LoadedModel
from umb.models._options import ModelOptions
from umb.models._usage import UsageMeter

ROLES: tuple[Role, ...] = ("answerer", "judge", "extractor", "renderer")

# Whole-word specs -> "module:class"; imported only when asked for.
_PLAIN_SPECS: dict[str, str] = {
    "offline": "umb.models.offline:OfflineModel",
    "oracle": "umb.models.oracle:OracleModel",
}
_PROVIDERS: dict[str, str] = {
    "openai": "openai/<model>",
    "hf": "hf/<path>",
}

SPEC_FORMS: tuple[str, ...] = (*_PLAIN_SPECS, *_PROVIDERS.values())
"""Every accepted spec form, for help texts."""


def _import(target: str) -> type:
    module, attr = target.split(":")
    cls = getattr(importlib.import_module(module), attr)
    assert isinstance(cls, type)
    return cls


def _unknown(spec: str) -> ConfigError:
    head = spec.split("/", 1)[0]
    words = [*_PLAIN_SPECS, *_PROVIDERS]
    close = difflib.get_close_matches(head, words, n=1, cutoff=0.6)
    hint = ""
    if close:
        guess = close[0]
        rest = spec.split("/", 1)[1] if "/" in spec else ""
        suggestion = _PROVIDERS[guess].split("<")[0] + rest if guess in _PROVIDERS else guess
        hint = f"; did you mean {suggestion!r}?"
    return ConfigError(
        f"unknown model spec {spec!r}{hint} (expected one of: {', '.join(SPEC_FORMS)})"
    )


def load_model(
    spec: str,
    *,
    role: Role = "answerer",
    options: ModelOptions | None = None,
    meter: UsageMeter | None = None,
) -> LoadedModel:
    """Build the model named by ``spec``, wrapped with the response cache and usage accounting.

    Args:
        spec: ``offline``, ``oracle``, ``openai/<model>`` or ``hf/<path>``.
        role: What the model is used as; usage is counted under this role.
        options: Endpoint, limits, retries, cache and generation overrides.
        meter: Shared usage meter; a fresh one if None (read it as ``model.meter``).

    Returns:
        A :class:`LoadedModel` (implements :class:`ModelAPI`).

    Raises:
        ConfigError: Unknown spec (with a "did you mean" hint), bad role or bad options.
        MissingDependencyError: The backend's extra is not installed.

    Example:
        >>> model = load_model("offline")
        >>> model.spec
        'offline'
    """
    if role not in ROLES:
        raise ConfigError(f"unknown model role {role!r} (expected one of: {', '.join(ROLES)})")
    opts = options or ModelOptions()
    spec = spec.strip()
    backend: ModelAPI
    cache_identity = ("", "", "")
    if spec in _PLAIN_SPECS:
        backend = _import(_PLAIN_SPECS[spec])()
    else:
        provider, _, name = spec.partition("/")
        if provider == "openai" and name:
            from umb.models._openai import OpenAIModel

            openai_model = OpenAIModel(name, opts)
            backend, cache_identity = openai_model, ("openai", name, openai_model.base_url)
        elif provider == "hf" and name:
            from umb.models._hf import HFModel

            backend, cache_identity = HFModel(name, opts), ("hf", name, "")
        elif provider in _PROVIDERS:
            raise ConfigError(f"model spec {spec!r} lacks a name: use {_PROVIDERS[provider]}")
        else:
            raise _unknown(spec)
    # offline and oracle are instant, and their answers depend on the request's task (which the
    # key leaves out), so only language-model backends are cached.
    cache = None
    if opts.cache_path is not None and cache_identity[0]:
        cache = ResponseCache(opts.cache_path)
    return LoadedModel(
        backend,
        role=role,
        meter=meter if meter is not None else UsageMeter(),
        cache=cache,
        cache_identity=cache_identity,
        max_tokens=opts.max_tokens,
        temperature=opts.temperature,
    )
