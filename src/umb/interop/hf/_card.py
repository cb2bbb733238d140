"""The dataset card ``README.md``: YAML front matter for the Hub, then prose from the manifest.

Every number and setting in the prose is read from the manifest or measured while writing the
shards; nothing is left for a person to fill in.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from umb._jsonio import atomic_write_bytes
from umb._version import __version__
from umb.families import FAMILY_NAMES, REQUIRED_FIELDS
from umb.interop.hf._configs import COLUMNS, ROW_MEANING, ConfigOut
from umb.interop.hf._schema import SPLIT

#: The license of what each importer reads; a generated benchmark follows the original release.
_SOURCE_LICENSES = {
    "locomo": "cc-by-nc-4.0",
    "longmemeval": "mit",
    "umb-release": "cc-by-4.0",
}
GENERATED_LICENSE = "cc-by-4.0"

_SIZE_BOUNDS = [
    (1_000, "n<1K"),
    (10_000, "1K<n<10K"),
    (100_000, "10K<n<100K"),
    (1_000_000, "100K<n<1M"),
    (10_000_000, "1M<n<10M"),
]

_FLAGS = {
    "characters": "--characters",
    "seed": "--seed",
    "target_tokens": "--target-tokens",
    "density": "--density",
    "start": "--start",
    "end": "--end",
}


def card_license(manifest: dict[str, Any], license: str | None) -> str:
    """The license id of the card: the one given, else the source's, else the release's."""
    if license:
        return license
    source = (manifest.get("config") or {}).get("source_format")
    return _SOURCE_LICENSES.get(str(source), "other") if source else GENERATED_LICENSE


def size_category(configs: list[ConfigOut]) -> str:
    """The Hub's size bucket, from the largest config's row count."""
    n = max((c.rows for c in configs), default=0)
    return next((label for bound, label in _SIZE_BOUNDS if n < bound), "n>10M")


def pretty_name(manifest: dict[str, Any]) -> str:
    config = manifest.get("config") or {}
    if config.get("source_format"):
        return f"UnifiedMemBench import of {config['source_format']} ({config.get('source_file')})"
    preset = config.get("preset") or "custom"
    return f"UnifiedMemBench ({preset} preset, seed {manifest.get('seed')})"


def generator_note(manifest: dict[str, Any]) -> str:
    """``<generator>, seed <n>``, or the generator alone for an import (it has no seed)."""
    seed = manifest.get("seed")
    return f"{manifest.get('generator')}" + (f", seed {seed}" if seed is not None else "")


def generate_command(manifest: dict[str, Any]) -> str:
    """The command that writes the benchmark again (the import command for imported ones)."""
    config = manifest.get("config") or {}
    if config.get("source_format"):
        return f"umb import {config['source_format']} {config.get('source_file')} -o bench"
    parts = ["umb generate"]
    if config.get("preset"):
        parts.append(f"--preset {config['preset']}")
    parts += [
        f"{flag} {config[key]}" for key, flag in _FLAGS.items() if config.get(key) is not None
    ]
    if "llm" in str(manifest.get("generator", "")):
        parts.append("--renderer llm")
    if manifest.get("shard"):
        parts.append(f"--shard {manifest['shard']}")
    return " ".join(parts + ["--out bench"])


def write_card(
    folder: Path,
    folder_name: str,
    manifest: dict[str, Any],
    configs: list[ConfigOut],
    stats: dict[str, Any],
    license: str | None,
) -> None:
    """Write ``folder/README.md``."""
    body = prose(folder_name, manifest, configs, stats, license)
    text = "---\n" + front_matter(manifest, configs, license) + "---\n\n" + body
    atomic_write_bytes(folder / "README.md", text.encode())


def front_matter(manifest: dict[str, Any], configs: list[ConfigOut], license: str | None) -> str:
    """The YAML the Hub reads: configs, ``dataset_info``, license, language, tasks, size."""
    import datasets
    from datasets.info import DatasetInfo, DatasetInfosDict
    from datasets.splits import SplitDict, SplitInfo
    from huggingface_hub import DatasetCardData

    data = DatasetCardData(
        license=card_license(manifest, license),
        language=["en"],
        task_categories=["question-answering", "text-generation"],
        task_ids=["open-domain-qa", "dialogue-modeling"],
        size_categories=[size_category(configs)],
        pretty_name=pretty_name(manifest),
        tags=["memory", "long-context", "dialogue", "synthetic", "benchmark", "croissant"],
        configs=[
            {
                "config_name": c.name,
                "data_files": [{"split": SPLIT, "path": c.glob}],
                **({"default": True} if c.name == "questions" else {}),
            }
            for c in configs
        ],
    )
    infos = {}
    for c in configs:
        splits = SplitDict()
        splits.add(SplitInfo(name=SPLIT, num_bytes=c.arrow_bytes, num_examples=c.rows))
        infos[c.name] = DatasetInfo(
            config_name=c.name,
            features=datasets.Features.from_arrow_schema(c.schema),
            splits=splits,
            download_size=c.parquet_bytes,
            dataset_size=c.arrow_bytes,
        )
    DatasetInfosDict(infos).to_dataset_card_data(data)
    yaml: str = data.to_yaml()
    return yaml if yaml.endswith("\n") else yaml + "\n"


def _mib(n: int) -> str:
    return f"{n / (1 << 20):,.1f} MiB"


def _table(header: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def manifest_leaves(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """``(dotted key, shown value)`` of every field of the manifest, nested ones flattened."""
    if isinstance(value, dict) and value:
        for k, v in value.items():
            yield from manifest_leaves(v, f"{key}.{k}" if key else str(k))
    elif isinstance(value, list) and any(isinstance(x, (dict, list)) for x in value):
        yield key, f"{len(value)} entries (in `umb-manifest.json`)"
    elif isinstance(value, list):
        yield key, ", ".join(f"`{x}`" for x in value) if value else "(none)"
    elif value is None:
        yield key, "null"
    elif value == {}:
        yield key, "(none)"
    else:
        yield key, f"`{value}`"


def prose(
    folder_name: str,
    manifest: dict[str, Any],
    configs: list[ConfigOut],
    stats: dict[str, Any],
    license: str | None,
) -> str:
    """The card's Markdown body."""
    counts = manifest.get("counts") or {}
    config = manifest.get("config") or {}
    imported = bool(config.get("source_format"))
    name = pretty_name(manifest)
    by_name = {c.name: c for c in configs}
    sections = [f"# {name}", _summary(manifest, imported)]
    sections.append("## Configs\n\n" + _configs_table(configs))
    sections.append(_loading(folder_name))
    sections.append(_making(folder_name, manifest, imported))
    sections.append(_size(counts, stats))
    sections.append(_families(counts))
    sections.append(_exactness(imported, "world" in by_name))
    sections.append(_fields(configs))
    sections.append(_limits(imported, stats))
    sections.append(_manifest_section(manifest))
    sections.append(_license_and_citation(manifest, license))
    return "\n\n".join(sections) + "\n"


