"""Which variable versions still state a needed fact: what attribution follows through a trace.

Shared by the procedure (:mod:`umb.attribute._attribute`) and the search for where a fact was
lost (:mod:`umb.attribute._loss`).
"""

from __future__ import annotations

from umb.attribute._evidence import Matcher
from umb.attribute._facts import Need, states_stale
from umb.attribute._graph import SystemView
from umb.trace import NodeKey, role_of


class Carriers:
    """Which variable versions still state a needed fact, derived from its evidence turns."""

    def __init__(self, view: SystemView, matcher: Matcher, need: Need, turns: frozenset[str]):
        self.view = view
        self.matcher = matcher
        self.need = need
        self.turns = turns
        """Identities (``turn:…``) of the evidence turns that state the fact."""
        self._memo: dict[NodeKey, bool] = {}

    def __call__(self, key: NodeKey) -> bool:
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self._check(key)
        return hit

    def _check(self, key: NodeKey) -> bool:
        if role_of(key[0]) == "turn":
            return key[0] in self.turns
        node = self.view.node(key)
        if node is None or node.deleted:
            return False
        ancestry = self.view.ancestry(key)
        derived = bool(ancestry & self.turns)
        if self.need.structural:
            return derived
        # A version with no recorded ancestry (an instrumentation gap) is judged by value alone.
        if ancestry and not derived:
            return False
        text = self.view.text(key)
        # A verbatim copy of a carrier turn (a RAG unit) holds what the turn says, even where
        # the turn was admitted on its keys alone ("joined the watercolour painting club").
        if derived and any(q and q in text for q in map(self._turn_text, ancestry & self.turns)):
            return True
        return self.matcher.states(text, self.need, ask=derived)

    def _turn_text(self, identity: str) -> str:
        try:
            return self.view.text(self.view.trace.node(identity).key)
        except KeyError:
            return ""

    def stale(self, key: NodeKey) -> bool:
        """A live version stating a superseded value of the fact and not the fact."""
        node = self.view.node(key)
        if node is None or node.deleted:
            return False
        return states_stale(self.view.text(key), self.need)
