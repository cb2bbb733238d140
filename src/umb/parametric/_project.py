"""Reading a prepared project: its stages, training texts and evaluation items."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from umb._errors import DataError
from umb._jsonio import iter_jsonl, read_json
from umb.bench import Question
from umb.parametric import _layout as L
from umb.parametric._config import PrepareConfig, Split
from umb.parametric._records import join_prompt, render_output


@dataclass(frozen=True, slots=True)
class EvalItem:
    """One evaluation question of one stage and split."""

    item_id: str
    prompt: str
    output: str
    """The gold answer JSON."""
    spans: list[tuple[int, int]]
    """Where the values sit in ``output``."""
    question: Question


@dataclass(frozen=True)
class Project:
    """A project directory written by :func:`umb.parametric.prepare`."""

    root: Path

    @classmethod
    def open(cls, root: str | Path) -> Project:
        """Open ``root``; it must hold a ``project.json`` of this format."""
        project = cls(Path(root))
        manifest = project.manifest
        if manifest.get("format") != L.PROJECT_FORMAT:
            raise DataError(str(project.root / L.PROJECT_FILE), None, "not a parametric project")
        return project

    @cached_property
    def manifest(self) -> dict[str, Any]:
        data = read_json(self.root / L.PROJECT_FILE)
        if not isinstance(data, dict):
            raise DataError(str(self.root / L.PROJECT_FILE), None, "not a JSON object")
        return data

    @property
    def config(self) -> PrepareConfig:
        return PrepareConfig.from_dict(self.manifest["config"])

    @property
    def stages(self) -> int:
        return int(self.manifest["config"]["stages"])

    @property
    def content_hash(self) -> str:
        """A hash over the project's file hashes."""
        h = hashlib.sha256()
        for name, digest in sorted(self.manifest.get("files", {}).items()):
            h.update(f"{name}={digest};".encode())
        return h.hexdigest()

    def _records(self, name: str) -> list[dict[str, Any]]:
        path = self.root / name
        if not path.exists():
            return []
        records: list[dict[str, Any]] = [r for _, r in iter_jsonl(path, dict)]
        return records

    def pretraining_texts(self, stage: int) -> list[str]:
        """The stage's pre-training texts, header and body joined as LLaMA-Factory joins them."""
        out = []
        for r in self._records(L.pt_file(stage)):
            out.append(r["text"] if "text" in r else join_prompt(r["instruction"], r["input"]))
        return out

    def supervised_pairs(self, stage: int) -> list[tuple[str, str]]:
        """The stage's QA fine-tuning ``(prompt, answer JSON)`` pairs."""
        return [
            (join_prompt(r["instruction"], r["input"]), r["output"])
            for r in self._records(L.sft_file(stage))
        ]

    def eval_items(
        self, stage: int, split: Split, *, limit: int = 0, seed: int = 0
    ) -> list[EvalItem]:
        """The evaluation items of one stage and split; ``limit`` > 0 takes a seeded sample."""
        items = []
        path = self.root / L.eval_file(stage, split)
        rows: list[tuple[int, dict[str, Any]]] = (
            list(iter_jsonl(path, dict)) if path.exists() else []
        )
        for lineno, r in rows:
            try:
                question = Question.from_dict(r["metadata"]["question"])
            except (KeyError, TypeError) as e:
                raise DataError(str(path), lineno, f"bad evaluation record ({e})") from None
            output, spans = render_output(question)
            items.append(EvalItem(r["id"], r["prompt"], output, spans, question))
        if 0 < limit < len(items):
            rng = random.Random(f"{seed}:{stage}:{split}")
            keep = sorted(rng.sample(range(len(items)), limit))
            items = [items[i] for i in keep]
        return items
