"""``umb parametric prepare``: a benchmark directory -> a stagewise training project."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from dataclasses import asdict
from pathlib import Path
from typing import Any

from umb._errors import DataError
from umb._jsonio import AtomicJsonlWriter, atomic_write_bytes, dumps_pretty
from umb.bench import Benchmark, Dialogue, Question
from umb.parametric import _layout as L
from umb.parametric._chunks import chunk_lines, dialogue_lines
from umb.parametric._config import SPLITS, PrepareConfig
from umb.parametric._llamafactory import dataset_info
from umb.parametric._records import (
    instruction,
    join_prompt,
    natural_header,
    reference,
    render_output,
    structured_header,
    upweight,
)
from umb.parametric._stages import Assignment, build_assignments


def _character_names(bench: Benchmark, dialogues: list[Dialogue]) -> dict[str, str]:
    names = {c["id"]: c["name"] for c in bench.world.get("characters", []) if "id" in c}
    for d in dialogues:
        if d.character_id not in names:
            # Imported benchmarks may have no world: the character is whoever speaks as assistant.
            speaker = next((t.speaker for t in d.turns() if t.role == "assistant"), "")
            names[d.character_id] = speaker or d.character_id
    return names


def _pt_records(
    dialogue: Dialogue, a: Assignment, qa_count: int, bench: Benchmark, config: PrepareConfig
) -> Iterator[dict[str, Any]]:
    texts: list[tuple[str, int, int, int]] = []  # (text, start turn, end turn, tokens)
    if config.pt_mode in ("windows", "both"):
        lines = dialogue_lines(dialogue, config.line_style)
        for w in chunk_lines(
            lines,
            mode=config.chunking,
            max_tokens=config.max_chunk_tokens,
            overlap_tokens=config.overlap_tokens,
        ):
            texts.append((w.text, w.start, w.end - 1, w.approx_tokens))
    if config.pt_mode in ("facts", "both"):
        stated: dict[str, int] = {}
        for i, turn in enumerate(dialogue.turns()):
            for fid in turn.fact_ids:
                stated.setdefault(fid, i)
        for fid, turn_index in stated.items():
            fact = bench.facts.get(fid)
            if fact is not None:
                texts.append((fact.text, turn_index, turn_index, (len(fact.text) + 3) // 4))
    sessions = dialogue.sessions
    first = sessions[0].started_at[:10] if sessions else ""
    last = sessions[-1].started_at[:10] if sessions else ""
    person = dialogue.interlocutor
    for k, (text, start, end, tokens) in enumerate(texts):
        if config.pt_header_style == "natural":
            header = natural_header(a.character, person.name, person.role)
        else:
            header = structured_header(a.character, a.stage, k + 1, len(texts), first, last)
        metadata = {
            "dialogue_id": dialogue.id,
            "dialogue_stage": a.stage,
            "character": a.character,
            "character_id": a.character_id,
            "split": a.split,
            "chunk_id": f"{dialogue.id}::chunk_{k:04d}",
            "num_chunks": len(texts),
            "chunk_start_turn": start,
            "chunk_end_turn": end,
            "approx_tokens": tokens,
            "qa_count": qa_count,
            "training_mode": "pt",
            "pt_header_style": config.pt_header_style,
            "pt_record_style": config.pt_record_style,
        }
        if config.pt_record_style == "alpaca":
            yield {"instruction": header, "input": text, "output": "", "metadata": metadata}
        else:
            yield {"text": f"{header}\n{text}", "metadata": metadata}


def _qa_metadata(q: Question, a: Assignment) -> dict[str, Any]:
    return {
        "task_type": q.family,
        "dialogue_id": q.dialogue_id,
        "dialogue_stage": a.stage,
        "character": a.character,
        "query": q.query,
        "gold_answer": reference(q),
        "answer_components": list(q.answer_components),
        "source_event_ids": list(q.evidence.event_ids),
        "question_id": q.id,
    }


def _sft_records(
    questions: list[Question], a: Assignment, config: PrepareConfig
) -> Iterator[dict[str, Any]]:
    if config.qa_sampling == "upweight":
        picked = upweight(questions, config.qa_max_per_character)
    else:
        picked = [(q, 0) for q in questions]
    for q, copy in picked:
        meta = {**_qa_metadata(q, a), "training_mode": "qa_sft", "resampled_copy_index": copy}
        yield {
            "instruction": instruction(q, a.character, config.instructions),
            "input": q.query,
            "output": render_output(q)[0],
            "metadata": meta,
        }


def _eval_record(q: Question, index: int, a: Assignment, config: PrepareConfig) -> dict[str, Any]:
    return {
        "id": f"{q.dialogue_id}::{q.family}::{index}",
        "prompt": join_prompt(instruction(q, a.character, config.instructions), q.query),
        "reference": reference(q),
        "metadata": {
            **_qa_metadata(q, a),
            "split": a.split,
            "output": render_output(q)[0],
            "question": asdict(q),
        },
    }


def _stage_row(stage: int, members: Sequence[Assignment]) -> dict[str, Any]:
    row: dict[str, Any] = {"stage": stage}
    for s in SPLITS:
        row[f"{s}_characters"] = [a.character for a in members if a.split == s]
        row[f"{s}_character_ids"] = [a.character_id for a in members if a.split == s]
    return row


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def prepare(bench_dir: str | Path, out: str | Path, config: PrepareConfig) -> dict[str, Any]:
    """Write a parametric project for the benchmark at ``bench_dir`` into ``out``.

    Args:
        bench_dir: A benchmark directory (``umb generate`` or an import).
        out: The project directory (created; files already there are replaced).
        config: Stages, splits, chunking and record styles.

    Returns:
        The project manifest (also written as ``project.json``).

    Raises:
        DataError: The benchmark is unreadable or has fewer dialogues than stages.
    """
    bench = Benchmark.open(bench_dir)
    root = Path(out)
    dialogues = sorted(bench.iter_dialogues(), key=lambda d: d.id)
    if len(dialogues) < config.stages:
        raise DataError(
            str(bench.root), None, f"{len(dialogues)} dialogues cannot fill {config.stages} stages"
        )
    names = _character_names(bench, dialogues)
    assignments = build_assignments(
        [(d.id, d.character_id, names[d.character_id]) for d in dialogues],
        stages=config.stages,
        seed=config.seed,
        entity_split_seed=config.entity_split_seed,
        train_ratio=config.train_ratio,
        control_ratio=config.control_ratio,
    )
    by_id = {d.id: d for d in dialogues}
    questions: dict[str, list[Question]] = defaultdict(list)
    for q in bench.questions:
        if not config.families or q.family in config.families:
            questions[q.dialogue_id].append(q)

    stage_rows: list[dict[str, Any]] = []
    dialogue_rows: list[dict[str, Any]] = []
    counts: dict[tuple[int, str], int] = defaultdict(int)
    written: set[str] = {L.EVAL_ALL_HELD_OUT}
    with ExitStack() as outer:
        all_held_out = outer.enter_context(AtomicJsonlWriter(root / L.EVAL_ALL_HELD_OUT))
        for stage in range(1, config.stages + 1):
            members = [a for a in assignments if a.stage == stage]
            names_of: dict[str, str] = {
                "pt": L.pt_file(stage),
                "qa_sft": L.sft_file(stage),
                **{s: L.eval_file(stage, s) for s in SPLITS},
            }
            written.update(names_of.values())
            with ExitStack() as stack:
                w = {
                    k: stack.enter_context(AtomicJsonlWriter(root / v)) for k, v in names_of.items()
                }
                for a in members:
                    dialogue, qs = by_id[a.dialogue_id], questions[a.dialogue_id]
                    records: list[tuple[str, dict[str, Any]]] = []
                    if a.split != "control":
                        records += [
                            ("pt", r) for r in _pt_records(dialogue, a, len(qs), bench, config)
                        ]
                    if a.split == "seen":
                        records += [("qa_sft", r) for r in _sft_records(qs, a, config)]
                    records += [(a.split, _eval_record(q, i, a, config)) for i, q in enumerate(qs)]
                    for kind, rec in records:
                        w[kind].write(rec)
                        counts[(stage, kind)] += 1
                        if kind == "held_out":
                            all_held_out.write(rec)
                    dialogue_rows.append(
                        {**asdict(a), "qa_count": len(qs), "turn_count": len(dialogue.turns())}
                    )
            stage_rows.append(_stage_row(stage, members))

    split_doc = {
        "seed": config.entity_split_seed,
        "train_ratio": config.train_ratio,
        "control_ratio": config.control_ratio,
        "stages": stage_rows,
    }
    atomic_write_bytes(root / L.ENTITY_SPLIT, dumps_pretty(split_doc))
    atomic_write_bytes(root / L.DIALOGUE_ASSIGNMENTS, dumps_pretty(dialogue_rows))
    nonempty = {
        (stage, kind)
        for stage in range(1, config.stages + 1)
        for kind in ("pt", "qa_sft")
        if counts[(stage, kind)]
    }
    info = dataset_info(config.stages, config.pt_record_style, nonempty)
    atomic_write_bytes(root / L.DATASET_INFO, dumps_pretty(info))

    files = sorted(written | {L.ENTITY_SPLIT, L.DIALOGUE_ASSIGNMENTS, L.DATASET_INFO})
    manifest = {
        "format": L.PROJECT_FORMAT,
        "format_version": L.PROJECT_FORMAT_VERSION,
        "config": config.to_dict(),
        "source": {
            "benchmark_hash": bench.content_hash,
            "generator": bench.manifest.get("generator", ""),
            "seed": bench.manifest.get("seed"),
            "dialogues": len(dialogues),
            "questions": sum(len(v) for v in questions.values()),
        },
        "stages": [
            {
                "stage": stage,
                "pt_records": counts[(stage, "pt")],
                "qa_sft_records": counts[(stage, "qa_sft")],
                "eval_items": {s: counts[(stage, s)] for s in SPLITS},
            }
            for stage in range(1, config.stages + 1)
        ],
        "files": {name: _sha256(root / name) for name in files},
    }
    atomic_write_bytes(root / L.PROJECT_FILE, dumps_pretty(manifest))
    return manifest
