"""Plain-text tables for the terminal: a header, a rule, names left, numbers right."""

from __future__ import annotations

from collections.abc import Sequence


def format_table(header: Sequence[str], rows: Sequence[Sequence[str]], *, left: int = 1) -> str:
    """Columns padded to their widest cell; the first ``left`` columns are left-aligned."""
    lines = [list(header), *(list(r) for r in rows)]
    widths = [max(len(r[i]) for r in lines) for i in range(len(header))]
    out = []
    for k, row in enumerate(lines):
        cells = [c.ljust(w) if i < left else c.rjust(w)
                 for i, (c, w) in enumerate(zip(row, widths, strict=True))]  # fmt: skip
        out.append("  ".join(cells).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)
