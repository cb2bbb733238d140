"""Model backends behind one interface, with a response cache, retries and usage accounting.

Build a model with :func:`load_model` from a spec (``offline``, ``oracle``, ``openai/<model>``,
``hf/<path>``, ``llamacpp/<file.gguf | name>``). Backend modules are imported only when their
spec is used.
"""

from umb.models._api import GenerateRequest, GenerateResult, Message, ModelAPI, Role
from umb.models._cache import ResponseCache, cache_key
from umb.models._factory import ROLES, SPEC_FORMS, load_model
from umb.models._loaded import LoadedModel
from umb.models._options import ModelOptions
from umb.models._usage import RoleUsage, UsageMeter, percentile

__all__ = [
    "ROLES",
    "SPEC_FORMS",
    "GenerateRequest",
    "GenerateResult",
    "LoadedModel",
    "Message",
    "ModelAPI",
    "ModelOptions",
    "ResponseCache",
    "Role",
    "RoleUsage",
    "UsageMeter",
    "cache_key",
    "load_model",
    "percentile",
]
