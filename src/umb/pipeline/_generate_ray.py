"""``umb generate --executor ray``: character shards as Ray tasks, merged into one directory.

Generation is deterministic per character, so shard i of k holds exactly the bytes of those
characters in a whole run, and :func:`~umb.pipeline._merge.merge_shards` puts the whole back
together. Each task generates its shard in a temporary folder on its worker and returns the
files' bytes; the driver keeps each finished shard under ``OUT/.shards/<i>-of-<k>/`` (manifest
last, so a shard with a manifest is complete), which a rerun after a kill does not redo.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from umb._jsonio import atomic_write_bytes
from umb.bench import DIALOGUES, FACTS, MANIFEST, QUESTIONS, WORLD
from umb.pipeline._generate import GenerateConfig, generate
from umb.pipeline._merge import merge_shards
from umb.run import ExecutorOptions, import_ray, ray_cluster

# Imported only for --executor ray: importing this module is what loads the extra.
ray = import_ray()

SHARDS = ".shards"
_FILES = (WORLD, DIALOGUES, QUESTIONS, FACTS, MANIFEST)  # the manifest last: it marks a shard done
SHARDS_PER_WORKER = 4
"""Shards per worker: small enough that a slow shard does not hold up the end of the run."""


def generate_shard(config: GenerateConfig, index: int, count: int) -> dict[str, bytes]:
    """Ray task body: the files of shard ``index`` of ``count``, as bytes."""
    with tempfile.TemporaryDirectory(prefix="umb-shard-") as tmp:
        generate(config, Path(tmp), shard=f"{index}/{count}")
        return {name: (Path(tmp) / name).read_bytes() for name in _FILES}


def generate_on_ray(
    config: GenerateConfig,
    out: Path,
    executor: ExecutorOptions,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Generate the benchmark of ``config`` into ``out`` on Ray; returns its manifest.

    ``progress(done, total)`` is called per finished shard.
    """
    count = max(1, min(config.characters, executor.workers * SHARDS_PER_WORKER))
    staging = out / SHARDS
    parts = [staging / f"{i}-of-{count}" for i in range(count)]
    todo = [i for i, part in enumerate(parts) if not (part / MANIFEST).exists()]
    with ray_cluster(executor):
        task = ray.remote(num_cpus=1, max_retries=executor.task_retries)(generate_shard)
        running = {task.remote(config, i, count): i for i in todo}
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                i = running.pop(ref)
                _keep(parts[i], ray.get(ref))
                if progress:
                    progress(count - len(running), count)
    manifest = merge_shards(parts, out)
    shutil.rmtree(staging, ignore_errors=True)
    return manifest


def _keep(part: Path, files: dict[str, bytes]) -> None:
    part.mkdir(parents=True, exist_ok=True)
    for name in _FILES:
        atomic_write_bytes(part / name, files[name])
