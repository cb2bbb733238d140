"""Re-check a benchmark directory: declarations, references, evidence, leakage, dates, hashes.

Every line is first decoded against its record declaration (``bench/_records.py``), so a wrong
type or a missing field reads ``file:line: field: problem``; the checks below then see typed
records only. Every problem is one line; a duplicate is named once, at its line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Protocol, TypeVar

from umb._errors import DataError
from umb._jsonio import iter_typed
from umb.bench._io import DIALOGUES, FACTS, MANIFEST, QUESTIONS, WORLD
from umb.bench._problems import Problems
from umb.bench._records import Dialogue, Fact, Question
from umb.bench._validate_files import Manifest, check_manifest, check_world, load_manifest
from umb.families import FAMILIES, REQUIRED_FIELDS

__all__ = ["Problems", "check", "validate"]

STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$")
DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")

#: The gold field whose value must never appear in the question text.
LEAK_FIELDS = {"IE": "answer", "KU": "latest_state", "MA": "final_answer"}

R = TypeVar("R")


def _stamp_ok(value: str) -> bool:
    if not STAMP.match(value):
        return False
    try:
        # Thirty times faster than strptime (the `umb` preset has 225,000 stamps); what it
        # accepts strptime accepts too, and what it refuses goes to strptime (other digits).
        datetime.fromisoformat(value)
        return True
    except ValueError:
        pass
    try:
        datetime.strptime(value, "%Y-%m-%dT%H:%M")
    except ValueError:
        return False
    return True


def _day(value: object) -> date | None:
    if not isinstance(value, str) or not DAY.match(value):
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def _records(path: Path, kind: type[R], problems: Problems) -> Iterator[tuple[int, R]]:
    try:
        yield from iter_typed(path, kind, on_error=problems.add_error)
    except DataError as e:  # the file itself cannot be read
        problems.add_error(e)


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


Rid = TypeVar("Rid", bound=_Identified)


def _unique(
    path: Path, kind: type[Rid], problems: Problems, counted: dict[str, int], name: str
) -> Iterator[tuple[int, Rid]]:
    """The records of ``path`` whose id is new; each repeat is named once, at its line."""
    first: dict[str, int] = {}
    counted[f"{name}s"] = 0
    for lineno, record in _records(path, kind, problems):
        counted[f"{name}s"] += 1
        if record.id in first:
            reason = f"duplicate {name} id {record.id} (first at line {first[record.id]})"
            problems.add(path, lineno, reason)
            continue
        first[record.id] = lineno
        yield lineno, record


def validate(root: Path, limit: int = 50) -> list[str]:
    """Return the problems found in the benchmark at ``root`` (empty when valid)."""
    return check(root, limit).items


def check(
    root: Path,
    limit: int = 50,
    progress: Callable[[int, int], None] | None = None,
    *,
    need_world: bool = True,
) -> Problems:
    """Problems and warnings of the benchmark at ``root``; ``progress(done, total)`` is called
    once before the facts and questions are read (``done`` 0) and after each dialogue checked
    (total from the manifest, 0 when it has none). Without ``need_world`` (a command that can
    go on without it) a generated benchmark's missing world is a note, not a problem."""
    problems = Problems(limit)
    for name in (MANIFEST, DIALOGUES, QUESTIONS, FACTS):
        if not (root / name).exists():
            problems.add(root / name, None, "missing file")
    if problems.items:
        return problems
    manifest = load_manifest(root, problems)
    imported = manifest is not None and manifest.source is not None
    if _empty_files(root, manifest, problems):
        return problems  # every other check would only repeat that a file holds nothing
    counts = manifest.counts.get("dialogues") if manifest is not None else None
    total = counts if isinstance(counts, int) else 0
    if progress is not None:  # a large benchmark's facts and questions take seconds to read
        progress(0, total)
    counted: dict[str, int] = {}
    facts = _check_facts(root / FACTS, problems, counted)
    questions = _load_questions(root / QUESTIONS, problems, counted)
    _check_dialogues(
        root / DIALOGUES, facts, questions, problems, counted, imported, progress, total
    )
    if (root / WORLD).exists():
        check_world(root / WORLD, problems)
    elif imported:
        problems.note(root / WORLD, f"none: {NO_WORLD_IMPORTED}")
    elif manifest is not None and need_world:
        problems.add(root / WORLD, None, NO_WORLD_GENERATED)
    elif manifest is not None:
        problems.note(root / WORLD, NO_WORLD_SKIPPED)
    if manifest is not None:
        check_manifest(root, manifest, counted, problems)
    return problems


