"""MemTraceBench / smartcomment execution graphs <-> umb traces (specs/memtrace-graph-format.md)."""

from umb.interop.memtracebench._export import ERROR_TYPE_TO_MEMTRACE, export_memtrace
from umb.interop.memtracebench._import import import_memtrace

__all__ = ["ERROR_TYPE_TO_MEMTRACE", "export_memtrace", "import_memtrace"]