def _summary(manifest: dict[str, Any], imported: bool) -> str:
    counts = manifest.get("counts") or {}
    if imported:
        origin = (
            f"It holds the `{manifest['config']['source_format']}` benchmark read into umb's "
            "records by `umb import`; the text, questions and answers are the peer's own."
        )
    else:
        origin = (
            "Every character, event and answer comes from one simulated event universe, so the "
            "gold answers are computed, not annotated, and every answer points at the turns "
            "that state it."
        )
    return (
        f"A long-dialogue memory benchmark in the format of umb (UnifiedMemBench): "
        f"{counts.get('dialogues', 0):,} multi-session dialogues with "
        f"{counts.get('questions', 0):,} questions in {len(counts.get('questions_per_family', {}))}"
        f" families. {origin} This folder was written by `umb export --format hf` "
        f"(umb {__version__}) and loads with the `datasets` library as it is."
    )


def _configs_table(configs: list[ConfigOut]) -> str:
    rows = [
        [f"`{c.name}`", f"{c.rows:,}", ROW_MEANING[c.name], len(c.shards), _mib(c.parquet_bytes)]
        for c in configs
    ]
    return (
        _table(["config", "rows", "a row is", "shards", "Parquet"], rows)
        + f"\n\nEach config has one split, `{SPLIT}`: the benchmark is for evaluation, "
        "not training."
    )


