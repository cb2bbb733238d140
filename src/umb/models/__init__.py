"""Model backends behind one interface, with a response cache, retries and usage accounting.

Build a model with :func:`load_model` from a spec (``offline``, ``oracle``, ``openai/<model>``,
``hf/<path>``, ``llamacpp/<file.gguf | name>``). Backend modules are imported only when their
spec is used.
"""

from __future__ import annotations

import typing

from umb._lazy import lazy_names as _lazy_names

if typing.TYPE_CHECKING:
    from umb.models._api import GenerateRequest, GenerateResult, Message, ModelAPI, Role
    from umb.models._cache import ResponseCache, cache_key
    from umb.models._factory import ROLES, SPEC_FORMS, ModelOnUse, load_model
    from umb.models._loaded import LoadedModel
    from umb.models._options import (
        BACKEND_OPTIONS,
        STRUCTURED_OUTPUTS,
        ModelOptions,
        StructuredOutput,
    )
    from umb.models._provider import PROVIDERS, Provider, provider, spec_provider, unread_options
    from umb.models._usage import SUMMED_COUNTS, RoleUsage, UsageMeter, percentile

# Names load on first use: a module that only names a result type loads no HTTP client,
# cache database or event loop.
_LAZY: dict[str, str] = {
    "ModelOnUse": "umb.models._factory",
    "STRUCTURED_OUTPUTS": "umb.models._options",
    "SUMMED_COUNTS": "umb.models._usage",
    "StructuredOutput": "umb.models._options",
    "GenerateRequest": "umb.models._api",
    "GenerateResult": "umb.models._api",
    "Message": "umb.models._api",
    "ModelAPI": "umb.models._api",
    "Role": "umb.models._api",
    "ResponseCache": "umb.models._cache",
    "cache_key": "umb.models._cache",
    "ROLES": "umb.models._factory",
    "SPEC_FORMS": "umb.models._factory",
    "load_model": "umb.models._factory",
    "LoadedModel": "umb.models._loaded",
    "ModelOptions": "umb.models._options",
    "PROVIDERS": "umb.models._provider",
    "Provider": "umb.models._provider",
    "provider": "umb.models._provider",
    "spec_provider": "umb.models._provider",
    "unread_options": "umb.models._provider",
    "BACKEND_OPTIONS": "umb.models._options",
    "RoleUsage": "umb.models._usage",
    "UsageMeter": "umb.models._usage",
    "percentile": "umb.models._usage",
}
__getattr__, __dir__ = _lazy_names(__name__, _LAZY, globals())

__all__ = [
    "ModelOnUse",
    "STRUCTURED_OUTPUTS",
    "SUMMED_COUNTS",
    "StructuredOutput",
    "ROLES",
    "SPEC_FORMS",
    "GenerateRequest",
    "GenerateResult",
    "LoadedModel",
    "Message",
    "ModelAPI",
    "ModelOptions",
    "PROVIDERS",
    "Provider",
    "provider",
    "spec_provider",
    "unread_options",
    "BACKEND_OPTIONS",
    "ResponseCache",
    "Role",
    "RoleUsage",
    "UsageMeter",
    "cache_key",
    "load_model",
    "percentile",
]
