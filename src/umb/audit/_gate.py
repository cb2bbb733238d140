"""The generate-time gate: the audit without its retrieval part, recorded in the manifest."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from umb._jsonio import atomic_write_bytes, dumps_pretty, read_json
from umb.audit._audit import AUDIT_VERSION, run_audit
from umb.audit._report import failure_lines, noise_lines
from umb.audit._sample import GATE_DIALOGUES

MANIFEST: Final = "manifest.json"


def _record(report: dict[str, Any]) -> dict[str, Any]:
    """What the manifest keeps: the verdict, the failures and every figure (means, %)."""
    return {
        "version": AUDIT_VERSION,
        "verdict": report["verdict"],
        "failures": [
            {k: c[k] for k in ("baseline", "family", "value", "max", "examples")}
            for c in report["failures"]
        ],
        "over_within_noise": [
            {k: c[k] for k in ("baseline", "family", "value", "ci95", "max", "examples")}
            for c in report["checks"]
            if c["over"] and c["passed"]
        ],
        "floor": {f: fig["mean"] for f, fig in report["floor"].items()},
        "baselines": {
            name: {f: fig["mean"] for f, fig in entry["families"].items()}
            for name, entry in report["baselines"].items()
        },
        "dialogues_audited": report["benchmark"]["dialogues_audited"],
        "dialogues": report["benchmark"]["dialogues"],
        "retrieval": "not run at generation (umb audit runs it)",
    }


def gate(root: str | Path, dialogues: int | None = GATE_DIALOGUES) -> dict[str, Any]:
    """Audit the benchmark in ``root`` (all but retrieval) and add the record to its manifest.

    Only a seeded sample of ``dialogues`` dialogues is audited (None: all), which keeps the
    gate's cost flat as a benchmark grows; the record says how many were.

    The record files and their hashes are unchanged; ``manifest.json`` gains an ``audit``
    object. The same benchmark always gets the same record, so shards merged by ``umb merge``
    (which gates too) give the bytes of a one-shot run.

    Returns:
        The full audit (as :func:`~umb.audit.run_audit` gives it).
    """
    path = Path(root) / MANIFEST
    report = run_audit(root, retrieval=False, dialogues=dialogues)
    manifest = read_json(path)
    manifest["audit"] = _record(report)
    atomic_write_bytes(path, dumps_pretty(manifest))
    return report


def gate_line(report: dict[str, Any]) -> str:
    """``audit: passed`` or ``audit: failed, <baseline> on <family> … (e.g. ids)``."""
    b = report["benchmark"]
    seen = f"{b['dialogues_audited']} of {b['dialogues']} dialogues"
    if report["verdict"] == "passed":
        noise = noise_lines(report)
        if noise:
            return f"audit: passed ({seen}; over within noise, not failed: {'; '.join(noise)})"
        return f"audit: passed ({seen}; shortcut baselines under their thresholds)"
    return f"audit: failed ({seen}), " + "; ".join(failure_lines(report))
