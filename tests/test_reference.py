"""The reference scorer's 36 test pairs through the public API, against expected.json."""

from __future__ import annotations

import json

import corefscore
import numpy as np
import pytest
from _helpers import REFERENCE, read_conll_clusters

_EXPECTED = REFERENCE / "expected.json"
CASES = json.loads(_EXPECTED.read_text())["cases"] if _EXPECTED.exists() else {}
COUNTS = ("recall_num", "recall_den", "precision_num", "precision_den")
SCORES = ("recall", "precision", "f1")


def _load(case: dict):
    key = read_conll_clusters(REFERENCE / case["key"])
    response = read_conll_clusters(REFERENCE / case["response"])
    assert len(key) == len(response) == 1
    return next(iter(key.values())), next(iter(response.values()))


def _check_rp(got, shown: dict, want: dict, where: str) -> None:
    """A MetricScore's counts and scores against the reference's; ``shown`` (its to_dict) None where n/a."""
    for field in COUNTS:
        assert shown[field] == pytest.approx(want[field], abs=1e-9), f"{where}.{field}"
    for field in SCORES:
        # The attributes keep the reference's numbers, 0 over 0 included; views show no score there.
        assert getattr(got, field) == pytest.approx(want[field], abs=1e-9), f"{where}.{field}"
        assert shown[field] == (getattr(got, field) if got.counted else None), f"{where}.{field}"


def _conll(scores) -> float:
    """The reference's CoNLL score: the mean of the three F1s, 0 over 0 included."""
    return sum(scores[m].f1 for m in ("muc", "bcub", "ceafe")) / 3


@pytest.mark.parametrize("name", sorted(CASES) or ["(no shared data)"])
def test_reference_case(name, reference_dir):
    case = CASES[name]
    key, response = _load(case)
    result = corefscore.score(key, response, duplicates="ignore")
    shown = result.to_dict()["metrics"]
    for metric, want in case["metrics"].items():
        got = result[metric]
        if metric == "blanc":
            for half in ("coref_links", "noncoref_links"):
                _check_rp(getattr(got, half), shown["blanc"][half], want[half], f"{name}.blanc.{half}")
            for field in SCORES:
                assert getattr(got, field) == pytest.approx(want[field], abs=1e-9), f"{name}.blanc.{field}"
        else:
            _check_rp(got, shown[metric], want, f"{name}.{metric}")
    assert _conll(result) == pytest.approx(case["conll_f1"], abs=1e-9)
    assert result.conll_f1 == (_conll(result) if all(result[m].counted for m in ("muc", "bcub", "ceafe")) else None)


def test_reference_corpus_is_sum_of_cases(reference_dir):
    """All 36 pairs scored as one corpus: the counts are the sums of the cases' counts."""
    names = sorted(CASES)
    pairs = [_load(CASES[n]) for n in names]
    result = corefscore.score_corpus(
        {n: k for n, (k, _) in zip(names, pairs)}, {n: r for n, (_, r) in zip(names, pairs)}, duplicates="ignore"
    )
    assert result.doc_names == names
    for metric in ("muc", "bcub", "ceafm", "ceafe", "lea", "mentions"):
        for field in COUNTS:
            want = sum(CASES[n]["metrics"][metric][field] for n in names)
            assert result.counts[metric][field] == pytest.approx(want, abs=1e-7)
    per_doc = [_conll(d) for d in result.per_document()]
    np.testing.assert_allclose(per_doc, [CASES[n]["conll_f1"] for n in names], atol=1e-9)
