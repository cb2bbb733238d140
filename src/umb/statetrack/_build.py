"""``umb statetrack build``: state facts and the prompt ladder, written to a directory.

Layout::

    OUT/facts.json        {character name: [{fact, fact_id, timestamp, state_repr, schema}]}
                          (the original release's contract, exactly five fields per record)
    OUT/facts.jsonl       the same facts with character id, value, day and source fact id
    OUT/levels/L01.jsonl  one sample per line (lines as (character id, fact id) references,
                          tasks with query, gold and accepted answers, sizes)
    OUT/ladder.json       options, schema rule, and per level: configuration, sizes, shortfall
"""

from __future__ import annotations

import hashlib
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Final

from umb._errors import DataError
from umb._jsonio import AtomicJsonlWriter, atomic_write_bytes, dumps_pretty, iter_jsonl, read_json
from umb.bench import Benchmark
from umb.statetrack._facts import StateFact, build_state_facts, facts_contract
from umb.statetrack._ladder import FactPool, LadderOptions, build_sample
from umb.statetrack._levels import LEVELS, Level, level
from umb.statetrack._prompts import Line, render_prompt
from umb.statetrack._tasks import TaskName

LADDER_FORMAT: Final = "umb-statetrack-ladder"
LADDER_VERSION: Final = 1
SCHEMA_RULE: Final = (
    "tracked attribute for the initial state and every state change; "
    "'<event kind> <slot>' for every other slot; 'it happened' facts and slots that repeat "
    "their event's own state change are left out"
)


def _level_summary(lv: Level, samples: list[dict[str, Any]], pool: FactPool) -> dict[str, Any]:
    lines = [s["meta"]["stats"]["target_lines"] for s in samples]
    tokens: dict[str, float] = {}
    for task in samples[0]["meta"]["stats"]["prompts"]:
        tokens[task] = round(
            statistics.fmean(s["meta"]["stats"]["prompts"][task]["est_tokens"] for s in samples), 1
        )
    short = [s for s in samples if s["meta"]["short"]]
    return {
        "level": lv.name,
        "characters": lv.characters,
        "schemas": lv.schemas,
        "facts": lv.facts,
        "expected_lines": lv.lines,
        "samples": len(samples),
        "min_lines": min(lines),
        "max_lines": max(lines),
        "mean_lines": round(statistics.fmean(lines), 2),
        "avg_est_tokens": tokens,
        "eligible_characters": len(pool.eligible(lv)),
        "short_samples": len(short),
        "file": f"levels/{lv.name}.jsonl",
    }


