"""Which records of a trace file count, and what a resumed tracer must know about them.

Every scope (a dialogue, a question, a run's top level) may have been entered several times across
runs of the same trace: each entry is an *attempt* with its own ``begin`` record and ends with
``commit`` (finished), ``abort`` (left by an exception) or nothing (killed). The trace keeps, per
scope, the **latest committed attempt**, or the latest attempt when none committed. Operation ids
are ``scope/n``, so within a kept attempt ids are unique and every operation appears once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from umb.trace._file import RawTrace


@dataclass
class Attempt:
    """One entry into a scope, with the records it produced."""

    key: str
    attempt: int
    kind: str = "scope"
    attrs: dict[str, Any] = field(default_factory=dict)
    parent: str | None = None
    ops: list[dict[str, Any]] = field(default_factory=list)
    committed: bool = False
    aborted: str | None = None


@dataclass
class Selection:
    """The records of a trace file sorted into scopes and attempts."""

    attempts: dict[str, dict[int, Attempt]] = field(default_factory=dict)
    kept: dict[str, Attempt] = field(default_factory=dict)
    values: dict[str, dict[str, Any]] = field(default_factory=dict)
    sources: list[dict[str, Any]] = field(default_factory=list)
    opens: list[dict[str, Any]] = field(default_factory=list)
    diverged: list[dict[str, Any]] = field(default_factory=list)
    forgotten: set[str] = field(default_factory=set)
    """Values a ``forget`` record let go and no later value record stored again."""
    max_seq: int = 0


def _attempt(sel: Selection, key: str, a: int) -> Attempt:
    per = sel.attempts.setdefault(key, {})
    att = per.get(a)
    if att is None:
        att = per[a] = Attempt(key, a)
    return att


def fill_op(rec: dict[str, Any]) -> None:
    """Put back what format 2 leaves out of an op record (see :mod:`umb.trace._op`)."""
    if "scope" not in rec:
        rec["scope"] = rec["id"].rsplit("/", 1)[0]
    rec.setdefault("a", 1)
    rec.setdefault("writes", [])


def select(raw: RawTrace | None) -> Selection:
    """Sort the records of ``raw`` into attempts and pick the attempt kept for each scope."""
    sel = Selection()
    if raw is None:
        return sel
    for _, rec in raw.records:
        t = rec["t"]
        if t == "op":
            fill_op(rec)
            _attempt(sel, rec["scope"], rec["a"]).ops.append(rec)
            sel.max_seq = max(sel.max_seq, rec["seq"])
        elif t == "val":
            sel.values.setdefault(rec["h"], rec)
            sel.forgotten.discard(rec["h"])
        elif t == "forget":
            sel.forgotten.update(rec.get("h") or ())
        elif t == "src":
            sel.sources.append(rec)
        elif t == "begin":
            att = _attempt(sel, rec["scope"], rec["a"])
            att.kind = rec.get("kind", "scope")
            att.attrs = rec.get("attrs") or {}
            att.parent = rec.get("parent")
        elif t == "commit":
            _attempt(sel, rec["scope"], rec["a"]).committed = True
        elif t == "abort":
            _attempt(sel, rec["scope"], rec["a"]).aborted = rec.get("error") or "aborted"
        elif t == "open":
            sel.opens.append(rec)
        elif t == "diverged":
            sel.diverged.append(rec)
    for key, per in sel.attempts.items():
        committed = [a for a in per if per[a].committed]
        sel.kept[key] = per[max(committed)] if committed else per[max(per)]
    return sel


@dataclass
class ResumeState:
    """What a tracer continuing a trace file starts from."""

    opens: int = 0
    next_seq: int = 1
    current: dict[str, tuple[int, str | None]] = field(default_factory=dict)
    """Identity -> (latest version, its value hash), over what stays in the trace."""
    max_version: dict[str, int] = field(default_factory=dict)
    value_hashes: set[str] = field(default_factory=set)
    attempts: dict[str, int] = field(default_factory=dict)
    committed: dict[str, dict[str, list[list[Any]]]] = field(default_factory=dict)
    """Committed scope -> {op id -> its writes}: a re-run of it is checked against these."""
    prior_seq: dict[str, int] = field(default_factory=dict)
    """Op id -> seq, so a re-run of an unfinished scope keeps its place in the order."""


def resume_state(raw: RawTrace | None) -> ResumeState:
    """Derive the starting state of a resumed tracer from an existing trace file.

    Versions are seeded only from sources and from committed (or top-level) scopes: an unfinished
    scope will be run again and then numbers its versions afresh, as its first attempt did.
    """
    sel = select(raw)
    st = ResumeState(opens=len(sel.opens), next_seq=sel.max_seq + 1)
    # A forgotten value is stored again when next used: the readers may have dropped it.
    st.value_hashes = set(sel.values) - sel.forgotten
    st.attempts = {key: max(per) for key, per in sel.attempts.items()}

    def bump(identity: str, v: int, h: str | None) -> None:
        if v > st.max_version.get(identity, 0):
            st.max_version[identity] = v
            st.current[identity] = (v, h)

    for rec in sel.sources:
        bump(rec["var"], rec["v"], rec.get("h"))
    for key, att in sel.kept.items():
        counted = att.committed or att.kind == "run"
        if att.committed and att.kind != "run":
            st.committed[key] = {op["id"]: op["writes"] for op in att.ops}
        for op in att.ops:
            if att.kind != "run":
                st.prior_seq[op["id"]] = op["seq"]
            if counted:
                for w in op["writes"]:
                    bump(w[0], w[1], w[2])
    return st
