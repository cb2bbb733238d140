"""Re-check a benchmark directory: schema, references, evidence, leakage, dates, hashes.

Every problem is reported as ``file:line: reason``; hand-edited files are caught by the record
checks first and by the manifest's sha256 last.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from umb._errors import DataError
from umb._jsonio import iter_jsonl, read_json
from umb.bench._io import DIALOGUES, FACTS, MANIFEST, QUESTIONS, WORLD
from umb.bench._write import sha256_file
from umb.families import FAMILIES, REQUIRED_FIELDS

STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$")
DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")

FACT_FIELDS = ("id", "character_id", "event_id", "at", "attribute", "value", "text")
QUESTION_FIELDS = ("id", "dialogue_id", "family", "query", "asked_at", "gold", "evidence")

#: The gold field whose value must never appear in the question text.
LEAK_FIELDS = {"IE": "answer", "KU": "latest_state", "MA": "final_answer"}


@dataclass
class Problems:
    """Collected problems; stops collecting after ``limit``."""

    limit: int = 50
    items: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """Things kept as a peer published them (imports), reported but not failing."""

    def add(self, path: Path, line: int | None, reason: str) -> None:
        if len(self.items) < self.limit:
            self.items.append(str(DataError(path.name, line, reason)))


def _stamp_ok(value: Any) -> bool:
    if not isinstance(value, str) or not STAMP.match(value):
        return False
    try:
        datetime.strptime(value, "%Y-%m-%dT%H:%M")
    except ValueError:
        return False
    return True


def _day(value: Any) -> date | None:
    if not isinstance(value, str) or not DAY.match(value):
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def _records(path: Path, problems: Problems) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        obj: Any
        for lineno, obj in iter_jsonl(path):
            if not isinstance(obj, dict):
                problems.add(path, lineno, "record is not a JSON object")
                continue
            yield lineno, obj
    except DataError as e:
        problems.items.append(f"{Path(e.path).name}:{e.line}: {e.reason}" if e.line else str(e))


def validate(root: Path, limit: int = 50) -> list[str]:
    """Return the problems found in the benchmark at ``root`` (empty when valid)."""
    return check(root, limit).items


def check(
    root: Path, limit: int = 50, progress: Callable[[int, int], None] | None = None
) -> Problems:
    """Problems and warnings of the benchmark at ``root``; ``progress(done, total)`` is called
    after each dialogue checked (total from the manifest, 0 when it has none)."""
    problems = Problems(limit)
    for name in (MANIFEST, DIALOGUES, QUESTIONS, FACTS):
        if not (root / name).exists():
            problems.add(root / name, None, "missing file")
    if problems.items:
        return problems
    facts = _check_facts(root / FACTS, problems)
    questions = _load_questions(root / QUESTIONS, problems)
    _check_dialogues(root / DIALOGUES, facts, questions, problems, progress)
    if (root / WORLD).exists():
        _check_world(root / WORLD, problems)
    _check_manifest(root, problems)
    return problems


def _check_facts(path: Path, problems: Problems) -> dict[str, str]:
    facts: dict[str, str] = {}
    for lineno, f in _records(path, problems):
        missing = [k for k in FACT_FIELDS if k not in f]
        if missing:
            problems.add(path, lineno, f"missing field(s) {', '.join(missing)}")
        elif f["id"] in facts:
            problems.add(path, lineno, f"duplicate fact id {f['id']}")
        elif not _stamp_ok(f["at"]):
            problems.add(path, lineno, f"bad time {f['at']!r}")
        else:
            facts[f["id"]] = str(f["value"])
    return facts


@dataclass
class _Q:
    line: int
    record: dict[str, Any]


def _load_questions(path: Path, problems: Problems) -> dict[str, list[_Q]]:
    by_dialogue: dict[str, list[_Q]] = {}
    seen: set[str] = set()
    for lineno, q in _records(path, problems):
        missing = [k for k in QUESTION_FIELDS if k not in q]
        if missing:
            problems.add(path, lineno, f"missing field(s) {', '.join(missing)}")
            continue
        if q["id"] in seen:
            problems.add(path, lineno, f"duplicate question id {q['id']}")
        seen.add(q["id"])
        if q["family"] not in FAMILIES:
            problems.add(path, lineno, f"unknown family {q['family']!r}")
            continue
        if not _stamp_ok(q["asked_at"]):
            problems.add(path, lineno, f"bad asked_at {q['asked_at']!r}")
            continue
        gold = q["gold"]
        absent = [
            k for k in REQUIRED_FIELDS[q["family"]] if not isinstance(gold, dict) or k not in gold
        ]
        if absent:
            problems.add(path, lineno, f"gold lacks {', '.join(absent)}")
            continue
        _check_gold(path, lineno, q, problems)
        by_dialogue.setdefault(q["dialogue_id"], []).append(_Q(lineno, q))
    return by_dialogue


def _check_gold(path: Path, lineno: int, q: dict[str, Any], problems: Problems) -> None:
    gold, family = q["gold"], q["family"]
    leak_field = LEAK_FIELDS.get(family)
    if (
        leak_field
        and str(gold[leak_field]).strip()
        and (str(gold[leak_field]).lower() in q["query"].lower())
    ):
        reason = f"query leaks its answer {gold[leak_field]!r}"
        if q.get("meta", {}).get("source"):  # imported: kept exactly as the peer published it
            problems.warnings.append(f"{path.name}:{lineno}: {reason} (as published)")
        else:
            problems.add(path, lineno, reason)
    # Imported "when" questions answer with a date and carry no day count (days is null).
    if family == "TR" and gold["days"] is not None:
        start, end = _day(gold["start_date"]), _day(gold["end_date"])
        if start is None or end is None:
            problems.add(path, lineno, "TR start_date/end_date are not YYYY-MM-DD dates")
        elif (end - start).days != gold["days"]:
            problems.add(
                path,
                lineno,
                f"TR days {gold['days']} != end_date - start_date ({(end - start).days})",
            )
    if (
        family == "KU"
        and not q.get("meta", {}).get("deprecated_values")
        and not gold["deprecated_state"]
    ):
        problems.add(path, lineno, "KU question has no deprecated value")


def _check_dialogues(
    path: Path,
    facts: dict[str, str],
    questions: dict[str, list[_Q]],
    problems: Problems,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    qpath = path.with_name(QUESTIONS)
    total = _expected_dialogues(path.with_name(MANIFEST))
    seen_dialogues: set[str] = set()
    for lineno, d in _records(path, problems):
        if not all(k in d for k in ("id", "character_id", "sessions")):
            problems.add(path, lineno, "dialogue lacks id, character_id or sessions")
            continue
        turn_at: dict[str, tuple[str, int, tuple[str, ...]]] = {}
        previous = ""
        order = 0
        for s in d["sessions"]:
            if not _stamp_ok(s.get("started_at")):
                problems.add(
                    path, lineno, f"session {s.get('id')}: bad started_at {s.get('started_at')!r}"
                )
                continue
            if s["started_at"] <= previous:
                problems.add(path, lineno, f"session {s['id']} starts before the one before it")
            previous = s["started_at"]
            for t in s.get("turns", []):
                if not isinstance(t, dict) or not all(
                    k in t for k in ("id", "role", "speaker", "text")
                ):
                    problems.add(path, lineno, f"session {s.get('id')}: malformed turn")
                    continue
                if t["id"] in turn_at:
                    problems.add(path, lineno, f"duplicate turn id {t['id']}")
                if t["role"] not in ("user", "assistant"):
                    problems.add(path, lineno, f"turn {t['id']}: bad role {t['role']!r}")
                ids = tuple(t.get("fact_ids", ()))
                for fid in ids:
                    if facts and fid not in facts:
                        problems.add(path, lineno, f"turn {t['id']}: unknown fact id {fid}")
                order += 1
                turn_at[t["id"]] = (s["started_at"], order, ids)
        seen_dialogues.add(d["id"])
        for q in questions.get(d["id"], []):
            _check_evidence(qpath, q, turn_at, facts, problems)
        if progress is not None:
            progress(len(seen_dialogues), max(total, len(seen_dialogues)))
    for did, qs in questions.items():
        if did not in seen_dialogues:
            for q in qs:
                problems.add(qpath, q.line, f"unknown dialogue id {did}")


def _expected_dialogues(manifest: Path) -> int:
    # Only for the progress total: a broken manifest is reported by _check_manifest.
    try:
        count = read_json(manifest).get("counts", {}).get("dialogues")
    except (DataError, AttributeError):
        return 0
    return count if isinstance(count, int) else 0


def _check_evidence(
    path: Path,
    q: _Q,
    turn_at: dict[str, tuple[str, int, tuple[str, ...]]],
    facts: dict[str, str],
    problems: Problems,
) -> None:
    rec, ev = q.record, q.record["evidence"]
    for tid in ev.get("turn_ids", ()):
        if tid not in turn_at:
            problems.add(path, q.line, f"evidence turn id {tid} does not exist")
        elif turn_at[tid][0] >= rec["asked_at"]:
            problems.add(
                path, q.line, f"evidence turn {tid} is not before asked_at {rec['asked_at']}"
            )
    for fid in ev.get("fact_ids", ()):
        if facts and fid not in facts:
            problems.add(path, q.line, f"evidence fact id {fid} does not exist")
    if rec["family"] == "KU":
        _check_ku(path, q, turn_at, facts, problems)


def _check_ku(
    path: Path,
    q: _Q,
    turn_at: dict[str, tuple[str, int, tuple[str, ...]]],
    facts: dict[str, str],
    problems: Problems,
) -> None:
    """The deprecated value must be stated before the last statement of the latest value."""
    gold = q.record["gold"]
    latest, old = str(gold["latest_state"]), str(gold["deprecated_state"])
    first_old = last_latest = None
    for _, order, ids in turn_at.values():
        for fid in ids:
            value = facts.get(fid)
            if value == old and first_old is None:
                first_old = order
            elif value == latest:
                last_latest = order
    if first_old is None:
        problems.add(path, q.line, f"KU deprecated value {old!r} is never stated in the dialogue")
    elif last_latest is not None and first_old >= last_latest:
        problems.add(path, q.line, f"KU deprecated value {old!r} is not stated before {latest!r}")


def _check_world(path: Path, problems: Problems) -> None:
    try:
        world = read_json(path)
    except DataError as err:
        problems.items.append(str(err))
        return
    events = world.get("events", [])
    at = {e["id"]: e["at"] for e in events}
    if len(at) != len(events):
        problems.add(path, None, "duplicate event ids")
    for e in events:
        for cause in e.get("caused_by", ()):
            if cause not in at:
                problems.add(path, None, f"event {e['id']}: unknown cause {cause}")
            elif at[cause] >= e["at"]:
                problems.add(path, None, f"event {e['id']}: cause {cause} does not precede it")
    for cid, timelines in world.get("timelines", {}).items():
        for attr, points in timelines.items():
            times = [p["at"] for p in points]
            if times != sorted(times):
                problems.add(path, None, f"{cid}: {attr} timeline is not in time order")


def _check_manifest(root: Path, problems: Problems) -> None:
    try:
        manifest = read_json(root / MANIFEST)
    except DataError as e:
        problems.items.append(str(e))
        return
    for name, info in manifest.get("files", {}).items():
        path = root / name
        if not path.exists():
            problems.add(path, None, "listed in the manifest but missing")
        elif sha256_file(path) != info.get("sha256"):
            problems.add(path, None, "sha256 differs from the manifest (file was edited)")
