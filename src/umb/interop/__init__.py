"""Peers' files <-> umb: import LoCoMo, LongMemEval and the original UnifiedMemBench release,
export umb benchmarks to their formats, and score with each peer's own metric
(:mod:`umb.interop.scorers`)."""

from umb.interop._log import InteropLog
from umb.interop.export_locomo import export_locomo
from umb.interop.export_longmemeval import export_longmemeval
from umb.interop.export_umb_release import export_umb_release
from umb.interop.locomo import convert_locomo, import_locomo
from umb.interop.longmemeval import convert_longmemeval, import_longmemeval
from umb.interop.umb_release import convert_umb_release, import_umb_release

#: ``--format`` name -> (importer, exporter)
FORMATS = {
    "locomo": (import_locomo, export_locomo),
    "longmemeval": (import_longmemeval, export_longmemeval),
    "umb-release": (import_umb_release, export_umb_release),
}

__all__ = [
    "FORMATS",
    "InteropLog",
    "convert_locomo",
    "convert_longmemeval",
    "convert_umb_release",
    "export_locomo",
    "export_longmemeval",
    "export_umb_release",
    "import_locomo",
    "import_longmemeval",
    "import_umb_release",
]
