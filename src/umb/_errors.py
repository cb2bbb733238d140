"""The one exception tree of umb.

    UmbError
    ├── ConfigError            bad option, preset, spec or config value
    ├── DataError              a file on disk is broken (names file, line, reason)
    ├── MissingDependencyError an optional extra is not installed
    └── EndpointError          a model endpoint failed for good
        ├── RateLimited        HTTP 429 after all retries
        ├── EndpointTimeout    the request timed out after all retries
        └── AllCallsFailed     every model call of a command failed (exit status 3)

The CLI prints any UmbError as one line on stderr and exits with its ``exit_status``: 2 for bad
input, 3 when a command ran but every model call failed (docs/errors.md).
``ConfigError`` and ``DataError`` are also ``ValueError``\ s, so code that caught the bare
``ValueError`` these conditions used to raise keeps working.
"""

from __future__ import annotations


class UmbError(Exception):
    """Base class of every error umb raises on purpose."""

    exit_status: int = 2
    """What the ``umb`` command exits with when this error ends it."""


class ConfigError(UmbError, ValueError):
    """An option, preset, model spec or config value is invalid."""


class DataError(UmbError, ValueError):
    """A file is broken; the message reads ``file:line: reason``."""

    def __init__(self, path: str, line: int | None, reason: str) -> None:
        self.path = path
        self.line = line
        self.reason = reason
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {reason}")


class MissingDependencyError(UmbError):
    """An optional dependency is missing; the message names the extra to install."""

    def __init__(self, package: str, extra: str) -> None:
        super().__init__(
            f"{package} is not installed; install it with: pip install 'unifiedmembench[{extra}]'"
        )


class EndpointError(UmbError):
    """A model endpoint failed after all retries."""


class RateLimited(EndpointError):
    """The endpoint kept answering HTTP 429."""


class EndpointTimeout(EndpointError):
    """The endpoint kept timing out."""


class AllCallsFailed(EndpointError):
    """A command ran to the end but every model call failed: its numbers measure nothing."""

    exit_status = 3
