"""``croissant.json``: Croissant 1.0 metadata of the folder (the NeurIPS Datasets and
Benchmarks track asks for it). One FileSet and one RecordSet per config; a struct column is a
field with sub-fields, a list column a repeated field, as the Hub writes them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa

from umb._jsonio import atomic_write_bytes, dumps_pretty
from umb._version import __version__
from umb.interop.hf._card import card_license, generator_note, pretty_name
from umb.interop.hf._configs import COLUMNS, ROW_MEANING, ConfigOut

CONFORMS_TO = "http://mlcommons.org/croissant/1.0"

#: The standard JSON-LD context of Croissant 1.0.
CONTEXT: dict[str, Any] = {
    "@language": "en",
    "@vocab": "https://schema.org/",
    "citeAs": "cr:citeAs",
    "column": "cr:column",
    "conformsTo": "dct:conformsTo",
    "cr": "http://mlcommons.org/croissant/",
    "rai": "http://mlcommons.org/croissant/RAI/",
    "data": {"@id": "cr:data", "@type": "@json"},
    "dataType": {"@id": "cr:dataType", "@type": "@vocab"},
    "dct": "http://purl.org/dc/terms/",
    "equivalentProperty": "cr:equivalentProperty",
    "examples": {"@id": "cr:examples", "@type": "@json"},
    "extract": "cr:extract",
    "field": "cr:field",
    "fileProperty": "cr:fileProperty",
    "fileObject": "cr:fileObject",
    "fileSet": "cr:fileSet",
    "format": "cr:format",
    "includes": "cr:includes",
    "isLiveDataset": "cr:isLiveDataset",
    "jsonPath": "cr:jsonPath",
    "key": "cr:key",
    "md5": "cr:md5",
    "parentField": "cr:parentField",
    "path": "cr:path",
    "recordSet": "cr:recordSet",
    "references": "cr:references",
    "regex": "cr:regex",
    "repeated": "cr:repeated",
    "replace": "cr:replace",
    "samplingRate": "cr:samplingRate",
    "sc": "https://schema.org/",
    "separator": "cr:separator",
    "source": "cr:source",
    "subField": "cr:subField",
    "transform": "cr:transform",
}

_LICENSE_URLS = {
    "cc-by-4.0": "https://creativecommons.org/licenses/by/4.0/",
    "cc-by-nc-4.0": "https://creativecommons.org/licenses/by-nc/4.0/",
    "mit": "https://opensource.org/license/mit",
    "apache-2.0": "https://www.apache.org/licenses/LICENSE-2.0",
}


def _data_type(t: pa.DataType) -> str:
    if pa.types.is_boolean(t):
        return "sc:Boolean"
    if pa.types.is_integer(t):
        return "sc:Integer"
    if pa.types.is_floating(t):
        return "sc:Float"
    return "sc:Text"


def _field(
    fileset: str,
    field_id: str,
    column: str,
    t: pa.DataType,
    path: str | None,
    about: str,
    omitted: list[str],
) -> dict[str, Any] | None:
    repeated = False
    while pa.types.is_list(t):
        t, repeated = t.value_type, True
    if repeated and pa.types.is_struct(t) and path is not None and "/" in field_id[1:]:
        # A list of records inside a list of records: Croissant 1.0 readers (mlcroissant)
        # apply a field's jsonPath to one level of list only, so the field is left out and
        # named in the record set's description.
        omitted.append(field_id.split("/", 1)[1].replace("/", "."))
        return None
    field: dict[str, Any] = {"@type": "cr:Field", "@id": field_id, "name": field_id}
    if about:
        field["description"] = about
    if pa.types.is_struct(t):
        subs = [
            _field(
                fileset,
                f"{field_id}/{t.field(i).name}",
                column,
                t.field(i).type,
                t.field(i).name if path is None else f"{path}.{t.field(i).name}",
                "",
                omitted,
            )
            for i in range(t.num_fields)
        ]
        field["subField"] = [f for f in subs if f is not None]
    else:
        field["dataType"] = _data_type(t)
        source: dict[str, Any] = {"fileSet": {"@id": fileset}, "extract": {"column": column}}
        if path is not None:
            source["transform"] = {"jsonPath": path}
        field["source"] = source
    if repeated:
        field["repeated"] = True
    return field


def record_set(config: ConfigOut) -> dict[str, Any]:
    fileset = f"parquet-{config.name}"
    described = COLUMNS.get(config.name, {})
    omitted: list[str] = []
    fields = [
        _field(
            fileset,
            f"{config.name}/{f.name}",
            f.name,
            f.type,
            None,
            described.get(f.name, ""),
            omitted,
        )
        for f in config.schema
    ]
    about = f"{ROW_MEANING[config.name]}; {config.rows} rows."
    if omitted:
        about += (
            " Lists of records inside lists of records are in the Parquet files but not "
            f"described here: {', '.join(omitted)}"
            + (" (the sessions record set holds the turns)." if config.name == "dialogues" else ".")
        )
    return {
        "@type": "cr:RecordSet",
        "@id": config.name,
        "name": config.name,
        "description": about,
        "field": [f for f in fields if f is not None],
    }


def croissant(
    folder_name: str, manifest: dict[str, Any], configs: list[ConfigOut], license: str | None
) -> dict[str, Any]:
    """The Croissant document of the folder."""
    lic = card_license(manifest, license)
    counts = manifest.get("counts") or {}
    return {
        "@context": CONTEXT,
        "@type": "sc:Dataset",
        "name": folder_name,
        "alternateName": pretty_name(manifest),
        "description": (
            f"{pretty_name(manifest)}: {counts.get('dialogues', 0)} long multi-session "
            f"dialogues and {counts.get('questions', 0)} memory questions with exact gold "
            "answers and turn-level evidence, in umb's (UnifiedMemBench) format."
        ),
        "conformsTo": CONFORMS_TO,
        "license": _LICENSE_URLS.get(lic, lic),
        "url": f"https://huggingface.co/datasets/{folder_name}",
        "version": "1.0.0",
        "keywords": ["memory", "long-context", "dialogue", "synthetic", "benchmark"],
        "isLiveDataset": False,
        "citeAs": (
            f"{pretty_name(manifest)}, written by umb {__version__} ({generator_note(manifest)})."
        ),
        "distribution": [
            {
                "@type": "cr:FileSet",
                "@id": f"parquet-{c.name}",
                "name": f"parquet-{c.name}",
                "description": f"The Parquet shards of the {c.name} config.",
                "encodingFormat": "application/x-parquet",
                "includes": c.glob,
            }
            for c in configs
        ],
        "recordSet": [record_set(c) for c in configs],
    }


def write_croissant(
    folder: Path,
    folder_name: str,
    manifest: dict[str, Any],
    configs: list[ConfigOut],
    license: str | None,
) -> None:
    """Write ``folder/croissant.json``."""
    atomic_write_bytes(
        folder / "croissant.json", dumps_pretty(croissant(folder_name, manifest, configs, license))
    )
