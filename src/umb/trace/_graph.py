"""A trace read back as a bipartite graph, with the queries attribution needs."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from umb.trace._ids import make_preview, preview_of
from umb.trace._inputs import TURN_PREFIX, BenchmarkTurns, transcript
from umb.trace._model import NodeKey, Operation, ScopeInfo, StoredValue, Subgraph, VarVersion


class Trace:
    """Operations and variable versions of one trace, indexed for lineage queries.

    Edges are implied: an operation's ``reads`` point from variable versions to it, its ``writes``
    from it to the versions it produced. Operations are ordered by ``seq``.
    """

    def __init__(
        self,
        ops: Iterable[Operation],
        nodes: Iterable[VarVersion],
        values: dict[str, StoredValue] | None = None,
        *,
        scopes: dict[str, ScopeInfo] | None = None,
        meta: dict[str, Any] | None = None,
        issues: Sequence[str] = (),
        annotations: Sequence[dict[str, Any]] = (),
        torn_tail: bool = False,
    ) -> None:
        self.ops: tuple[Operation, ...] = tuple(sorted(ops, key=lambda o: o.seq))
        self.values = values or {}
        self.scopes = scopes or {}
        self.meta = meta or {}
        self.issues = list(issues)
        """Consistency problems found while reading (unresolved reads, diverged replays, …)."""
        self.annotations = [dict(a) for a in annotations]
        """MemTraceBench ``data.annotations`` of an imported graph, unknown keys included."""
        self.torn_tail = torn_tail
        self.inputs: BenchmarkTurns | None = None
        """The benchmark turns a format-2 trace refers to (set by :func:`read_trace`)."""
        self._texts: dict[str, str] = {}  # transcripts built from the inputs, by value hash
        self._op = {o.id: o for o in self.ops}
        self._nodes: dict[NodeKey, VarVersion] = {}
        self._versions: dict[str, list[VarVersion]] = {}
        for n in nodes:
            self._nodes[n.key] = n
        for n in sorted(self._nodes.values(), key=lambda n: n.version):
            self._versions.setdefault(n.identity, []).append(n)
        self._writers: dict[NodeKey, list[str]] = {}
        self._readers: dict[NodeKey, list[str]] = {}
        for o in self.ops:
            for k in o.writes:
                self._writers.setdefault(k, []).append(o.id)
            for k in o.reads:
                self._readers.setdefault(k, []).append(o.id)

    # -- lookup ------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.ops)

    def op(self, op_id: str) -> Operation:
        """Return the operation with id ``op_id`` (``KeyError`` when absent)."""
        return self._op[op_id]

    @property
    def nodes(self) -> tuple[VarVersion, ...]:
        """Every variable version."""
        return tuple(self._nodes.values())

    def identities(self, role: str | None = None) -> list[str]:
        """Every identity (of ``role`` only, when given), sorted."""
        return sorted(i for i in self._versions if role is None or i.split(":", 1)[0] == role)

    def node(self, identity: str, version: int | None = None) -> VarVersion:
        """Return one version of ``identity``: the given one, or the latest.

        Raises:
            KeyError: No such variable or version.
        """
        if version is None:
            return self._versions[identity][-1]
        return self._nodes[(identity, version)]

    def versions(self, identity: str) -> list[VarVersion]:
        """Every version of ``identity`` in order (a memory unit's history, tombstone included)."""
        return list(self._versions.get(identity, ()))

    def value(self, node: VarVersion) -> Any:
        """The recorded value of a version (``None`` when not recorded).

        A benchmark turn, or a transcript of turns, that the trace holds by reference is read
        from the benchmark (:attr:`inputs`).
        """
        if node.value_hash is None:
            return self._input(node)
        sv = self.values.get(node.value_hash)
        if sv is None:
            return None
        if sv.turns is not None:
            text = self._texts.get(sv.hash)
            if text is None and (text := self._transcript(sv.turns)) is not None:
                self._texts[sv.hash] = text
            return text
        return sv.value

    def preview(self, node: VarVersion) -> str:
        """A one-line excerpt of a version's value (``""`` when not recorded)."""
        sv = self.values.get(node.value_hash) if node.value_hash else None
        if sv is not None and sv.turns is None:
            return sv.preview
        value = self.value(node)
        return (
            ""
            if value is None
            else make_preview(value)
            if isinstance(value, str)
            else (preview_of(value))
        )

    def _input(self, node: VarVersion) -> str | None:
        if self.inputs is None or node.writer is not None:
            return None
        if not node.identity.startswith(TURN_PREFIX):
            return None
        turn = self.inputs.get(node.identity[len(TURN_PREFIX) :])
        return turn.text if turn is not None else None

    def _transcript(self, turn_ids: tuple[str, ...]) -> str | None:
        if self.inputs is None:
            return None
        turns = [self.inputs.get(t) for t in turn_ids]
        return transcript(t for t in turns if t is not None)

    def writers(self, identity: str, version: int | None = None) -> list[Operation]:
        """Operations that wrote ``identity`` (one version, or every version), in seq order."""
        keys = [(identity, version)] if version is not None else self._keys(identity)
        return self._ops_of(self._writers, keys)

    def readers(self, identity: str, version: int | None = None) -> list[Operation]:
        """Operations that read ``identity`` (one version, or any version), in seq order."""
        keys = [(identity, version)] if version is not None else self._keys(identity)
        return self._ops_of(self._readers, keys)

    def question_ops(self, question_id: str) -> list[Operation]:
        """Operations recorded for one question (attribute ``question_id``), in seq order."""
        return [o for o in self.ops if o.attrs.get("question_id") == question_id]

    def dialogue_ops(self, dialogue_id: str) -> list[Operation]:
        """Operations recorded for one dialogue (its ingest and its questions), in seq order."""
        return [o for o in self.ops if o.attrs.get("dialogue_id") == dialogue_id]

    # -- graph walks -------------------------------------------------------------------------

    def lineage(
        self, identity: str, version: int | None = None, *, max_depth: int | None = None
    ) -> Subgraph:
        """Everything upstream of a version: the ops that wrote it, their inputs, and so on.

        ``max_depth`` counts operations: 1 = the writer and its inputs only.
        """
        start = self.node(identity, version).key
        return self._walk([start], upstream=True, max_depth=max_depth)

    def descendants(
        self, identity: str, version: int | None = None, *, max_depth: int | None = None
    ) -> Subgraph:
        """Everything downstream of a version: the ops that read it, what they wrote, and so on."""
        start = self.node(identity, version).key
        return self._walk([start], upstream=False, max_depth=max_depth)

    def paths(
        self, source: str, target: str, *, target_version: int | None = None, limit: int = 100
    ) -> list[list[str]]:
        """Paths from any version of ``source`` to a version of ``target`` (latest by default).

        Each path alternates node ids (``identity@version``) and op ids, from source to target.
        At most ``limit`` paths are returned, shortest first.
        """
        goal = self.node(target, target_version).key
        ancestors = self._walk([goal], upstream=True, max_depth=None)
        allowed_nodes = {n.key for n in ancestors.nodes}
        allowed_ops = {o.id for o in ancestors.ops}
        found: list[list[str]] = []
        for start in self._keys(source):
            if start not in allowed_nodes:
                continue
            path = [f"{start[0]}@{start[1]}"]
            self._dfs(start, goal, allowed_nodes, allowed_ops, path, found, limit * 4)
        found.sort(key=len)
        return found[:limit]

    def question_subgraph(
        self,
        question_id: str,
        *,
        sources: Iterable[str] | None = None,
        max_nodes: int | None = 200,
        also: Iterable[str] = (),
    ) -> Subgraph:
        """The evidence subgraph of one question.

        Its operations and their inputs and outputs, plus their upstream lineage. With
        ``sources`` (identities such as the gold evidence turns), the lineage is cut to what lies
        on a path from one of them; ``max_nodes`` caps the number of variable versions, nearest
        to the question first. ``also`` names operations (with their reads and writes) and
        versions (``identity@version``) to draw as well, kept before any other when cutting:
        an attribution's evidence path and faulty operation, which may lie off the lineage.
        """
        q_ops = self.question_ops(question_id)
        starts = [k for o in q_ops for k in (*o.reads, *o.writes)]
        up = self._walk(starts, upstream=True, max_depth=None)
        ops = {o.id: o for o in (*up.ops, *q_ops)}
        nodes = {n.key: n for n in up.nodes}
        if sources is not None:
            src_keys = [k for s in sources for k in self._keys(s)]
            down = self._walk(src_keys, upstream=False, max_depth=None)
            keep_n = {n.key for n in down.nodes} | set(starts)
            keep_o = {o.id for o in down.ops} | {o.id for o in q_ops}
            ops = {i: o for i, o in ops.items() if i in keep_o}
            nodes = {k: n for k, n in nodes.items() if k in keep_n}
        extra = self._extra_keys(also, ops)
        for k in extra:
            if k in self._nodes:
                nodes[k] = self._nodes[k]
        kept = list(nodes.values())
        truncated = max_nodes is not None and len(kept) > max_nodes
        if truncated:
            order = {k: i for i, k in enumerate([*extra, *self._nearest_first(starts)])}
            kept.sort(key=lambda n: order.get(n.key, len(order)))
            kept = kept[:max_nodes]
            keys = {n.key for n in kept}
            ops = {
                i: o
                for i, o in ops.items()
                if o.question_id == question_id or any(k in keys for k in (*o.reads, *o.writes))
            }
        return Subgraph(tuple(sorted(ops.values(), key=lambda o: o.seq)), tuple(kept), truncated)

    # -- internals ---------------------------------------------------------------------------

    def _extra_keys(self, also: Iterable[str], ops: dict[str, Operation]) -> list[NodeKey]:
        """Add the operations named in ``also`` to ``ops``; return the versions to draw."""
        keys: list[NodeKey] = []
        for item in also:
            op = self._op.get(item)
            if op is not None:
                ops[op.id] = op
                keys.extend((*op.reads, *op.writes))
                continue
            identity, sep, version = item.rpartition("@")
            if sep and version.isdigit():
                keys.append((identity, int(version)))
        return list(dict.fromkeys(keys))

    def _keys(self, identity: str) -> list[NodeKey]:
        return [n.key for n in self._versions.get(identity, ())]

    def _ops_of(self, index: dict[NodeKey, list[str]], keys: Iterable[NodeKey]) -> list[Operation]:
        ids = {i for k in keys for i in index.get(k, ())}
        return sorted((self._op[i] for i in ids), key=lambda o: o.seq)

    def _walk(
        self, starts: Iterable[NodeKey], *, upstream: bool, max_depth: int | None
    ) -> Subgraph:
        index = self._writers if upstream else self._readers
        seen_n: dict[NodeKey, None] = {}  # a dict keeps discovery order (a set would not)
        seen_o: dict[str, Operation] = {}
        queue: deque[tuple[NodeKey, int]] = deque()
        for k in starts:
            if k not in seen_n:
                seen_n[k] = None
                queue.append((k, 0))
        while queue:
            key, depth = queue.popleft()
            if max_depth is not None and depth >= max_depth:
                continue
            for oid in index.get(key, ()):
                if oid in seen_o:
                    continue
                op = seen_o[oid] = self._op[oid]
                for nk in op.reads if upstream else op.writes:
                    if nk not in seen_n:
                        seen_n[nk] = None
                        queue.append((nk, depth + 1))
        nodes = tuple(self._nodes[k] for k in seen_n if k in self._nodes)
        return Subgraph(tuple(sorted(seen_o.values(), key=lambda o: o.seq)), nodes)

    def _nearest_first(self, starts: Iterable[NodeKey]) -> Iterator[NodeKey]:
        seen: set[NodeKey] = set()
        queue = deque(starts)
        while queue:
            key = queue.popleft()
            if key in seen:
                continue
            seen.add(key)
            yield key
            for oid in self._writers.get(key, ()):
                queue.extend(self._op[oid].reads)

    def _dfs(
        self,
        key: NodeKey,
        goal: NodeKey,
        nodes: set[NodeKey],
        ops: set[str],
        path: list[str],
        out: list[list[str]],
        cap: int,
    ) -> None:
        if len(out) >= cap:
            return
        if key == goal:
            out.append(list(path))
            return
        for oid in self._readers.get(key, ()):
            if oid not in ops:
                continue
            for nk in self._op[oid].writes:
                if nk in nodes and f"{nk[0]}@{nk[1]}" not in path:
                    path.extend((oid, f"{nk[0]}@{nk[1]}"))
                    self._dfs(nk, goal, nodes, ops, path, out, cap)
                    del path[-2:]
