"""LoCoMo (``locomo10.json``): import, export, and the authors' scorers plus Mem0's on it."""

from umb._peer import Peer
from umb.interop.locomo._export import export_locomo
from umb.interop.locomo._import import LoCoMoImport, convert_locomo, import_locomo

PEER = Peer(
    name="locomo",
    title="LoCoMo",
    files="locomo10.json",
    importer="umb.interop.locomo._import:import_locomo",
    exporter="umb.interop.locomo._export:export_locomo",
    answer_profile="umb.interop.locomo._profile:LOCOMO",
    retrieval="umb.interop.locomo._retrieval:locomo_retrieval",
    adversarial_category="5",
    scorers={
        "locomo_f1": "umb.interop.locomo._scorers:LoCoMoF1",
        "locomo_recall": "umb.interop.locomo._scorers:LoCoMoRecall",
        "mem0_f1": "umb.interop.locomo._mem0_scorers:Mem0SetF1",
        "mem0_bleu1": "umb.interop.locomo._mem0_scorers:Mem0Bleu1",
        "mem0_judge": "umb.interop.locomo._mem0_judge:Mem0Judge",
    },
)

__all__ = ["PEER", "LoCoMoImport", "convert_locomo", "export_locomo", "import_locomo"]
