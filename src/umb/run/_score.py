"""``umb score``: score a predictions file that umb did not produce, into a run directory.

The run directory has the files of an ``umb eval`` run (``header.json``, ``records.jsonl``,
``results.json``), so ``umb report`` reads it like any run. Each record is scored by every
scorer asked for: the first answer scorer fills the record's ``score`` fields as in
``umb eval``, and ``scores`` keeps each scorer's :class:`~umb.scoring.Score`. ``results.json``
adds, per group, each scorer's own summary (``scores``) and the predictions file's accounting
(``predictions``: lines, matched, unknown and missing ids, listed).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import orjson

from umb._errors import ConfigError
from umb._jsonio import atomic_write_bytes, dumps_pretty
from umb.bench import Benchmark
from umb.interop import TemplateSet, judge_templates_from_file
from umb.models import load_model
from umb.run._config import RUN_FORMAT, RUN_FORMAT_VERSION, _relative, _versions, scorer_header
from umb.run._log import HEADER, RECORDS, RESULTS
from umb.run._predictions import PredictionSet, read_predictions
from umb.run._record import _native_fields
from umb.run._results import aggregate_run
from umb.scoring import (
    JUDGE_SCORERS,
    NATIVE_SCORER,
    PEER_SCORERS,
    Judge,
    Prediction,
    Score,
    Scorer,
    build_scorer,
)

MODEL: Final = "predictions"
"""The ``model`` of a scored run's records: nothing was asked of a model."""


@dataclass(frozen=True)
class ScoreOutcome:
    """What :func:`score_predictions` wrote."""

    run_dir: Path
    results: dict[str, Any]
    scored: int
    unknown: list[str]
    missing: list[str]


def _units(bench: Benchmark, preds: PredictionSet) -> list[Prediction]:
    """Mark rankings made of session ids as such (the retrieval metrics read the unit)."""
    if not any(p.retrieved for p in preds.predictions):
        return preds.predictions
    sessions = {s.id for d in bench.iter_dialogues() for s in d.sessions}
    return [
        dataclasses.replace(p, unit="session")
        if p.retrieved and all(r in sessions for r in p.retrieved)
        else p
        for p in preds.predictions
    ]


def _text(answer: str | dict[str, Any] | None) -> str:
    return orjson.dumps(answer).decode() if isinstance(answer, dict) else answer or ""


def _record(
    system: str, p: Prediction, scores: dict[str, Score], primary: str, retrieval: str | None
) -> dict[str, Any]:
    q, main = p.question, scores[primary]
    judged = main.details.get("judge") if primary == NATIVE_SCORER else None
    judge_model = judged.get("model") if isinstance(judged, dict) else None
    return {
        "system": system,
        "model": MODEL,
        "question_id": q.id,
        "dialogue_id": q.dialogue_id,
        "family": q.family,
        "query": q.query,
        "asked_at": q.asked_at,
        "gold": q.gold,
        **_native_fields(q),
        "prediction": p.answer,
        "raw_output": _text(p.answer),
        "parse_status": p.failure or str(main.details.get("reason") or "ok"),
        "context_ids": [],
        "ranked_ids": list(p.retrieved) if p.retrieved is not None else None,
        "score": main.value,
        "scorer": f"{main.scorer}@{main.version}",
        "score_details": main.details,
        "score_by": primary,
        "scorer_name": main.scorer,
        "scorer_version": main.version,
        "judge_model": judge_model or main.details.get("judge_model"),
        "invalid_json": bool(main.details.get("invalid_json")),
        "error": p.failure,
        "context_tokens": None,
        "latency_s": None,
        # Only a given ranking has metrics: the results' retrieval block averages over those.
        "retrieval": None
        if retrieval is None or p.retrieved is None
        else scores[retrieval].details,
        "scores": {n: s.to_dict() for n, s in scores.items()},
    }


@dataclass(frozen=True)
class JudgeTemplates:
    """Where peer judges take their prompts from (default: umb's wording)."""

    file: Path | None = None
    """A template file (``--judge-template``), for every judge scorer asked for."""
    checkout: Path | None = None
    """A peer's checkout (``--judge-template-from``), for the judges that read their prompts
    from one (a class with ``templates_from_checkout``: ``longmemeval_judge``)."""

    def load(self, name: str) -> TemplateSet | None:
        """The template set of judge scorer ``name``, or None for umb's wording."""
        if name not in JUDGE_SCORERS:
            return None
        cls = PEER_SCORERS.get_or_raise(name)
        from_checkout = getattr(cls, "templates_from_checkout", None)
        if self.checkout is not None and from_checkout is not None:
            found: TemplateSet = from_checkout(self.checkout)
            return found
        if self.file is None:
            return None
        keys, fields = getattr(cls, "template_keys", ()), getattr(cls, "template_fields", ())
        return judge_templates_from_file(self.file, name, keys, fields)


async def _score_all(
    names: list[str], judge: str | None, templates: JudgeTemplates, predictions: list[Prediction]
) -> tuple[dict[str, Scorer], dict[str, list[Score]]]:
    sets = {n: templates.load(n) for n in names}
    model = load_model(judge, role="judge") if judge else None
    try:
        rule_judge = Judge(model) if model is not None else None
        built = {
            n: build_scorer(n, judge_model=model, judge=rule_judge, templates=sets[n])
            for n in names
        }
        batches = await asyncio.gather(*(built[n].score_many(predictions) for n in names))
    finally:
        if model is not None:
            await model.aclose()
    return built, dict(zip(names, batches, strict=True))