def _loading(folder_name: str) -> str:
    return "\n".join(
        [
            "## Loading",
            "",
            "```python",
            "import json",
            "",
            "from datasets import load_dataset",
            "",
            f'questions = load_dataset("{folder_name}", "questions", split="test")',
            f'dialogues = load_dataset("{folder_name}", "dialogues", split="test")',
            "turns = {t['id']: t for d in dialogues for s in d['sessions'] for t in s['turns']}",
            "q = questions[0]",
            "evidence = [turns[i]['text'] for i in q['evidence']['turn_ids']]",
            "gold = json.loads(q['gold'])  # the family's answer fields",
            "```",
            "",
            f"`{folder_name}` is this folder; once uploaded, use its Hub repository id. "
            f"`umb import hf {folder_name} -o bench` turns the folder back into a umb benchmark "
            "directory with the same bytes, for `umb eval` and `umb score`.",
        ]
    )


def _making(folder_name: str, manifest: dict[str, Any], imported: bool) -> str:
    config = manifest.get("config") or {}
    lines = [
        "## How it was made",
        "",
        f"- Generator: `{manifest.get('generator')}`",
        f"- Benchmark format: `{manifest.get('format')}` version {manifest.get('format_version')}",
    ]
    if manifest.get("seed") is not None:
        lines.append(f"- Seed: {manifest['seed']}")
    if imported:
        source = manifest.get("source") or {}
        lines.append(
            f"- Source file: `{source.get('file', config.get('source_file'))}` "
            f"(sha256 `{source.get('sha256', 'not recorded')}`)"
        )
    else:
        lines.append(f"- Preset: `{config.get('preset') or 'custom'}`")
        lines.append(f"- Timeline: {config.get('start')} to {config.get('end')}")
    lines += [
        "",
        "The same "
        + ("source file" if imported else "command, seed")
        + " and umb version write byte-identical files:",
        "",
        "```sh",
        generate_command(manifest),
        f"umb export bench --format hf --out {folder_name}",
        "```",
    ]
    return "\n".join(lines)


def _slug(manifest: dict[str, Any]) -> str:
    config = manifest.get("config") or {}
    if config.get("source_format"):
        return f"umb-{config['source_format']}-hf"
    return f"umb-{config.get('preset') or 'custom'}-seed{manifest.get('seed')}-hf"


def _size(counts: dict[str, Any], stats: dict[str, Any]) -> str:
    rows = [[k, f"{counts[k]:,}"] for k in ("dialogues", "sessions", "turns", "questions", "facts")]
    spread_rows = []
    for key in ("tokens_per_dialogue", "sessions_per_dialogue", "turns_per_dialogue"):
        s = stats[key]
        spread_rows.append(
            [
                key.replace("_", " "),
                f"{s['min']:,}",
                f"{s['mean']:,}",
                f"{s['max']:,}",
                f"{s['total']:,}",
            ]
        )
    renderers = ", ".join(f"`{k}` {v:,}" for k, v in stats["sessions_by_renderer"].items())
    return "\n\n".join(
        [
            "## Size",
            _table(["records", "count"], rows),
            _table(["per dialogue", "min", "mean", "max", "total"], spread_rows),
            "Tokens are estimated as ceil(characters / 4), the original release's rule, so "
            "sizes compare across tokenizers (real ones give 0.8-1.3 times this on English "
            f"dialogue). Sessions by who wrote their text: {renderers or '(none)'}.",
        ]
    )


def _families(counts: dict[str, Any]) -> str:
    per_family = counts.get("questions_per_family") or {}
    rows = [
        [
            f"`{code}`",
            FAMILY_NAMES.get(code, code),
            f"{n:,}",
            ", ".join(f"`{f}`" for f in REQUIRED_FIELDS.get(code, ())) or "(family's own)",
        ]
        for code, n in per_family.items()
    ]
    return "## Question families\n\n" + _table(["code", "family", "questions", "gold fields"], rows)


