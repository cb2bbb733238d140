"""Usage accounting per role."""

from __future__ import annotations

import json

import numpy as np
import pytest

from umb.models import GenerateResult, UsageMeter, percentile


@pytest.mark.parametrize(
    "values", [[3.0], [1.0, 2.0], [5.0, 1.0, 4.0, 2.0, 3.0], [0.1 * i for i in range(37)]]
)
@pytest.mark.parametrize("q", [0, 50, 95, 100])
def test_percentile_matches_numpy(values, q):
    assert percentile(values, q) == pytest.approx(float(np.percentile(values, q)))


def test_percentile_of_nothing():
    assert percentile([], 95) == 0.0


def test_meter_splits_fresh_cached_and_failed():
    meter = UsageMeter()
    meter.record(
        "answerer", GenerateResult(text="a", input_tokens=10, output_tokens=2, latency_s=0.2)
    )
    meter.record(
        "answerer", GenerateResult(text="b", input_tokens=20, output_tokens=4, latency_s=0.4)
    )
    meter.record(
        "answerer", GenerateResult(text="a", input_tokens=10, output_tokens=2, cached=True)
    )
    meter.record("answerer", GenerateResult(text="", latency_s=9.0, error="HTTP 500"))
    meter.record("judge", GenerateResult(text="{}", input_tokens=5, output_tokens=1, latency_s=1.0))

    answerer = meter.role("answerer")
    assert (answerer.requests, answerer.cached, answerer.errors) == (4, 1, 1)
    assert (answerer.input_tokens, answerer.output_tokens) == (30, 6)
    assert (answerer.cached_input_tokens, answerer.cached_output_tokens) == (10, 2)
    assert answerer.latencies_s == [0.2, 0.4]

    summary = meter.to_dict()
    assert list(summary) == ["answerer", "judge"]
    assert summary["answerer"]["latency_p50_s"] == pytest.approx(0.3)
    assert summary["answerer"]["latency_p95_s"] == pytest.approx(0.39)
    assert "latencies_s" not in summary["answerer"]
    assert meter.to_dict(include_latencies=True)["judge"]["latencies_s"] == [1.0]
    json.dumps(summary)  # serialisable as is


def test_role_copy_is_detached():
    meter = UsageMeter()
    snapshot = meter.role("extractor")
    snapshot.requests = 99
    assert meter.role("extractor").requests == 0
    assert meter.roles() == []
