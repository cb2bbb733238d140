"""A toy peer benchmark: the whole cost of adding a peer is this folder and one registry entry.

Its file is one JSON object: ``{"conversations": [{"id", "date", "lines": [[speaker, text], …],
"questions": [{"q", "a", "line"}]}]}`` — one session per conversation, the first speaker is the
user, each question's evidence is one line. Register it with
``PEERS.add_lazy("toy", "toy_peer:PEER")`` (or an entry point ``peer/toy`` in group ``umb``); then
``umb import toy FILE -o DIR``, ``umb export DIR --format toy --out FILE`` and the scorer
``toy_exact`` work like the built-in peers'.
"""

from umb._peer import Peer

PEER = Peer(
    name="toy",
    title="Toy QA",
    files="toy.json",
    importer="toy_peer._convert:import_toy",
    exporter="toy_peer._convert:export_toy",
    scorers={"toy_exact": "toy_peer._scorer:ToyExact"},
)