def _exactness(imported: bool, has_world: bool) -> str:
    if imported:
        return (
            "## Gold answers and evidence\n\n"
            "The golds are the peer's own answers, mapped onto umb's family fields; the peer's "
            "labels and ids are kept in each question's `meta` (`native_category`, "
            "`native_id`, `native_answer`). Evidence is what the peer marks, repaired where its "
            "file is malformed; the repairs are counted under `import_warning_counts` below."
        )
    world = (
        " The `world` config is that simulation: characters, their events and the timeline of "
        "every tracked attribute."
        if has_world
        else ""
    )
    return (
        "## Gold answers and evidence\n\n"
        "Gold answers are computed from the simulated world, never read back out of the "
        "rendered text: a question's `gold` follows from the events its `evidence.event_ids` "
        "name. The renderer records which facts each turn states (`fact_ids`), so "
        "`evidence.turn_ids` are exactly the turns that state the evidence facts, and "
        "`evidence.session_ids` the sessions that hold them. A knowledge-update question's "
        "evidence covers both the old and the new state; an abstention (`ABS`) "
        "question has no evidence, because nothing in the dialogue answers it." + world
    )


def _fields(configs: list[ConfigOut]) -> str:
    import datasets

    parts = ["## Fields"]
    for c in configs:
        feats = datasets.Features.from_arrow_schema(c.schema)
        described = COLUMNS.get(c.name, {})
        rows = [
            [f"`{path}`", f"`{kind}`", described.get(path, "")]
            for path, kind in _feature_paths(feats)
        ]
        parts.append(f"### `{c.name}`\n\n" + _table(["column", "type", "meaning"], rows))
    return "\n\n".join(parts)


def _feature_paths(feats: Any, prefix: str = "") -> Iterator[tuple[str, str]]:
    import datasets

    for key, feat in feats.items():
        path = f"{prefix}{key}"
        inner, shape = feat, ""
        while isinstance(inner, datasets.List):
            inner, shape = inner.feature, shape + "list of "
        if isinstance(inner, dict):
            yield path, f"{shape}struct"
            yield from _feature_paths(inner, f"{path}.")
        else:
            yield path, f"{shape}{getattr(inner, 'dtype', type(inner).__name__)}"


def _limits(imported: bool, stats: dict[str, Any]) -> str:
    items = [
        "The characters, people and events are synthetic; no record describes a real person."
        if not imported
        else "The dialogues are the peer's; umb changed only their layout and ids.",
        "English only.",
        "`gold` and `meta` are JSON strings, because their keys differ by family; parse them "
        "with `json.loads`. `answer` is a convenience copy of the gold's main field.",
        "A dialogue row is large (the mean dialogue is "
        f"{stats['tokens_per_dialogue']['mean']:,} estimated tokens); stream it "
        "(`streaming=True`) or load the `sessions` config where a session is enough.",
    ]
    if not imported:
        items.append(
            "Template-rendered text (`rendered_by` = `template`) is fluent but repetitive; it "
            "tests what a system keeps and updates, not how it copes with natural chit-chat."
        )
        items.append(
            "Because a new seed gives a new, unseen benchmark, publish the seed you evaluate "
            "on and report results per seed; a published seed can leak into training data."
        )
    return "## Known limits\n\n" + "\n".join(f"- {x}" for x in items)


def _manifest_section(manifest: dict[str, Any]) -> str:
    rows = [[f"`{k}`", v] for k, v in manifest_leaves(manifest)]
    return (
        "## Manifest\n\n"
        "Every field of the benchmark's `manifest.json`, which this folder also holds "
        "unchanged as `umb-manifest.json`; the sha256 values are those of the JSONL records "
        "that `umb import hf` writes back.\n\n" + _table(["field", "value"], rows)
    )


def _license_and_citation(manifest: dict[str, Any], license: str | None) -> str:
    config = manifest.get("config") or {}
    key = _slug(manifest).replace("-", "_").removesuffix("_hf")
    note = (
        f"Written by umb {__version__} from the benchmark of generator {generator_note(manifest)}"
    )
    if not config.get("source_format"):
        note += f", preset {config.get('preset') or 'custom'}"
    lines = [
        "## License and citation",
        "",
        f"License: `{card_license(manifest, license)}`.",
        "",
        "```bibtex",
        f"@misc{{{key},",
        f"  title        = {{{{{pretty_name(manifest)}}}}},",
        f"  note         = {{{note}}},",
        "  howpublished = {Hugging Face datasets folder written by umb export --format hf},",
        "}",
        "```",
        "",
        "Please also cite the original UnifiedMemBench release, whose families, answer "
        "fields and token rule this benchmark follows"
        + (
            f", and the {config['source_format']} benchmark itself."
            if config.get("source_format")
            else "."
        ),
    ]
    return "\n".join(lines)
