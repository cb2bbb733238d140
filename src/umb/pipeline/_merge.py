"""Merge shards generated with ``--shard i/k`` into one benchmark directory."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import orjson

from umb._errors import ConfigError
from umb._jsonio import read_json
from umb.bench import DIALOGUES, FACTS, MANIFEST, QUESTIONS, WORLD, write_manifest, write_world


def _shard_key(manifest: dict[str, Any]) -> int:
    return int(str(manifest.get("shard", "0/1")).split("/")[0])


def merge_shards(shards: list[Path], out: Path) -> dict[str, Any]:
    """Concatenate shard records in shard order; the result equals a one-shot run."""
    manifests = [read_json(p / MANIFEST) for p in shards]
    configs = {orjson.dumps(m["config"], option=orjson.OPT_SORT_KEYS) for m in manifests}
    if len(configs) != 1:
        raise ConfigError("shards were generated with different configs")
    order = sorted(range(len(shards)), key=lambda i: _shard_key(manifests[i]))
    out.mkdir(parents=True, exist_ok=True)
    for name in (DIALOGUES, QUESTIONS, FACTS):
        tmp = out / f".{name}.merge"
        with tmp.open("wb") as dst:
            for i in order:
                with (shards[i] / name).open("rb") as src:
                    shutil.copyfileobj(src, dst, 1 << 20)
        tmp.replace(out / name)
    characters, events, timelines = [], {}, {}
    for i in order:
        world = read_json(shards[i] / WORLD)
        characters += world["characters"]
        events.update({e["id"]: e for e in world["events"]})
        timelines.update(world["timelines"])
    write_world(out, characters, events, timelines)
    counts: dict[str, Any] = {}
    for m in manifests:
        for key, value in m["counts"].items():
            if isinstance(value, dict):
                sub = counts.setdefault(key, {})
                for k, v in value.items():
                    sub[k] = sub.get(k, 0) + v
            else:
                counts[key] = counts.get(key, 0) + value
    counts["questions_per_family"] = dict(sorted(counts.get("questions_per_family", {}).items()))
    first = manifests[0]
    return write_manifest(out, generator=first["generator"], config=first["config"], counts=counts)
