"""A run's traces and the benchmark's dialogues read side by side, one dialogue at a time.

Attribution and the memory metrics need, for each dialogue a system's trace holds, that
dialogue's trace and its benchmark dialogue (turns, facts), and nothing of the other dialogues.
A trace file is read in one pass (:func:`umb.trace.iter_dialogue_traces`) and the benchmark's
dialogues file alongside it, in file order: a run records its dialogues in benchmark order,
so the benchmark is read once per trace and holds only the few dialogues read ahead.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from pathlib import Path

from umb.bench import Benchmark, Dialogue
from umb.trace import BenchmarkTurns, DialogueTrace, iter_dialogue_traces

Pair = tuple[DialogueTrace, list[Dialogue]]
"""A dialogue's trace and its benchmark dialogues."""


class DialogueSource:
    """The benchmark's dialogues of ``wanted``, read in file order as they are asked for.

    Args:
        bench: The benchmark.
        wanted: The dialogues a pass may ask for (the others are skipped unparsed; None: any).
    """

    def __init__(self, bench: Benchmark, wanted: Collection[str] | None) -> None:
        self.bench = bench
        self.wanted = None if wanted is None else frozenset(wanted)
        self._ahead: dict[str, Dialogue] = {}
        self._rest: Iterator[Dialogue] | None = None

    def restart(self) -> None:
        """Read from the start of the file again (for the next trace)."""
        self._ahead.clear()
        self._rest = None

    def get(self, dialogue_id: str) -> Dialogue | None:
        """The dialogue ``dialogue_id`` (``None`` when the benchmark has no such dialogue)."""
        found = self._ahead.pop(dialogue_id, None)
        if found is not None:
            return found
        if self._rest is None:
            self._rest = self.bench.iter_dialogues(self.wanted)
        for d in self._rest:
            if d.id == dialogue_id:
                return d
            self._ahead[d.id] = d
        # Asked again, or out of file order (a resumed run): one more read, of it alone.
        return next(self.bench.iter_dialogues({dialogue_id}), None)

    def pair(self, dt: DialogueTrace) -> Pair:
        """``dt`` with its benchmark dialogues, which become its trace's benchmark turns."""
        dialogues = [d for did in dt.dialogue_ids if (d := self.get(did)) is not None]
        dt.trace.inputs = BenchmarkTurns.of(dialogues)
        return dt, dialogues


def dialogue_pairs(
    path: Path,
    source: DialogueSource,
    *,
    keep: Callable[[str], bool] | None = None,
) -> Iterator[Pair]:
    """Each dialogue of the trace at ``path`` with its benchmark dialogues, as it completes
    (:func:`umb.trace.iter_dialogue_traces`; those for which ``keep`` is false are skipped).
    The trace's benchmark turns are those dialogues'.

    Raises:
        DataError: As :func:`umb.trace.read_trace` does.
    """
    source.restart()
    for dt in iter_dialogue_traces(path, keep=keep):
        yield source.pair(dt)
