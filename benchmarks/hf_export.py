"""Time and peak memory of `umb export --format hf` and `umb import hf`, and the round trip.

Usage: python benchmarks/hf_export.py [--bench DIR | --preset umb] [--max-shard-mb 500]
       [--keep DIR] [--load]

Without ``--bench`` the preset is generated first (not timed here; see generate.py). Export
and import each run in a fresh child process, which reports its own peak RSS. Then: the shard
count and largest shard per config, whether every file of the re-imported benchmark (manifest
included) has the original's bytes, `umb validate` on it, and `mlcroissant`'s validation of
``croissant.json`` with the first records of every record set. ``--load`` also loads the
``questions`` config with ``datasets`` and streams the first dialogue.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_CHILD = """
import resource, runpy, sys, time
sys.argv = ["umb", *sys.argv[1:]]
t0 = time.perf_counter()
try:
    runpy.run_module("umb", run_name="__main__")
except SystemExit as e:
    if e.code:
        raise
r = resource.getrusage(resource.RUSAGE_SELF)
print("MEASURE", time.perf_counter() - t0, r.ru_utime + r.ru_stime, r.ru_maxrss / 1024,
      file=sys.stderr)
"""


def measure(args: list[str]) -> tuple[float, float, float]:
    """Run ``umb ARGS`` in a child; return (seconds, CPU seconds, peak RSS MiB) of the child."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, *args],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    line = next(x for x in done.stderr.splitlines() if x.startswith("MEASURE"))
    secs, cpu, mib = (float(x) for x in line.split()[1:])
    return secs, cpu, mib


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def croissant_check(folder: Path, records: int) -> tuple[int, int, dict[str, int]]:
    """(errors, warnings, records read per record set) of mlcroissant on ``croissant.json``."""
    import mlcroissant as mlc

    ds = mlc.Dataset(folder / "croissant.json")
    issues = ds.metadata.ctx.issues
    read = {}
    for rs in ds.metadata.record_sets:
        n = 0
        for _ in ds.records(rs.uuid):
            n += 1
            if n == records:
                break
        read[rs.uuid] = n
    return len(issues.errors), len(issues.warnings), read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bench", type=Path, help="An existing benchmark directory.")
    parser.add_argument("--preset", default="umb")
    parser.add_argument("--max-shard-mb", type=float, default=500)
    parser.add_argument("--keep", type=Path, help="Write outputs here instead of a temp dir.")
    parser.add_argument("--records", type=int, default=20, help="Croissant records per set.")
    parser.add_argument("--load", action="store_true", help="Also load with `datasets`.")
    opts = parser.parse_args()
    root = opts.keep or Path(tempfile.mkdtemp(prefix="umb-hf-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    bench = opts.bench
    if bench is None:
        bench = root / opts.preset
        subprocess.run(
            [sys.executable, "-m", "umb", "generate", "--preset", opts.preset, "--out",
             str(bench), "--no-progress", "--force"],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
    hf, back = root / "hf", root / "back"
    size = sum(p.stat().st_size for p in bench.iterdir()) / 2**20
    print(f"benchmark {bench.name}: {size:,.0f} MiB of records")
    print(f"{'step':<10}{'seconds':>10}{'CPU s':>10}{'peak MiB':>10}")
    steps = {
        "export": ["export", str(bench), "--format", "hf", "--out", str(hf), "--force",
                   "--max-shard-mb", str(opts.max_shard_mb)],
        "import": ["import", "hf", str(hf), "-o", str(back), "--force"],
        "validate": ["validate", str(back), "--no-progress"],
    }  # fmt: skip
    for step, args in steps.items():
        secs, cpu, mib = measure(args)
        print(f"{step:<10}{secs:>10.1f}{cpu:>10.1f}{mib:>10.0f}", flush=True)

    limit = opts.max_shard_mb * 2**20
    print(f"\n{'config':<11}{'rows':>12}{'shards':>8}{'largest MiB':>13}{'total MiB':>11}")
    card = (hf / "README.md").read_text()
    info = {c["config_name"]: c for c in _front_matter(card)["dataset_info"]}
    for config in sorted((hf / "data").iterdir()):
        sizes = [p.stat().st_size for p in config.glob("*.parquet")]
        rows = info[config.name]["splits"][0]["num_examples"]
        print(
            f"{config.name:<11}{rows:>12,}{len(sizes):>8}{max(sizes) / 2**20:>13.1f}"
            f"{sum(sizes) / 2**20:>11.1f}  {'ok' if max(sizes) < limit else 'OVER LIMIT'}"
        )

    names = ["manifest.json", *json.loads((bench / "manifest.json").read_text())["files"]]
    same = [n for n in names if sha256(bench / n) == sha256(back / n)]
    print(f"\nround trip: {len(same)}/{len(names)} files byte-identical ({', '.join(names)})")

    t0 = time.perf_counter()
    errors, warnings, read = croissant_check(hf, opts.records)
    print(f"mlcroissant: {errors} errors, {warnings} warnings; records read "
          + ", ".join(f"{k} {v}" for k, v in read.items())
          + f" ({time.perf_counter() - t0:.1f} s)")  # fmt: skip
    if opts.load:
        _load(hf, root / "cache")


def _front_matter(card: str) -> dict:
    import yaml

    return yaml.safe_load(card.split("---\n", 2)[1])


def _load(hf: Path, cache: Path) -> None:
    import datasets

    t0 = time.perf_counter()
    qs = datasets.load_dataset(str(hf), "questions", split="test", cache_dir=str(cache))
    first = next(iter(datasets.load_dataset(str(hf), "dialogues", split="test", streaming=True)))
    print(
        f"datasets: {qs.num_rows:,} questions loaded, first dialogue {first['id']} streamed "
        f"with {len(first['sessions'])} sessions ({time.perf_counter() - t0:.1f} s)"
    )


if __name__ == "__main__":
    main()