def score_predictions(
    bench_dir: Path,
    predictions: Path,
    out: Path,
    scorers: Sequence[str] = (NATIVE_SCORER,),
    *,
    system: str | None = None,
    judge: str | None = None,
    templates: JudgeTemplates | None = None,
) -> ScoreOutcome:
    """Score the predictions file ``predictions`` on the benchmark at ``bench_dir`` into ``out``.

    Args:
        bench_dir: The benchmark directory the predictions answer.
        predictions: The JSONL file (format in :mod:`umb.run._predictions`).
        out: The run directory to write (its previous scored files are replaced).
        scorers: Scorer names (``umb``, peer answer scorers and judges, retrieval metrics).
        system: The name of the system the predictions come from (default: the file's stem).
        judge: The judge model spec, for judge scorers.
        templates: Where peer judges take their prompts from (default: umb's wording).

    Raises:
        ConfigError: No scorer, an unknown one, or a judge scorer without ``judge``.
        DataError: A broken predictions line (``file:line: reason``) or benchmark.
    """
    names = list(dict.fromkeys(scorers))
    if not names:
        raise ConfigError("give at least one scorer")
    if judge is None and (needs := [n for n in names if n in JUDGE_SCORERS]):
        raise ConfigError(f"--scorer {needs[0]} grades with a judge model: give --judge")
    bench = Benchmark.open(bench_dir)
    preds = read_predictions(predictions, list(bench.questions))
    items = _units(bench, preds)
    if templates is not None and templates.checkout is not None:
        readers = [n for n in JUDGE_SCORERS if hasattr(PEER_SCORERS[n], "templates_from_checkout")]
        if not set(readers) & set(names):
            raise ConfigError(f"--judge-template-from is for --scorer {' or '.join(readers)}")
    built, by_scorer = asyncio.run(_score_all(names, judge, templates or JudgeTemplates(), items))
    ranking = [n for n in names if built[n].reads == "retrieved"]
    primary = next((n for n in names if n not in ranking), names[0])
    retrieval = ranking[0] if ranking else None
    label = system or predictions.stem
    records = [
        _record(label, p, {n: by_scorer[n][i] for n in names}, primary, retrieval)
        for i, p in enumerate(items)
    ]
    header = _header(bench, out, predictions, label, names, built[primary], judge)
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(out / HEADER, dumps_pretty(header))
    atomic_write_bytes(out / RECORDS, b"".join(orjson.dumps(r) + b"\n" for r in records))
    results = _results(header, records, preds, built, by_scorer)
    atomic_write_bytes(out / RESULTS, dumps_pretty(results))
    return ScoreOutcome(out, results, len(records), preds.unknown, preds.missing)


def _results(
    header: dict[str, Any],
    records: list[dict[str, Any]],
    preds: PredictionSet,
    built: dict[str, Scorer],
    by_scorer: dict[str, list[Score]],
) -> dict[str, Any]:
    accounting = {
        "lines": preds.lines,
        "matched": len(preds.predictions),
        "unknown": len(preds.unknown),
        "unknown_ids": preds.unknown,
        "missing": len(preds.missing),
        "missing_ids": preds.missing,
    }
    results: dict[str, Any] = {
        "format": "umb-results",
        "format_version": 1,
        "benchmark": header["benchmark"]["content_hash"],
        "models": header["models"],
        "systems": header["systems"],
        "records": len(records),
        "complete": not preds.missing,
        "missing": len(preds.missing),
        "predictions": accounting,
        **aggregate_run(records, header),
        "usage": {},
    }
    for group in results["groups"]:
        group["scores"] = {n: built[n].aggregate(by_scorer[n]) for n in built}
    return results


def _header(
    bench: Benchmark,
    out: Path,
    predictions: Path,
    system: str,
    names: list[str],
    primary: Scorer,
    judge: str | None,
) -> dict[str, Any]:
    if primary.name == NATIVE_SCORER:
        scorer: dict[str, Any] = {"name": NATIVE_SCORER}
    elif primary.reads == "retrieved":
        scorer = {"name": primary.name, "version": primary.version}
    else:
        scorer = scorer_header(primary.name)
    return {
        "format": RUN_FORMAT,
        "format_version": RUN_FORMAT_VERSION,
        "kind": "score",
        "created_at": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "benchmark": {
            "content_hash": bench.content_hash,
            "path": _relative(bench.root, out),
            "generator": bench.manifest.get("generator"),
            "preset": (bench.manifest.get("config") or {}).get("preset"),
            "seed": bench.manifest.get("seed"),
            "questions": len(bench.questions),
        },
        "parameters": {"predictions": predictions.name, "scorers": ",".join(names)},
        "predictions": {
            "file": predictions.name,
            "sha256": hashlib.sha256(predictions.read_bytes()).hexdigest(),
        },
        "systems": [system],
        "models": {"answerer": MODEL, "judge": judge, "extractor": None},
        "scorer": scorer,
        "scorer_names": names,
        "versions": _versions(),
    }
