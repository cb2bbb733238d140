"""umb (UnifiedMemBench): measure memory in LLMs and LLM memory systems."""

from umb._errors import (
    ConfigError,
    DataError,
    EndpointError,
    EndpointTimeout,
    MissingDependencyError,
    RateLimited,
    UmbError,
)

__version__ = "0.1.0"

__all__ = [
    "ConfigError",
    "DataError",
    "EndpointError",
    "EndpointTimeout",
    "MissingDependencyError",
    "RateLimited",
    "UmbError",
    "__version__",
]
