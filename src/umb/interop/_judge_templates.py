"""Judge prompt templates that the user supplies: a JSON file, or their own LongMemEval checkout.

umb ships its own wording for each peer judge (labelled ``umb`` in records and results); the
authors' exact prompts are not copied into umb. To score with them, give either

- ``--judge-template FILE``: ``{"format": "umb-judge-templates", "scorer": NAME,
  "templates": {KEY: TEXT}}``, each TEXT a ``str.format`` template over the scorer's fields
  (docs/interop.md lists the keys and fields per judge); or
- ``--judge-template-from PATH`` (LongMemEval only): the user's checkout of the authors'
  repository. umb reads ``src/evaluation/evaluate_qa.py`` there, takes the function
  ``get_anscheck_prompt`` out of it and calls it; the rest of that module (its API client) is
  never run.

Every record and summary names the template set (``umb``, ``file:<name>`` or ``checkout``) and
the SHA-256 of its text, so runs scored with different prompts are told apart.
"""

from __future__ import annotations

import ast
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from umb._errors import ConfigError, DataError
from umb.interop._common import read_peer_json, text_hash

TEMPLATES_FORMAT = "umb-judge-templates"
CHECKOUT_FILE = Path("src") / "evaluation" / "evaluate_qa.py"

Render = Callable[[str, Mapping[str, Any]], str]
"""(template key, fields) -> the filled prompt."""


@dataclass(frozen=True)
class TemplateSet:
    """Where a judge's prompts come from, their hash, and how to fill one."""

    name: str
    sha256: str
    render: Render


def builtin(templates: Mapping[str, str]) -> TemplateSet:
    """umb's own wording."""
    return TemplateSet("umb", _hash(templates), lambda key, f: templates[key].format(**f))


def _hash(templates: Mapping[str, str]) -> str:
    return text_hash("\x00".join(f"{k}={v}" for k, v in sorted(templates.items())))


def judge_templates_from_file(
    path: Path, scorer: str, keys: Sequence[str], fields: Sequence[str]
) -> TemplateSet:
    """Templates from a JSON file (see the module docstring).

    Raises:
        DataError: Not a template file for ``scorer``, a key missing, or a field unknown.
    """
    data = read_peer_json(path)
    if not isinstance(data, dict) or data.get("format") != TEMPLATES_FORMAT:
        raise DataError(
            str(path), None, f'not a judge template file ("format": "{TEMPLATES_FORMAT}")'
        )
    if data.get("scorer") != scorer:
        raise DataError(
            str(path), None, f"templates are for {data.get('scorer')!r}, not {scorer!r}"
        )
    templates = data.get("templates")
    if not isinstance(templates, dict):
        raise DataError(str(path), None, "'templates' must be an object of texts")
    for key in keys:
        text = templates.get(key)
        if not isinstance(text, str):
            raise DataError(str(path), None, f"templates lack a text for {key!r}")
        used = {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
        if used - set(fields):
            bad = sorted(used - set(fields))[0]
            raise DataError(
                str(path), None, f"template {key!r} uses {{{bad}}}; fields: {', '.join(fields)}"
            )
    chosen = {k: str(templates[k]) for k in keys}
    return TemplateSet(f"file:{path.name}", _hash(chosen), lambda k, f: chosen[k].format(**f))


def judge_templates_from_checkout(root: Path) -> TemplateSet:
    """``get_anscheck_prompt`` of the LongMemEval checkout at ``root``, called per prompt.

    Raises:
        ConfigError: The file is missing or defines no such function.
    """
    path = root / CHECKOUT_FILE
    try:
        source = path.read_text(encoding="utf-8")
    except OSError:
        raise ConfigError(f"{path}: not found; give the root of a LongMemEval checkout") from None
    tree = ast.parse(source, filename=str(path))
    fn = next(
        (
            n
            for n in tree.body
            if isinstance(n, ast.FunctionDef) and n.name == "get_anscheck_prompt"
        ),
        None,
    )
    if fn is None:
        raise ConfigError(f"{path}: defines no get_anscheck_prompt")
    namespace: dict[str, Any] = {}
    # Only the function itself runs: the module's imports and API client stay untouched.
    exec(compile(ast.Module([fn], []), str(path), "exec"), namespace)  # noqa: S102
    call = namespace["get_anscheck_prompt"]

    def render(key: str, fields: Mapping[str, Any]) -> str:
        out = call(
            fields["question_type"],
            fields["question"],
            fields["answer"],
            fields["response"],
            abstention=key == "abstention",
        )
        return str(out)

    return TemplateSet("checkout", text_hash(ast.get_source_segment(source, fn) or ""), render)