#: Why a generated benchmark without ``world.json`` is refused.
NO_WORLD_GENERATED = (
    "missing file; a generated benchmark needs its world (memory metrics and the audit read it)"
)
#: What a command that goes on without a generated benchmark's world leaves out.
NO_WORLD_SKIPPED = "missing: memory metrics and audit skipped: no world.json"
#: What an imported benchmark's missing world means.
NO_WORLD_IMPORTED = (
    "an imported peer benchmark has no world; memory metrics and the audit do not apply"
)

_EXPECTED = {DIALOGUES: "dialogues", QUESTIONS: "questions", FACTS: "facts"}


def _empty_files(root: Path, manifest: Manifest | None, problems: Problems) -> bool:
    """Name each record file that holds no record although it should; True if one does.

    An empty ``facts.jsonl`` is right where the manifest counts 0 facts (an import).
    """
    found = False
    for name, key in _EXPECTED.items():
        path = root / name
        if not _blank(path):
            continue
        claimed = manifest.counts.get(key) if manifest is not None else None
        if name == FACTS and not claimed:
            continue
        expected = (
            f"the manifest expects {claimed:,} {key}"
            if isinstance(claimed, int)
            else (f"a benchmark needs {key}")
        )
        problems.add(path, None, f"empty file; {expected}")
        found = True
    return found


def _blank(path: Path) -> bool:
    """Whether the regular file ``path`` holds nothing but whitespace (read only if small)."""
    try:
        size = path.stat().st_size
        if size > 4096 or not path.is_file():
            return False
        return not path.read_bytes().strip()
    except OSError:  # unreadable: the record checks name why
        return False


def _check_facts(path: Path, problems: Problems, counted: dict[str, int]) -> dict[str, str]:
    facts: dict[str, str] = {}
    for lineno, f in _unique(path, Fact, problems, counted, "fact"):
        if not _stamp_ok(f.at):
            problems.add(path, lineno, f"at: bad time {f.at!r}, expected YYYY-MM-DDTHH:MM")
        facts[f.id] = f.value
    return facts


def _load_questions(
    path: Path, problems: Problems, counted: dict[str, int]
) -> dict[str, list[tuple[int, Question]]]:
    by_dialogue: dict[str, list[tuple[int, Question]]] = {}
    for lineno, q in _unique(path, Question, problems, counted, "question"):
        if q.family not in FAMILIES:
            problems.add(path, lineno, f"family: unknown family {q.family!r}")
            continue
        if not _stamp_ok(q.asked_at):
            problems.add(
                path, lineno, f"asked_at: bad time {q.asked_at!r}, expected YYYY-MM-DDTHH:MM"
            )
            continue
        absent = [k for k in REQUIRED_FIELDS[q.family] if k not in q.gold]
        if absent:
            problems.add(path, lineno, f"gold: lacks {', '.join(absent)}")
            continue
        _check_gold(path, lineno, q, problems)
        by_dialogue.setdefault(q.dialogue_id, []).append((lineno, q))
    return by_dialogue


def _check_gold(path: Path, lineno: int, q: Question, problems: Problems) -> None:
    gold, family = q.gold, q.family
    leak_field = LEAK_FIELDS.get(family)
    if (
        leak_field
        and str(gold[leak_field]).strip()
        and (str(gold[leak_field]).lower() in q.query.lower())
    ):
        reason = f"query leaks its answer {gold[leak_field]!r}"
        if q.meta.get("source"):  # imported: kept exactly as the peer published it
            problems.warn(path, lineno, reason)
        else:
            problems.add(path, lineno, reason)
    # Imported "when" questions answer with a date and carry no day count (days is null).
    if family == "TR" and gold["days"] is not None:
        start, end = _day(gold["start_date"]), _day(gold["end_date"])
        if start is None or end is None:
            problems.add(path, lineno, "TR start_date/end_date are not YYYY-MM-DD dates")
        elif (end - start).days != gold["days"]:
            days = (end - start).days
            problems.add(path, lineno, f"TR days {gold['days']} != end_date - start_date ({days})")
    if family == "KU" and not q.meta.get("deprecated_values") and not gold["deprecated_state"]:
        problems.add(path, lineno, "KU question has no deprecated value")


