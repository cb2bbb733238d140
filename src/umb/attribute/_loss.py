"""Where a needed fact that did not reach the context was lost on the write path.

Given the store as it stood when the question's retrieval ran, walk the stages backwards from
the retrieval: was the fact still stored (retrieval lost it), stored once (an update or a
deletion lost it), extracted as a candidate (the decision lost it), or never extracted at all?
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from umb.attribute._carriers import Carriers
from umb.attribute._graph import STORED_ROLES, SystemView, op_kind
from umb.attribute._types import DELETION, EXTRACTION, RETRIEVAL, UPDATE
from umb.trace import NodeKey, Operation, VarVersion, role_of

_CUT = 70


@dataclass(frozen=True)
class Loss:
    """Where one needed fact was lost."""

    error_type: str
    op: Operation | None
    reason: str
    path: list[str] = field(default_factory=list)


def _quote(text: str) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= _CUT else text[: _CUT - 1] + "…")


def _nid(node: VarVersion) -> str:
    return node.node_id


def find_loss(view: SystemView, carriers: Carriers, retrieve: Operation, dialogue_id: str) -> Loss:
    """Where the fact of ``carriers`` was lost before ``retrieve`` (see the module docstring)."""
    need = carriers.need
    what = need.named
    stored = view.stored_versions(dialogue_id, retrieve.seq)
    writes = view.write_ops(dialogue_id, retrieve.seq)
    extracts = any(op_kind(o) == "extract" for o in writes)
    if not stored and not extracts:
        return _no_write_path(view, carriers, retrieve, writes, what)
    live = {i: vs[-1] for i, vs in stored.items() if not vs[-1].deleted}
    maybe = view.derived_from(dialogue_id, carriers.turns)
    # An index that stores turns verbatim (RAG) holds whatever its carrier turns say, even where
    # value matching cannot see a paraphrase; only an extraction can lose part of a turn.
    held = [v for v in live.values() if v.key in maybe and (carriers(v.key) or not extracts)]
    if held:
        if need.stale:
            beside = _added_beside_stale(view, carriers, held, list(live.values()), what)
            if beside is not None:
                return beside
        unit = held[0]
        return Loss(
            RETRIEVAL,
            retrieve,
            f"{_nid(unit)} still stated {what}, but the retrieval did not return it",
            [*view.path(carriers.turns, unit.key), retrieve.id],
        )
    lost = _lost_after_storing(view, carriers, stored, what, maybe)
    if lost is not None:
        return lost
    return _never_stored(view, carriers, writes, what)


def _no_write_path(
    view: SystemView,
    carriers: Carriers,
    retrieve: Operation,
    writes: list[Operation],
    what: str,
) -> Loss:
    turns = sorted(carriers.turns)
    ingested = any(k[0] in carriers.turns for o in writes for k in o.reads)
    how = "was ingested but left out of the context" if ingested else "never reached the system"
    dropped = retrieve.attrs.get("dropped_sessions")
    if dropped:
        how += f" ({dropped} oldest sessions were cut to fit the context)"
    path = [f"{turns[0]}@{view.trace.node(turns[0]).version}", retrieve.id] if turns else []
    return Loss(RETRIEVAL, retrieve, f"the turn stating {what} {how}", path)


def _added_beside_stale(
    view: SystemView,
    carriers: Carriers,
    held: list[VarVersion],
    live: list[VarVersion],
    what: str,
) -> Loss | None:
    """KU: the new value was added as a unit of its own while a stale one stayed live."""
    # Whether an ``add`` wrote it is cheap to tell; only then are the live units checked for
    # the stale value (a RAG system, which adds nothing, holds thousands of them).
    first = next((v for v in view.trace.versions(held[0].identity) if carriers(v.key)), None)
    add = view.writer(first.key) if first is not None else None
    if first is None or add is None or op_kind(add) != "add":
        return None
    holders = {h.identity for h in held}
    stale = [v for v in live if v.identity not in holders and carriers.stale(v.key)]
    if not stale:
        return None
    decide = _decision_for(view, add)
    op = decide or add
    return Loss(
        UPDATE,
        op,
        f"{what} was added as a new unit {_nid(first)} instead of updating "
        f"{_nid(stale[0])}, which still said {_quote(view.text(stale[0].key))}",
        [*view.path(carriers.turns, first.key), op.id],
    )


def _decision_for(view: SystemView, apply: Operation) -> Operation | None:
    """The ``decide`` op that read the same candidate an add / update applied."""
    for k in apply.reads:
        if role_of(k[0]) in STORED_ROLES:
            continue
        for o in view.readers(k):
            if op_kind(o) == "decide" and o.seq < apply.seq:
                return o
    return None


def _lost_after_storing(
    view: SystemView,
    carriers: Carriers,
    stored: dict[str, list[VarVersion]],
    what: str,
    maybe: set[NodeKey],
) -> Loss | None:
    best: Loss | None = None
    for versions in stored.values():
        for i, v in enumerate(versions):
            if v.deleted or v.key not in maybe or not carriers(v.key):
                continue
            nxt = next((w for w in versions[i + 1 :] if w.deleted or not carriers(w.key)), None)
            op = view.writer(nxt.key) if nxt is not None else None
            if nxt is None or op is None:
                break
            if best is not None and best.op is not None and best.op.seq <= op.seq:
                break
            path = [*view.path(carriers.turns, v.key), op.id]
            if nxt.deleted:
                best = Loss(DELETION, op, f"{_nid(v)} stated {what}; {op.name} deleted it", path)
            else:
                best = Loss(
                    UPDATE,
                    op,
                    f"{_nid(v)} stated {what}; {op.name} rewrote it as "
                    f"{_quote(view.text(nxt.key))}",
                    path,
                )
            break
    return best


def _never_stored(view: SystemView, carriers: Carriers, writes: list[Operation], what: str) -> Loss:
    extracts = [o for o in writes if op_kind(o) == "extract"]
    candidates = [
        k for o in extracts for k in o.writes if role_of(k[0]) not in STORED_ROLES and carriers(k)
    ]
    for cand in candidates:
        loss = _candidate_loss(view, carriers, cand, writes, what)
        if loss is not None:
            return loss
    if candidates:
        return _unconsumed(view, carriers, candidates[0], writes, what)
    reading = [o for o in extracts if _reads_any(o, carriers.turns)]
    if reading:
        op = reading[0]
        return Loss(
            EXTRACTION,
            op,
            _extraction_reason(view, op, carriers, what),
            [*_turn_nodes(view, op, carriers.turns), op.id],
        )
    ingest = [o for o in writes if _reads_any(o, carriers.turns)]
    first = ingest[0] if ingest else None
    return Loss(
        EXTRACTION,
        first,
        f"no extraction read the turn stating {what}",
        [*_turn_nodes(view, first, carriers.turns), first.id] if first else [],
    )


def _extraction_reason(view: SystemView, op: Operation, carriers: Carriers, what: str) -> str:
    n = len(op.writes)
    if carriers.need.structural:
        said = "it wrote nothing" if n == 0 else f"none of its {n} outputs came from it"
        return f"{op.name} read {what} but {said}"
    if n == 1:
        said = f"its output {_quote(view.text(op.writes[0]))} does not"
    else:
        said = "it wrote nothing that would" if n == 0 else f"none of its {n} outputs"
    return f"{op.name} read the evidence turn but {said} state {what}"


def _unconsumed(
    view: SystemView,
    carriers: Carriers,
    cand: tuple[str, int],
    writes: list[Operation],
    what: str,
) -> Loss:
    """A candidate stating the fact that no decision or store operation read."""
    made = view.writer(cand)
    after = made.seq if made is not None else -1
    decide = next((o for o in writes if op_kind(o) == "decide" and o.seq > after), None)
    path = view.path(carriers.turns, cand)
    if decide is not None:
        return Loss(
            UPDATE,
            decide,
            f"candidate {cand[0]}@{cand[1]} stated {what}, but {decide.name} did not consider it",
            [*path, decide.id],
        )
    return Loss(
        EXTRACTION,
        made,
        f"candidate {cand[0]}@{cand[1]} stated {what}, but nothing stored it",
        [*path, made.id] if made is not None else path,
    )


def _candidate_loss(
    view: SystemView,
    carriers: Carriers,
    cand: tuple[str, int],
    writes: list[Operation],
    what: str,
) -> Loss | None:
    limit = writes[-1].seq if writes else 0
    readers = [o for o in view.readers(cand) if o.seq <= limit]
    path = view.path(carriers.turns, cand)
    for o in readers:
        if op_kind(o) in ("add", "update"):
            out = [k for k in o.writes if role_of(k[0]) in STORED_ROLES]
            shown = _quote(view.text(out[0])) if out else "nothing"
            return Loss(
                UPDATE,
                o,
                f"candidate {cand[0]}@{cand[1]} stated {what}; {o.name} stored {shown}",
                [*path, o.id],
            )
    decides = [o for o in readers if op_kind(o) == "decide"]
    if decides:
        d = decides[0]
        decision = d.attrs.get("decision", "?")
        target = d.attrs.get("target")
        about = f" (target {target})" if target else ""
        return Loss(
            UPDATE,
            d,
            f"candidate {cand[0]}@{cand[1]} stated {what}; {d.name} decided {decision}{about} "
            "and nothing stored it",
            [*path, d.id],
        )
    return None


def _reads_any(op: Operation, identities: Iterable[str]) -> bool:
    wanted = set(identities)
    return any(k[0] in wanted for k in op.reads)


def _turn_nodes(view: SystemView, op: Operation | None, turns: frozenset[str]) -> list[str]:
    if op is None:
        return []
    return [f"{i}@{v}" for i, v in op.reads if i in turns][:1]
