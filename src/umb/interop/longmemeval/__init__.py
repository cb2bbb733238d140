"""LongMemEval (``longmemeval_s/_m/_oracle.json``): import, export, judge, retrieval metrics."""

from umb._peer import Peer
from umb.interop.longmemeval._export import export_longmemeval
from umb.interop.longmemeval._import import convert_longmemeval, import_longmemeval

PEER = Peer(
    name="longmemeval",
    title="LongMemEval",
    files="longmemeval_s/_m/_oracle, original or _cleaned names",
    importer="umb.interop.longmemeval._import:import_longmemeval",
    exporter="umb.interop.longmemeval._export:export_longmemeval",
    answer_profile="umb.interop.longmemeval._profile:LONGMEMEVAL",
    retrieval="umb.interop.longmemeval._question_retrieval:longmemeval_retrieval",
    reports_abstention=True,
    scorers={
        "longmemeval_judge": "umb.interop.longmemeval._judge:LongMemEvalJudge",
        "longmemeval_retrieval": "umb.interop.longmemeval._retrieval:LongMemEvalRetrieval",
    },
)

__all__ = ["PEER", "convert_longmemeval", "export_longmemeval", "import_longmemeval"]