@dataclass
class _Turns:
    """Where each turn of one dialogue sits: its session's start, its order, its facts."""

    at: dict[str, tuple[str, int, tuple[str, ...]]]


def _check_dialogues(
    path: Path,
    facts: dict[str, str],
    questions: dict[str, list[tuple[int, Question]]],
    problems: Problems,
    counted: dict[str, int],
    imported: bool,
    progress: Callable[[int, int], None] | None = None,
    total: int = 0,
) -> None:
    qpath = path.with_name(QUESTIONS)
    seen: set[str] = set()
    n_sessions = n_turns = 0
    for lineno, d in _unique(path, Dialogue, problems, counted, "dialogue"):
        n_sessions += len(d.sessions)
        n_turns += sum(len(s.turns) for s in d.sessions)
        seen.add(d.id)
        turns = _check_sessions(path, lineno, d, facts, problems, imported)
        for qline, q in questions.get(d.id, []):
            _check_evidence(qpath, qline, q, turns, facts, problems)
        if progress is not None:
            progress(len(seen), max(total, len(seen)))
    counted.update(sessions=n_sessions, turns=n_turns)
    for did, qs in questions.items():
        if did not in seen:
            for qline, _ in qs:
                problems.add(qpath, qline, f"dialogue_id: unknown dialogue id {did}")


def _check_sessions(
    path: Path,
    lineno: int,
    d: Dialogue,
    facts: dict[str, str],
    problems: Problems,
    imported: bool,
) -> _Turns:
    turns = _Turns({})
    previous = ""
    order = 0
    for s in d.sessions:
        if not _stamp_ok(s.started_at):
            problems.add(path, lineno, f"session {s.id}: bad started_at {s.started_at!r}")
            continue
        if s.started_at <= previous:
            problems.add(path, lineno, f"session {s.id} starts before the one before it")
        if s.rendered_by is not None and not s.rendered_by.strip():
            problems.add(path, lineno, f"session {s.id}: rendered_by is empty")
        previous = s.started_at
        last_role = ""
        for t in s.turns:
            if t.id in turns.at:
                problems.add(path, lineno, f"duplicate turn id {t.id}")
            if t.role not in ("user", "assistant"):
                problems.add(path, lineno, f"turn {t.id}: bad role {t.role!r}")
            elif t.role == last_role:
                reason = f"turn {t.id}: two {t.role} turns in a row (speakers alternate)"
                if imported:
                    problems.warn(path, lineno, reason)
                else:
                    problems.add(path, lineno, reason)
            last_role = t.role
            for fid in t.fact_ids:
                if facts and fid not in facts:
                    problems.add(path, lineno, f"turn {t.id}: unknown fact id {fid}")
            order += 1
            turns.at[t.id] = (s.started_at, order, t.fact_ids)
    return turns


def _check_evidence(
    path: Path,
    line: int,
    q: Question,
    turns: _Turns,
    facts: dict[str, str],
    problems: Problems,
) -> None:
    for tid in q.evidence.turn_ids:
        if tid not in turns.at:
            problems.add(path, line, f"evidence turn id {tid} does not exist")
        elif turns.at[tid][0] >= q.asked_at:
            problems.add(path, line, f"evidence turn {tid} is not before asked_at {q.asked_at}")
    for fid in q.evidence.fact_ids:
        if facts and fid not in facts:
            problems.add(path, line, f"evidence fact id {fid} does not exist")
    if q.family == "KU" and facts:  # the order of statements is known only through facts
        _check_ku(path, line, q, turns, facts, problems)


def _check_ku(
    path: Path,
    line: int,
    q: Question,
    turns: _Turns,
    facts: dict[str, str],
    problems: Problems,
) -> None:
    """The deprecated value must be stated before the last statement of the latest value."""
    latest, old = str(q.gold["latest_state"]), str(q.gold["deprecated_state"])
    first_old = last_latest = None
    for _, order, ids in turns.at.values():
        for fid in ids:
            value = facts.get(fid)
            if value == old and first_old is None:
                first_old = order
            elif value == latest:
                last_latest = order
    if first_old is None:
        problems.add(path, line, f"KU deprecated value {old!r} is never stated in the dialogue")
    elif last_latest is not None and first_old >= last_latest:
        problems.add(path, line, f"KU deprecated value {old!r} is not stated before {latest!r}")
