"""Build a model from its spec ``<provider>[/<name>]`` (providers: :data:`PROVIDERS`)."""

from __future__ import annotations

from typing import Any

from umb._errors import ConfigError
from umb._registry import closest, did_you_mean
from umb.models._api import Role
from umb.models._cache import ResponseCache
from umb.models._loaded import LoadedModel
from umb.models._options import ModelOptions
from umb.models._provider import BUILTIN_PROVIDERS, PROVIDERS, Provider
from umb.models._usage import UsageMeter

ROLES: tuple[Role, ...] = ("answerer", "judge", "extractor", "renderer")


SPEC_FORMS: tuple[str, ...] = tuple(PROVIDERS[name].form for name in BUILTIN_PROVIDERS)
"""Every built-in spec form, for help texts."""


def spec_forms() -> tuple[str, ...]:
    """Every accepted spec form, plug-in providers included."""
    return tuple(PROVIDERS[name].form for name in PROVIDERS)


def _unknown(spec: str) -> ConfigError:
    head, _, rest = spec.partition("/")
    guess = closest(head, PROVIDERS)
    suggestion = None
    if guess is not None:
        suggestion = f"{guess}/{rest}" if PROVIDERS[guess].takes_name else guess
    return ConfigError(
        f"unknown model spec {spec!r}{did_you_mean(head, PROVIDERS, suggestion=suggestion)}"
        f" (expected one of: {', '.join(spec_forms())})"
    )


def _resolve(spec: str) -> tuple[Provider, str]:
    head, slash, name = spec.partition("/")
    found = PROVIDERS.get(head)
    if found is None or (not found.takes_name and slash):
        raise _unknown(spec)
    if found.takes_name and not name:
        raise ConfigError(f"model spec {spec!r} lacks a name: use {found.form}")
    return found, name


def load_model(
    spec: str,
    *,
    role: Role = "answerer",
    options: ModelOptions | None = None,
    meter: UsageMeter | None = None,
) -> LoadedModel:
    """Build the model named by ``spec``, wrapped with the response cache and usage accounting.

    Args:
        spec: ``offline``, ``oracle``, ``openai/<model>``, ``hf/<path>`` or
            ``llamacpp/<file.gguf | name>`` (or a plug-in provider's form).
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
    found, name = _resolve(spec)
    backend, cache_identity = found.build(name, opts)
    # Only the answerer's requests carry a schema, so only its backend must be able to take one.
    takes_schema = bool(getattr(backend, "supports_json_schema", False))
    if opts.structured_output == "on" and role == "answerer" and not takes_schema:
        raise ConfigError(
            f"--structured-output on needs an answerer that takes a JSON schema "
            f"(openai/<model> or llamacpp/<file.gguf | name>), not {spec!r}"
        )
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
        send_schema=opts.structured_output != "off",
    )


class ModelOnUse:
    """A model :func:`load_model` builds at its first use, for a role a run may never call (the
    extractor of systems that extract by rule): its ``spec`` is known at once, the backend and
    its imports wait. Everything else is the loaded model's.

    Args:
        spec, role, options, meter: As for :func:`load_model`.
    """

    def __init__(
        self,
        spec: str,
        *,
        role: Role = "answerer",
        options: ModelOptions | None = None,
        meter: UsageMeter | None = None,
    ) -> None:
        self.spec = spec.strip()
        self._args = (spec, role, options, meter)
        self._model: LoadedModel | None = None

    @property
    def loaded(self) -> LoadedModel:
        """The model, built now if it was not yet."""
        if self._model is None:
            spec, role, options, meter = self._args
            self._model = load_model(spec, role=role, options=options, meter=meter)
        return self._model

    def __getattr__(self, name: str) -> Any:
        return getattr(self.loaded, name)

    async def aclose(self) -> None:
        """Close the model if it was ever built."""
        if self._model is not None:
            await self._model.aclose()
