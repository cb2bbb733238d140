"""The original UnifiedMemBench release (``UMB_dialogue_benchmark.json``): import and export."""

from umb._peer import Peer
from umb.interop.umb_release._export import export_umb_release
from umb.interop.umb_release._import import convert_umb_release, import_umb_release

PEER = Peer(
    name="umb-release",
    title="UnifiedMemBench (original release)",
    files="UMB_dialogue_benchmark.json",
    importer="umb.interop.umb_release._import:import_umb_release",
    exporter="umb.interop.umb_release._export:export_umb_release",
)

__all__ = ["PEER", "convert_umb_release", "export_umb_release", "import_umb_release"]
