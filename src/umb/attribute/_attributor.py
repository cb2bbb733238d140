"""Failed records attributed a dialogue at a time, against that dialogue's trace and turns."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from umb._errors import DataError
from umb.attribute._attribute import attribute_question
from umb.attribute._dialogues import DialogueSource
from umb.attribute._evidence import FactChecker, Matcher, QuestionInputs
from umb.attribute._files import failed
from umb.attribute._graph import SystemView
from umb.attribute._types import Attribution
from umb.bench import Benchmark, Dialogue
from umb.trace import BenchmarkTurns, Trace, paused_gc

if TYPE_CHECKING:
    from tqdm import tqdm

    from umb.bench import Fact, Question


@dataclass
class _Bench:
    """The parts of a benchmark attribution reads: every question and fact, and the turns of
    the dialogues in hand."""

    root: Path
    questions: dict[str, Question]
    turn_texts: dict[str, str]
    turn_starts: dict[str, str]
    facts: dict[str, Fact]
    event_turns: dict[str, list[str]]
    state_turns: dict[tuple[str, str, str], list[str]]
    turns: BenchmarkTurns
    """The same dialogues' turns, for the traces that refer to them (format 2)."""

    def inputs(self, question: Question, record: Mapping[str, Any]) -> QuestionInputs:
        """What attribution needs about ``question`` besides the trace."""
        return QuestionInputs(
            question, record, self.turn_texts, self.turn_starts, self.facts,
            self.event_turns, self.state_turns,
        )  # fmt: skip

    @classmethod
    def load(cls, root: Path, dialogue_ids: set[str]) -> _Bench:
        """The benchmark at ``root`` with the turns of ``dialogue_ids``."""
        b = Benchmark.open(root)
        questions = {q.id: q for q in b.questions}
        return cls.of(root, questions, b.facts, list(b.iter_dialogues(dialogue_ids)))

    @classmethod
    def of(
        cls,
        root: Path,
        questions: dict[str, Question],
        facts: dict[str, Fact],
        dialogues: Sequence[Dialogue],
    ) -> _Bench:
        """The benchmark's questions and facts with the turns of ``dialogues``."""
        texts: dict[str, str] = {}
        starts: dict[str, str] = {}
        events: dict[str, list[str]] = {}
        states: dict[tuple[str, str, str], list[str]] = {}
        for d in dialogues:
            for s in d.sessions:
                for t in s.turns:
                    texts[t.id] = t.text
                    starts[t.id] = s.started_at
                    for fid in t.fact_ids:
                        events.setdefault(fid.rsplit("/", 2)[0], []).append(t.id)
                        if (f := facts.get(fid)) is not None:
                            key = (f.character_id, f.attribute, f.value)
                            states.setdefault(key, []).append(t.id)
        turns = BenchmarkTurns.of(dialogues)
        return cls(root, questions, texts, starts, facts, events, states, turns)


def attribute_records(
    records: Sequence[dict[str, Any]],
    traces: Mapping[str, Trace],
    bench: Path | _Bench,
    *,
    checker: FactChecker | None = None,
    bar: tqdm[Any] | None = None,
) -> list[Attribution]:
    """Attribute every failed record against its system's trace and the benchmark.

    Args:
        records: Run records (one per system and question).
        traces: System name -> its trace (a system missing here is ``Unattributed``).
        bench: The benchmark directory (or its parts, already loaded).
        checker: Optional LLM check for what value matching cannot tell.
        bar: A progress bar advanced by one per failed record.
    """
    todo = [r for r in records if failed(r)]
    if not todo:
        return []
    wanted = {str(r.get("dialogue_id")) for r in todo}
    data = bench if isinstance(bench, _Bench) else _Bench.load(bench, wanted)
    matcher = Matcher(checker)
    views: dict[str, SystemView] = {}
    out = []
    for r in todo:
        q = data.questions.get(str(r["question_id"]))
        if q is None:
            why = f"no question {r['question_id']} in the benchmark"
            raise DataError(str(data.root), None, why)
        system = str(r["system"])
        view = views.get(system)
        if view is None and system in traces:
            view = views[system] = SystemView(traces[system], system)
        out.append(attribute_question(data.inputs(q, r), view, matcher))
        if bar is not None:
            bar.update(1)
    return out


def failed_by_dialogue(
    todo: Sequence[dict[str, Any]],
) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Failed records by (system, dialogue id)."""
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in todo:
        out.setdefault((str(r["system"]), str(r.get("dialogue_id"))), []).append(r)
    return out


class DialogueAttributor:
    """Attributes failed records a dialogue at a time, keeping what it found.

    Args:
        root: The benchmark directory.
        wanted: The dialogues a pass may ask for (its :class:`DialogueSource` parses only
            those; None: any).
        checker: Optional LLM check for what value matching cannot tell.
        bar: Advanced by one per record attributed.
    """

    def __init__(
        self,
        root: Path,
        wanted: Collection[str] | None,
        checker: FactChecker | None = None,
        bar: tqdm[Any] | None = None,
    ) -> None:
        self.root = root
        self.checker = checker
        self.bar = bar
        self.bench = Benchmark.open(root)
        self.questions = {q.id: q for q in self.bench.questions}
        self.source = DialogueSource(self.bench, wanted)
        self.found: dict[tuple[str, str], Attribution] = {}

    def attribute(
        self,
        todo: Sequence[dict[str, Any]],
        trace: Trace | None,
        dialogues: Sequence[Dialogue] = (),
    ) -> None:
        """Attribute ``todo`` (failed records of ``dialogues``) against ``trace`` (None: the
        records are ``Unattributed``)."""
        if not todo:
            return
        data = _Bench.of(self.root, self.questions, self.bench.facts, dialogues)
        traces = dict.fromkeys({str(r["system"]) for r in todo}, trace) if trace else {}
        with paused_gc():
            for a in attribute_records(todo, traces, data, checker=self.checker, bar=self.bar):
                self.found[(a.system, a.question_id)] = a

    def finish(self, todo: Sequence[dict[str, Any]]) -> None:
        """Give every record of ``todo`` not attributed yet (its system or its dialogue is in
        no trace) its ``Unattributed`` entry."""
        rest = [r for r in todo if (str(r["system"]), str(r["question_id"])) not in self.found]
        self.attribute(rest, None)
