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


def _check_rp(got: dict, want: dict, where: str) -> None:
    for field in COUNTS + SCORES:
        assert got[field] == pytest.approx(want[field], abs=1e-9), f"{where}.{field}"


@pytest.mark.parametrize("name", sorted(CASES) or ["(no shared data)"])
def test_reference_case(name, reference_dir):
    case = CASES[name]
    key, response = _load(case)
    result = corefscore.score(key, response, duplicates="ignore")
    got = result.to_dict()["metrics"]
    for metric, want in case["metrics"].items():
        if metric == "blanc":
            for half in ("coref_links", "noncoref_links"):
                _check_rp(got["blanc"][half], want[half], f"{name}.blanc.{half}")
            for field in SCORES:
                assert got["blanc"][field] == pytest.approx(want[field], abs=1e-9), f"{name}.blanc.{field}"
        else:
            _check_rp(got[metric], want, f"{name}.{metric}")
    assert result.conll_f1 == pytest.approx(case["conll_f1"], abs=1e-9)


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
    per_doc = [d.conll_f1 for d in result.per_document()]
    np.testing.assert_allclose(per_doc, [CASES[n]["conll_f1"] for n in names], atol=1e-9)
