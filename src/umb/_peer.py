"""Peer benchmarks as one extension point: a folder under ``umb.interop`` and one registry entry.

A :class:`Peer` names its importer, exporter and scorers as ``"module:attr"`` strings, so the
layers that use peers (the CLI's ``import``/``export``, scoring, the report) find them through
:data:`PEERS` without importing ``umb.interop``, and nothing loads until it is used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from umb._registry import Registry, load_target


@dataclass(frozen=True)
class PeerOption:
    """An option of ``umb export`` that one peer's exporter takes as a keyword argument."""

    name: str
    """The keyword (``max_shard_mb``); the command's flag is ``--max-shard-mb``."""
    type: type
    """``int``, ``float`` or ``str``."""
    help: str
    default: Any = None
    """The exporter's own default, shown in the help text; not given means not passed."""


@dataclass(frozen=True)
class Peer:
    """A peer benchmark: its file format in and out of umb, and its own scorers."""

    name: str
    """The ``--format`` / ``umb import`` name, e.g. ``locomo``."""
    title: str
    """How its authors name it, for messages and the report."""
    files: str = ""
    """The peer's file names, for help texts (``locomo10.json``)."""
    importer: str | None = None
    """``"module:func"``: ``func(path, out) -> manifest dict`` writes a umb benchmark."""
    exporter: str | None = None
    """``"module:func"``: ``func(bench_dir, out_file) -> InteropLog`` writes the peer's file."""
    scorers: Mapping[str, str] = field(default_factory=dict)
    """Scorer name -> ``"module:Class"`` of the peer's own metrics."""
    answer_profile: str | None = None
    """``"module:attr"`` of the ``AnswerProfile`` its questions are asked with under a peer
    scorer (``umb.interop._profile``); None: umb's short-answer profile."""
    retrieval: str | None = None
    """``"module:func"``: ``func(question, context_turns, ranking, top_k, granularity) -> dict``,
    the peer's retrieval metrics of one answered question; None: none."""
    adversarial_category: str | None = None
    """A native category reported apart (LoCoMo's adversarial questions): results also give the
    overall without it."""
    reports_abstention: bool = False
    """Whether results give the accuracy on abstention (``ABS``) questions apart."""
    directory: bool = False
    """Whether the peer's files are a folder: ``umb import`` reads one, ``umb export`` writes
    one (``--out`` names the folder)."""
    export_options: tuple[PeerOption, ...] = ()
    """Options of ``umb export`` passed to the exporter as keyword arguments."""

    def import_file(self, path: str | Path, out: str | Path) -> dict[str, Any]:
        """Import the peer's file at ``path`` into the benchmark directory ``out``."""
        if self.importer is None:
            raise NotImplementedError(f"{self.title} has no importer")
        result: dict[str, Any] = load_target(self.importer)(path, out)  # type: ignore[operator]
        return result

    def export(self, bench: str | Path, out: str | Path, **options: Any) -> Any:
        """Export the umb benchmark at ``bench`` to the peer's format at ``out``
        (``options``: values of :attr:`export_options`)."""
        if self.exporter is None:
            raise NotImplementedError(f"{self.title} has no exporter")
        return load_target(self.exporter)(bench, out, **options)  # type: ignore[operator]


def _is_peer(name: str, obj: object) -> Peer:
    if not isinstance(obj, Peer):
        raise TypeError(f"peer {name!r} is not a umb Peer: {obj!r}")
    return obj


PEERS: Registry[Peer] = Registry("peer benchmark", "peer", check=_is_peer)
PEERS.add_lazy("locomo", "umb.interop.locomo:PEER")
PEERS.add_lazy("longmemeval", "umb.interop.longmemeval:PEER")
PEERS.add_lazy("umb-release", "umb.interop.umb_release:PEER")
PEERS.add_lazy("hf", "umb.interop.hf:PEER")


def formats(*, direction: str) -> list[str]:
    """Peer names that can be imported (``direction="import"``) or exported (``"export"``)."""
    attr = "importer" if direction == "import" else "exporter"
    return [name for name, peer in PEERS.items() if getattr(peer, attr) is not None]