def build_ladder(
    bench_dir: Path,
    out: Path,
    options: LadderOptions | None = None,
    levels: Sequence[Level] = LEVELS,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Build the state facts of ``bench_dir`` and the ladder's samples into ``out``.

    Args:
        bench_dir: A generated benchmark directory (it needs ``world.json``).
        out: Output directory (created; files of an earlier build are replaced).
        options: Samples per level, seed, line order, date style, distractors, tasks.
        levels: Which levels to draw (default all 34).
        progress: Called with one line per finished level.

    Returns:
        The ladder manifest written to ``out/ladder.json``.

    Raises:
        DataError: The benchmark has no world or inconsistent facts.
    """
    opts = options or LadderOptions()
    started = time.perf_counter()
    bench = Benchmark.open(bench_dir)
    facts = build_state_facts(bench)
    facts_s = time.perf_counter() - started
    pool = FactPool(facts)
    atomic_write_bytes(out / "facts.json", dumps_pretty(facts_contract(facts)))
    with AtomicJsonlWriter(out / "facts.jsonl") as w:
        w.write_many(f.to_dict() for fs in facts.values() for f in fs)
    summaries = []
    for lv in levels:
        samples = [build_sample(pool, lv, opts, n + 1) for n in range(opts.samples)]
        with AtomicJsonlWriter(out / "levels" / f"{lv.name}.jsonl") as w:
            w.write_many(samples)
        summaries.append(_level_summary(lv, samples, pool))
        if progress is not None:
            s = summaries[-1]
            flag = f", SHORT in {s['short_samples']} samples" if s["short_samples"] else ""
            tokens = ", ".join(f"{t} {n:,.0f}" for t, n in s["avg_est_tokens"].items())
            progress(f"{lv.name}: {s['mean_lines']} lines; tokens: {tokens}{flag}")
    n_schemas = sum(len(g) for g in pool.groups.values())
    manifest = {
        "format": LADDER_FORMAT,
        "format_version": LADDER_VERSION,
        "bench": {"content_hash": bench.content_hash, "seed": bench.manifest.get("seed")},
        "options": {**asdict(opts), "tasks": list(opts.tasks)},
        "schema_rule": SCHEMA_RULE,
        "facts": {
            "characters": len(facts),
            "facts": sum(len(fs) for fs in facts.values()),
            "schemas": n_schemas,
        },
        "levels": summaries,
        "timings_s": {"facts": round(facts_s, 3), "total": round(time.perf_counter() - started, 3)},
    }
    atomic_write_bytes(out / "ladder.json", dumps_pretty(manifest))
    return manifest


@dataclass(frozen=True)
class Ladder:
    """A built ladder directory, read back for evaluation and export."""

    root: Path

    @classmethod
    def open(cls, root: str | Path) -> Ladder:
        """Open ``root`` (written by :func:`build_ladder`).

        Raises:
            DataError: It is not a ladder directory.
        """
        path = Path(root)
        manifest = read_json(path / "ladder.json")
        if not isinstance(manifest, dict) or manifest.get("format") != LADDER_FORMAT:
            raise DataError(str(path / "ladder.json"), None, "not a state-tracking ladder")
        return cls(path)

    @cached_property
    def manifest(self) -> dict[str, Any]:
        data = read_json(self.root / "ladder.json")
        assert isinstance(data, dict)
        return data

    @cached_property
    def content_hash(self) -> str:
        """sha256 of ``ladder.json`` less its timings (same build, same hash)."""
        body = {k: v for k, v in self.manifest.items() if k != "timings_s"}
        return hashlib.sha256(dumps_pretty(body)).hexdigest()

    @cached_property
    def pool(self) -> FactPool:
        facts: dict[str, list[StateFact]] = {}
        for _, f in iter_jsonl(self.root / "facts.jsonl", StateFact.from_dict):
            facts.setdefault(f.character_id, []).append(f)
        return FactPool(facts)

    def levels(self) -> list[Level]:
        """The levels this ladder holds, in ladder order."""
        return [level(s["level"]) for s in self.manifest["levels"]]

    def samples(self, lv: Level, limit: int | None = None) -> Iterator[dict[str, Any]]:
        """The samples of ``lv`` in order (the first ``limit`` only when given)."""
        rows: Iterator[tuple[int, dict[str, Any]]] = iter_jsonl(
            self.root / "levels" / f"{lv.name}.jsonl"
        )
        for i, (_, sample) in enumerate(rows):
            if limit is not None and i >= limit:
                return
            yield sample

    def lines(self, sample: dict[str, Any]) -> list[StateFact]:
        """The facts of a sample's lines, in the order shown.

        Raises:
            DataError: A line refers to a fact the ladder does not hold.
        """
        try:
            return [self.pool.index[(cid, fid)] for cid, fid in sample["lines"]]
        except KeyError as e:
            raise DataError(
                str(self.root), None, f"sample {sample['sample_id']}: no fact {e}"
            ) from None

    def prompt(self, sample: dict[str, Any], task: dict[str, Any]) -> str:
        """The prompt of one task entry of ``sample``, as the model sees it."""
        meta = sample["meta"]
        shown = self.lines(sample)
        names = set(meta["chosen_characters"])
        task_name: TaskName = task["Task"]
        return render_prompt(
            task_name,
            [Line(f.schema, f.day, f.fact) for f in shown],
            meta["chosen_characters"],
            task["Query"],
            style=meta["dates"],
            order=meta["order"],
            reference=meta["reference_day"],
            others=any(f.character not in names for f in shown),
        )
