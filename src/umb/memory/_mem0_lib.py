"""``mem0``: the real mem0 library (``mem0ai``, the ``mem0`` extra) as a memory system.

Configured to run offline: mem0's LLM is umb's extractor model (any spec that is a language
model; its cache, retries and usage accounting apply), its embedder is umb's bundled wordllama
or an OpenAI-compatible embeddings endpoint, its vector store is Qdrant in local mode, and its
vector store, history database and home folder all live in a folder of the run directory.
Telemetry is off.

Write path: each session goes to ``AsyncMemory.add`` as one conversation, the character's
turns as the ``user`` role (mem0 remembers facts about the user), each prefixed with its
speaker's name, with the session's date in the metadata and in mem0's custom instructions (so
relative dates resolve against the session, not today). mem0 2.x extracts and adds in one LLM
call; it no longer decides UPDATE or DELETE inside ``add``. Each new memory gets the turns it
came from (the session turns sharing the most words with it) as ``source_turn_ids``; mem0's
payload keeps the session's id and turn ids.

Read path: ``AsyncMemory.search`` for the question, ``top_k`` results among the memories of
sessions before ``question.asked_at``, rendered ``[date] text`` in time order.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import tempfile
import uuid
import weakref
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from umb._errors import ConfigError, MissingDependencyError
from umb.bench import Dialogue, Question, Session
from umb.memory._api import MemoryConfig, MemorySystem, RetrievedContext
from umb.memory._mem0_parts import (
    NOWHERE,
    WORDLLAMA_DIMS,
    ExtractorLLM,
    WordLlamaEmbedder,
    close_memory,
    endpoint_dims,
    import_mem0,
    mem0_available,
    mem0_config,
)
from umb.memory._mem0_rules import CandidateFact, attribute_turns, character_name
from umb.memory._render import render_units
from umb.memory._tracing import read_items, tracing
from umb.memory._write_trace import BatchTrace, wrote
from umb.models import ModelAPI
from umb.trace import memory_var

RUN_DIR_ENV = "UMB_RUN_DIR"
EMBEDDER_ENV = "UMB_MEM0_EMBEDDER"
EMBEDDER_BASE_URL_ENV = "UMB_MEM0_EMBEDDER_BASE_URL"


@dataclass(frozen=True)
class Mem0Options:
    """Where mem0 keeps its files and which embedder it uses.

    :func:`~umb.memory.build_memory` takes them from the environment (:meth:`from_env`).
    """

    run_dir: Path | None = None
    """Run directory; mem0's files go under ``<run_dir>/mem0/``. None: a temporary folder,
    removed when the memory system is closed or collected. From ``$UMB_RUN_DIR``."""
    embedder: str = "wordllama"
    """``wordllama`` (bundled, in-process) or ``openai/<model>`` (an OpenAI-compatible
    ``/v1/embeddings`` endpoint). From ``$UMB_MEM0_EMBEDDER``."""
    embedder_base_url: str | None = None
    """Endpoint of an ``openai/<model>`` embedder; None: the extractor's endpoint, then
    ``$OPENAI_BASE_URL``. From ``$UMB_MEM0_EMBEDDER_BASE_URL``."""
    threshold: float = 0.0
    """mem0's minimum similarity for a search hit (mem0's own default is 0.1); 0 returns
    ``top_k`` memories whenever there are that many, like the other systems."""

    def __post_init__(self) -> None:
        if self.embedder != "wordllama" and not (
            self.embedder.startswith("openai/") and len(self.embedder) > len("openai/")
        ):
            raise ConfigError(
                f"mem0 embedder must be 'wordllama' or 'openai/<model>', not {self.embedder!r}"
            )
        if not 0.0 <= self.threshold <= 1.0:
            raise ConfigError(f"mem0 threshold must be between 0 and 1, not {self.threshold}")

    @classmethod
    def from_env(cls) -> Mem0Options:
        """Options from ``$UMB_RUN_DIR``, ``$UMB_MEM0_EMBEDDER`` and
        ``$UMB_MEM0_EMBEDDER_BASE_URL``."""
        run_dir = os.environ.get(RUN_DIR_ENV)
        return cls(
            run_dir=Path(run_dir) if run_dir else None,
            embedder=os.environ.get(EMBEDDER_ENV) or "wordllama",
            embedder_base_url=os.environ.get(EMBEDDER_BASE_URL_ENV) or None,
        )


def _order(when: str) -> int:
    """``YYYY-MM-DDTHH:MM`` as a number that sorts the same way (mem0 filters compare numbers)."""
    return int("".join(c for c in when if c.isdigit()).ljust(12, "0")[:12])


class Mem0Library(MemorySystem):
    """The mem0 library behind umb's memory interface. See the module docstring."""

    name = "mem0"
    description = "The mem0 library itself as the memory system."
    ranked = True

    def __init__(
        self,
        config: MemoryConfig,
        extractor: ModelAPI | None = None,
        *,
        options: Mem0Options | None = None,
    ) -> None:
        super().__init__(config, extractor)
        self.options = options or Mem0Options.from_env()
        if self.options.run_dir is None and config.work_dir is not None:
            self.options = replace(self.options, run_dir=config.work_dir)
        self.stats: Counter[str] = Counter()
        self.folder: Path | None = None
        """This instance's folder (vector store and history), made on first use."""
        self._user_id = "umb"
        self._memory: Any = None
        self._llm: ExtractorLLM | None = None
        self._llm_error: type[Exception] = Exception
        # Memory id -> the turns it was attributed to. Kept here rather than in mem0's payload:
        # local Qdrant commits every write to disk, and a second write per memory doubled the
        # cost of ingesting a session.
        self._sources: dict[str, tuple[str, ...]] = {}
        # mem0's memory ids are random uuids; the trace names units m1, m2, … in creation order
        # so that a re-run of the same dialogue names them the same way.
        self._unit_ids: dict[str, str] = {}
        self._closer: weakref.finalize[Any, Any] | None = None

    def start(self, dialogue: Dialogue) -> None:
        """Check the extractor and the library before any work; memories are kept per dialogue."""
        self._check()
        # mem0 refuses ids with spaces; the folder name wants no separators either.
        self._user_id = re.sub(r"[^A-Za-z0-9_.-]", "_", dialogue.id.strip()) or "umb"

    def _check(self) -> None:
        if not self.uses_llm:
            spec = self.extractor.spec if self.extractor is not None else "none"
            raise ConfigError(
                f"the mem0 memory system needs a language-model extractor (e.g. --extractor "
                f"openai/<model>), not {spec}"
            )
        if not mem0_available():
            raise MissingDependencyError("mem0ai", "mem0")

    # --- set-up -------------------------------------------------------------------------------

    async def _ready(self) -> Any:
        """mem0's ``AsyncMemory`` for this instance, built on first use, bound to this loop."""
        if self._memory is None:
            self._check()
            assert self.extractor is not None
            self._llm = ExtractorLLM(self.extractor, self.stats)
            self._memory = await asyncio.to_thread(self._build)
        assert self._llm is not None
        self._llm.loop = asyncio.get_running_loop()
        return self._memory

    def _build(self) -> Any:
        root = self._root()
        mem0 = import_mem0(root / "home")
        self._llm_error = mem0.exceptions.LLMError
        self.folder = root / f"{self._user_id}-{uuid.uuid4().hex[:8]}"
        self.folder.mkdir(parents=True)
        if self.options.embedder == "wordllama":
            dims = WORDLLAMA_DIMS
            embedder: dict[str, Any] = {
                "provider": "openai",
                "config": {"model": "umb-wordllama", "api_key": "unused",
                           "openai_base_url": NOWHERE, "embedding_dims": dims},
            }  # fmt: skip
        else:
            url, key = self._embedder_endpoint()
            model = self.options.embedder.split("/", 1)[1]
            dims = endpoint_dims(url, model, key)
            embedder = {
                "provider": "openai",
                "config": {"model": model, "api_key": key, "openai_base_url": url},
            }
        memory = mem0.AsyncMemory.from_config(mem0_config(self.folder, dims, embedder))
        # Closed when this instance goes (the runner drops one per dialogue) or at exit,
        # before the temporary folder of _root is removed (finalizers run newest first).
        self._closer = weakref.finalize(self, close_memory, memory)
        memory.llm = self._llm
        if self.options.embedder == "wordllama":
            memory.embedding_model = WordLlamaEmbedder()
        return memory

    def _root(self) -> Path:
        if self.options.run_dir is not None:
            return self.options.run_dir / "mem0"
        root = Path(tempfile.mkdtemp(prefix="umb-mem0-"))
        weakref.finalize(self, shutil.rmtree, root, True)
        return root

    def _embedder_endpoint(self) -> tuple[str, str]:
        backend = getattr(self.extractor, "backend", self.extractor)
        url = (
            self.options.embedder_base_url
            or getattr(backend, "base_url", None)
            or os.environ.get("OPENAI_BASE_URL")
        )
        if not url:
            raise ConfigError(
                f"the mem0 embedder {self.options.embedder} needs an endpoint: "
                f"set ${EMBEDDER_BASE_URL_ENV}"
            )
        options = getattr(backend, "options", None)
        key_env = getattr(options, "api_key_env", "OPENAI_API_KEY")
        return str(url), os.environ.get(key_env) or "unused"

    def close(self) -> None:
        """Close mem0's history database and vector store; their files stay in the folder."""
        self._memory = None
        if self._closer is not None:
            self._closer()

    # --- write --------------------------------------------------------------------------------

    async def ingest(self, session: Session) -> None:
        """``add`` the session's turns to mem0, then record where each new memory came from."""
        memory = await self._ready()
        name = character_name(session)
        messages = [
            {
                "role": "user" if turn.role == "assistant" else "assistant",
                "content": f"{turn.speaker}: {turn.text}",
            }
            for turn in session.turns
        ]
        metadata = {
            "session_id": session.id,
            "session_at": session.started_at,
            "session_order": _order(session.started_at),
            "turn_ids": [turn.id for turn in session.turns],
        }
        batch = BatchTrace(session)
        assert self._llm is not None
        tokens = self._llm.tokens()
        with batch.extract(self._llm.extractor.spec) as op:
            try:
                added = await memory.add(
                    messages,
                    user_id=self._user_id,
                    metadata=metadata,
                    prompt=self._instructions(session, name),
                )
            except self._llm_error as e:
                self.stats["skipped_batches"] += 1  # counted in failed_calls by the bridge
                op.fail(f"mem0 add failed: {e}")
                return
            finally:
                used_in, used_out = self._llm.tokens()
                op.usage(None, used_in - tokens[0], used_out - tokens[1])
            rows = list(added.get("results", []))
            facts = []
            for row in rows:
                self.stats[str(row.get("event", "ADD"))] += 1
                sources = attribute_turns(str(row["memory"]), session)
                self._sources[str(row["id"])] = sources
                facts.append(CandidateFact(str(row["memory"]), sources))
            batch.candidates(op, facts)
        if tracing():
            self._trace_events(batch, rows, facts)

    def _trace_events(
        self, batch: BatchTrace, rows: list[dict[str, Any]], facts: list[CandidateFact]
    ) -> None:
        """What mem0 did with each extracted fact, as ``add``/``update``/``delete`` operations.

        mem0 applies them inside ``add``; they are recorded after it returns.
        """
        for row, fact in zip(rows, facts, strict=True):
            event = str(row.get("event", "ADD")).lower()
            if event not in ("add", "update", "delete"):
                continue
            uid = self._unit_id(str(row["id"]))
            with batch.apply(event, fact, None if event == "add" else uid) as op:
                if event == "delete":
                    op.delete(memory_var(uid))
                else:
                    wrote(op, uid, fact.text)

    def _unit_id(self, mem0_id: str) -> str:
        """The trace's name of a mem0 memory: ``m<n>`` in order of first appearance."""
        found = self._unit_ids.get(mem0_id)
        if found is None:
            found = self._unit_ids[mem0_id] = f"m{len(self._unit_ids) + 1}"
        return found

    @staticmethod
    def _instructions(session: Session, name: str) -> str:
        day, _, clock = session.started_at.partition("T")
        return (
            f"This conversation took place on {day}{' at ' + clock if clock else ''}. Use "
            f"{day} as the Observation Date: resolve relative dates ('yesterday', 'last "
            f"Tuesday', 'next month') against it, never against the Current Date. The user is "
            f"{name}: write '{name}' instead of 'User'. Each message starts with its speaker's "
            "name."
        )

    # --- read ---------------------------------------------------------------------------------

    async def retrieve(self, question: Question) -> RetrievedContext:
        """``search`` mem0 for the question among memories of sessions before it was asked."""
        memory = await self._ready()
        filters: dict[str, Any] = {"user_id": self._user_id}
        if question.asked_at:
            filters["session_order"] = {"lt": _order(question.asked_at)}
        found = await memory.search(
            question.query,
            top_k=self.config.top_k,
            filters=filters,
            threshold=self.options.threshold,
        )
        rows = list(found.get("results", []))
        if tracing():
            read_items(memory_var(self._unit_id(str(r["id"]))) for r in rows)
        ranked = {str(row["id"]): rank for rank, row in enumerate(rows)}
        rows.sort(key=lambda r: (_meta(r).get("session_at", ""), ranked[str(r["id"])]))
        turn_ids = dict.fromkeys(t for r in rows for t in self._turns_of(r))
        return self._context(
            render_units((_meta(r).get("session_at", ""), str(r["memory"])) for r in rows),
            item_ids=tuple(str(r["id"]) for r in rows),
            source_turn_ids=tuple(str(t) for t in turn_ids),
            scores=[round(float(r.get("score") or 0.0), 4) for r in rows],
            extractor=self.extractor.spec if self.extractor is not None else "none",
            embedder=self.options.embedder,
            write_stats=dict(sorted(self.stats.items())),
        )

    def _turns_of(self, row: dict[str, Any]) -> tuple[str, ...]:
        """The turns a memory came from; all turns of its session if it was not attributed."""
        found = self._sources.get(str(row["id"]))
        if found is not None:
            return found
        return tuple(str(t) for t in _meta(row).get("turn_ids", ()))


def _meta(row: dict[str, Any]) -> dict[str, Any]:
    meta = row.get("metadata")
    return meta if isinstance(meta, dict) else {}
