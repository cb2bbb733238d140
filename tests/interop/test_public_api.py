"""The public surface of umb.interop and its scorers (a change here is an API change)."""

from __future__ import annotations

import umb.interop
import umb.scoring


def test_exported_members() -> None:
    assert sorted(umb.interop.__all__) == sorted([
        "AnswerScorer",
        "InteropLog",
        "PEERS",
        "Peer",
        "RetrievalScorer",
        "convert_locomo",
        "convert_longmemeval",
        "convert_umb_release",
        "export_locomo",
        "export_longmemeval",
        "export_umb_release",
        "import_locomo",
        "import_longmemeval",
        "import_umb_release",
        "locomo_category",
        "read_peer_json",
        "score_record",
        "source_info",
        "write_export",
        "write_imported",
        "AnswerProfile",
        "PROFILE_VERSION",
        "TemplateSet",
        "current_date_line",
        "judge_templates_from_checkout",
        "judge_templates_from_file",
    ])
    assert {"PEER_SCORERS", "load_peer_scorer"} <= set(umb.scoring.__all__)
    for name in umb.interop.__all__:
        assert getattr(umb.interop, name) is not None
    assert sorted(umb.interop.PEERS) == ["hf", "locomo", "longmemeval", "umb-release"]


def test_scorers_satisfy_their_protocols() -> None:
    from umb.interop import AnswerScorer, RetrievalScorer
    from umb.scoring import load_peer_scorer

    from .conftest import ScriptedJudge

    for name in ("locomo_f1", "mem0_f1", "mem0_bleu1"):
        assert isinstance(load_peer_scorer(name), AnswerScorer)
    assert isinstance(load_peer_scorer("longmemeval_judge", judge=ScriptedJudge(str)), AnswerScorer)
    for name in ("locomo_recall", "longmemeval_retrieval"):
        assert isinstance(load_peer_scorer(name), RetrievalScorer)
