"""Peers' files <-> umb: one folder per peer benchmark (``locomo/``, ``longmemeval/``,
``umb_release/``, ``memtracebench/``), each holding its import, export and scorers behind one
:class:`~umb._peer.Peer` entry of :data:`PEERS`. A new peer's folder can use the helpers
exported here (reading the peer's file, writing the benchmark or the export, score records)."""

from __future__ import annotations

import typing

from umb._lazy import lazy_names as _lazy_names

if typing.TYPE_CHECKING:
    from umb._peer import PEERS, Peer
    from umb.interop._common import read_peer_json, source_info, write_export, write_imported
    from umb.interop._judge_templates import (
        TemplateSet,
        judge_templates_from_checkout,
        judge_templates_from_file,
    )
    from umb.interop._log import InteropLog
    from umb.interop._profile import PROFILE_VERSION, AnswerProfile, current_date_line
    from umb.interop._scorer_base import (
        AnswerScorer,
        RetrievalScorer,
        locomo_category,
        score_record,
    )
    from umb.interop.locomo import convert_locomo, export_locomo, import_locomo
    from umb.interop.longmemeval import convert_longmemeval, export_longmemeval, import_longmemeval
    from umb.interop.umb_release import convert_umb_release, export_umb_release, import_umb_release

# Names load on first use: a run of a umb benchmark reads one profile constant, not every
# peer's import code.
_LAZY: dict[str, str] = {
    "AnswerProfile": "umb.interop._profile",
    "PROFILE_VERSION": "umb.interop._profile",
    "TemplateSet": "umb.interop._judge_templates",
    "current_date_line": "umb.interop._profile",
    "judge_templates_from_checkout": "umb.interop._judge_templates",
    "judge_templates_from_file": "umb.interop._judge_templates",
    "PEERS": "umb._peer",
    "Peer": "umb._peer",
    "read_peer_json": "umb.interop._common",
    "source_info": "umb.interop._common",
    "write_export": "umb.interop._common",
    "write_imported": "umb.interop._common",
    "InteropLog": "umb.interop._log",
    "AnswerScorer": "umb.interop._scorer_base",
    "RetrievalScorer": "umb.interop._scorer_base",
    "locomo_category": "umb.interop._scorer_base",
    "score_record": "umb.interop._scorer_base",
    "convert_locomo": "umb.interop.locomo",
    "export_locomo": "umb.interop.locomo",
    "import_locomo": "umb.interop.locomo",
    "convert_longmemeval": "umb.interop.longmemeval",
    "export_longmemeval": "umb.interop.longmemeval",
    "import_longmemeval": "umb.interop.longmemeval",
    "convert_umb_release": "umb.interop.umb_release",
    "export_umb_release": "umb.interop.umb_release",
    "import_umb_release": "umb.interop.umb_release",
}
__getattr__, __dir__ = _lazy_names(__name__, _LAZY, globals())

__all__ = [
    "AnswerProfile",
    "PROFILE_VERSION",
    "TemplateSet",
    "current_date_line",
    "judge_templates_from_checkout",
    "judge_templates_from_file",
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
