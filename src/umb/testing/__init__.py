"""Test helpers: a real OpenAI-compatible server process with scriptable behaviour.

Start one with :func:`running_server` (a context manager yielding an :class:`OpenAIServer`
handle) or from the shell with ``python -m umb.testing.openai_server``. The server itself needs
the ``testing`` extra (starlette, uvicorn); this package imports neither.
"""

from umb.testing._process import OpenAIServer, running_server
from umb.testing._script import Rule, Settings

__all__ = ["OpenAIServer", "Rule", "Settings", "running_server"]
