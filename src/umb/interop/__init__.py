"""Peers' files <-> umb: one folder per peer benchmark (``locomo/``, ``longmemeval/``,
``umb_release/``, ``memtracebench/``), each holding its import, export and scorers behind one
:class:`~umb._peer.Peer` entry of :data:`PEERS`. A new peer's folder can use the helpers
exported here (reading the peer's file, writing the benchmark or the export, score records)."""

from umb._peer import PEERS, Peer
from umb.interop._common import read_peer_json, source_info, write_export, write_imported
from umb.interop._log import InteropLog
from umb.interop._scorer_base import AnswerScorer, RetrievalScorer, locomo_category
from umb.interop._scorer_base import record as score_record
from umb.interop.locomo import convert_locomo, export_locomo, import_locomo
from umb.interop.longmemeval import convert_longmemeval, export_longmemeval, import_longmemeval
from umb.interop.umb_release import convert_umb_release, export_umb_release, import_umb_release

__all__ = [
    "PEERS",
    "AnswerScorer",
    "InteropLog",
    "Peer",
    "RetrievalScorer",
    "convert_locomo",
    "convert_longmemeval",
    "convert_umb_release",
    "export_locomo",
    "export_longmemeval",
    "export_umb_release",
    "import_locomo",
    "import_longmemeval",
    "import_umb_release",
    "locomo_category",
    "read_peer_json",
    "score_record",
    "source_info",
    "write_export",
    "write_imported",
]
