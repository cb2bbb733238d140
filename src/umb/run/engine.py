"""The job engine of ``umb eval``: which (system, dialogue) jobs are pending, and in what order.

A job is one system on one dialogue with the questions of it still to answer. Both executors
(local, and ``--executor ray`` in :mod:`umb.run._ray_eval`) take the jobs from here in the same
order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from umb._errors import DataError
from umb.bench import Benchmark, Dialogue, Question

Pending = dict[tuple[str, str], list[Question]]
"""(system, dialogue id) -> the questions of that dialogue still to answer for that system."""


def pending_jobs(
    systems: Sequence[str], questions: Sequence[Question], done: set[tuple[str, str]]
) -> Pending:
    """The questions of each (system, dialogue) not among the ``done`` (system, question id)."""
    out: Pending = {}
    for system in systems:
        for q in questions:
            if (system, q.id) not in done:
                out.setdefault((system, q.dialogue_id), []).append(q)
    return out


def latest_asked(questions: Sequence[Question]) -> dict[str, str]:
    """Dialogue id -> the ``asked_at`` that sees the most sessions among its questions."""
    out: dict[str, str] = {}
    for q in questions:
        seen = out.get(q.dialogue_id)
        if seen is None or (seen and (not q.asked_at or q.asked_at > seen)):
            out[q.dialogue_id] = q.asked_at
    return out


def iter_jobs(bench: Benchmark, pending: Pending) -> Iterator[tuple[str, Dialogue, list[Question]]]:
    """The pending (system, dialogue, questions) jobs, in benchmark order, dialogue by dialogue.

    Raises:
        DataError: Once the dialogues are read, if questions refer to dialogues not there.
    """
    wanted = {d for _, d in pending}
    systems = list(dict.fromkeys(s for s, _ in pending))
    # Only those dialogues are parsed, and the file is left once the last is found: a run of
    # 100 of the `umb` preset's 1,000 dialogues would otherwise parse the 900 others, in the
    # event loop, after its last job began.
    for dialogue in bench.iter_dialogues(frozenset(wanted)):
        wanted.discard(dialogue.id)
        for system in systems:
            todo = pending.get((system, dialogue.id))
            if todo:
                yield system, dialogue, todo
        if not wanted:
            break
    if wanted:
        raise DataError(
            str(bench.root / "questions.jsonl"),
            None,
            f"questions refer to dialogues that do not exist: {', '.join(sorted(wanted))}",
        )
