"""A Hugging Face datasets folder (Parquet configs, dataset card, Croissant) <-> umb.

Nothing here imports pyarrow or ``datasets``: they load with the exporter or importer, so a
missing ``hub`` extra is reported only when the format is used.
"""

from umb._peer import Peer, PeerOption

PEER = Peer(
    name="hf",
    title="Hugging Face datasets folder",
    files="README.md, croissant.json, data/<config>/*.parquet",
    importer="umb.interop.hf._import:import_hf",
    exporter="umb.interop.hf._export:export_hf",
    directory=True,
    export_options=(
        PeerOption("max_shard_mb", float, "Largest Parquet file, in MiB.", 500),
        PeerOption("license", str, "License id of the dataset card, else the source's.", None),
    ),
)

__all__ = ["PEER"]
