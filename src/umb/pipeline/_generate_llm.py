"""``umb generate --renderer llm``: the template benchmark as skeleton, then the LLM render."""

from __future__ import annotations

import tempfile
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from umb._jsonio import read_json
from umb.pipeline._generate import GenerateConfig, generate
from umb.render import SKELETON, WORK, RenderJob, RenderOutcome, dry_run, render_benchmark


def skeleton_for(config: GenerateConfig, out: Path, shard: str | None) -> Path:
    """The template benchmark under ``out/render/skeleton``, generated unless already there."""
    path = out / WORK / SKELETON
    manifest = path / "manifest.json"
    if manifest.exists():
        existing = read_json(manifest)
        same = existing.get("config") == asdict(config) and existing.get("shard") == shard
        # The generator writes the manifest last, so matching sizes mean a finished skeleton.
        files = existing.get("files", {})
        whole = all(
            (path / name).exists() and (path / name).stat().st_size == info.get("bytes")
            for name, info in files.items()
        )
        if same and files and whole:
            return path
    generate(config, path, shard=shard)
    return path


def generate_llm(config: GenerateConfig, job: RenderJob, shard: str | None = None) -> RenderOutcome:
    """Generate the benchmark of ``config`` with LLM dialogues into ``job.out``.

    ``job.source`` is ignored: the skeleton is the template benchmark of the same config,
    generated (deterministically, in seconds) under ``job.out/render/skeleton``.
    """
    source = skeleton_for(config, job.out, shard)
    return render_benchmark(replace(job, source=source))


def generate_llm_dry_run(
    config: GenerateConfig, job: RenderJob, shard: str | None = None
) -> dict[str, Any]:
    """The dry-run estimate for :func:`generate_llm` (the skeleton goes to a temporary folder
    unless ``job.out`` already has one)."""
    existing = job.out / WORK / SKELETON / "manifest.json"
    if existing.exists() and read_json(existing).get("config") == asdict(config):
        return dry_run(replace(job, source=existing.parent))
    with tempfile.TemporaryDirectory(prefix="umb-skeleton-") as tmp:
        generate(config, Path(tmp), shard=shard)
        return dry_run(replace(job, source=Path(tmp)))
