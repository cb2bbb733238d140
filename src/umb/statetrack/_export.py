"""Write a built ladder in the original release's layout, for its evaluation scripts.

Layout::

    OUT/facts.json                          {character name: [five-field records]}
    OUT/fact_track_schema_longest/
        schema_longest_ladder_L{level}_tok{avg_tokens:04d}_c{chars}_s{schemas}_f{facts}
        _n{samples}_seed{seed}.json         a JSON list of samples

Each sample is ``{sample_id, meta, data: [{Task, Prompt, GT, Stats}]}`` with the original's
meta fields; the prompt lists the facts with ``day_ts`` times between the original's marker
lines. Token estimates follow the original (``round(chars / 4)``, at least 1) in these files.
Other tasks than ``schema_longest`` go to ``fact_track_<task>/<task>_ladder_….json``.
"""

from __future__ import annotations

import shutil
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from umb._errors import ConfigError
from umb._jsonio import atomic_write_bytes, dumps
from umb.statetrack._build import Ladder
from umb.statetrack._levels import Level
from umb.statetrack._prompts import Line, render_prompt
from umb.statetrack._tasks import TaskName

ORIGINAL_RATIO: Final = 4.0


def original_tokens(text: str) -> int:
    """The original's estimate: ``round(len / 4)``, at least 1 for non-empty text."""
    return max(1, round(len(text) / ORIGINAL_RATIO)) if text else 0


def ladder_file_name(task: str, lv: Level, avg_tokens: int, samples: int, seed: int) -> str:
    """``schema_longest_ladder_L05_tok0412_c1_s1_f5_n50_seed42.json`` and alike."""
    return (
        f"{task}_ladder_{lv.name}_tok{avg_tokens:04d}_c{lv.characters}_s{lv.schemas}"
        f"_f{lv.facts}_n{samples}_seed{seed}.json"
    )


def _original_sample(
    ladder: Ladder, sample: dict[str, Any], entry: dict[str, Any]
) -> dict[str, Any]:
    meta = sample["meta"]
    shown = ladder.lines(sample)
    names = set(meta["chosen_characters"])
    prompt = render_prompt(
        entry["Task"],
        [Line(f.schema, f.day, f.fact) for f in shown],
        meta["chosen_characters"],
        entry["Query"],
        style="day_ts",
        order=meta["order"],
        reference=meta["reference_day"],
        others=any(f.character not in names for f in shown),
    )
    stats = {
        "chars": len(prompt),
        "est_tokens": original_tokens(prompt),
        "task": entry["Task"],
        "facts_lines": len(shown),
    }
    return {
        "sample_id": sample["sample_id"],
        "meta": {
            "seed": meta["seed"],
            "token_char_ratio": ORIGINAL_RATIO,
            "num_characters": meta["num_characters"],
            "max_schemas_per_character": meta["max_schemas_per_character"],
            "max_facts_per_schema": meta["max_facts_per_schema"],
            "shuffle_facts": meta["shuffle_facts"],
            "chosen_characters": meta["chosen_characters"],
            "chosen_schemas": meta["chosen_schemas"],
            "stats": {
                "facts_lines": len(shown),
                "prompts": {entry["Task"]: {k: stats[k] for k in ("chars", "est_tokens")}},
                "sum_chars": stats["chars"],
                "sum_est_tokens": stats["est_tokens"],
            },
        },
        "data": [{"Task": entry["Task"], "Prompt": prompt, "GT": entry["GT"], "Stats": stats}],
    }


def export_original(
    ladder_dir: Path,
    out: Path,
    tasks: Sequence[TaskName] = ("schema_longest",),
    levels: Sequence[Level] | None = None,
) -> list[Path]:
    """Write ``facts.json`` and one file per (task, level) in the original's layout.

    Returns:
        The ladder files written, in level order.

    Raises:
        ConfigError: The ladder holds none of ``tasks``.
        DataError: The ladder directory is broken.
    """
    ladder = Ladder.open(ladder_dir)
    missing = [t for t in tasks if t not in ladder.manifest["options"]["tasks"]]
    if missing:
        raise ConfigError(f"the ladder has no task(s) {', '.join(missing)}")
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(ladder.root / "facts.json", out / "facts.json")
    seed = int(ladder.manifest["options"]["seed"])
    written = []
    for task in tasks:
        folder = out / f"fact_track_{task}"
        for lv in levels or ladder.levels():
            samples = [
                _original_sample(ladder, s, next(e for e in s["data"] if e["Task"] == task))
                for s in ladder.samples(lv)
            ]
            avg = round(statistics.fmean(s["data"][0]["Stats"]["est_tokens"] for s in samples))
            path = folder / ladder_file_name(task, lv, avg, len(samples), seed)
            for stale in folder.glob(f"{task}_ladder_{lv.name}_*.json"):
                if stale != path:
                    stale.unlink()
            atomic_write_bytes(path, dumps(samples))
            written.append(path)
    return written
