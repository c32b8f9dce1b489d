"""Mention types through the API (mention_types= and ArraySide types) and score_files."""

from __future__ import annotations

import json

import corefscore
import numpy as np
import pytest
from _helpers import REFERENCE, REPO, TYPED_METRICS, read_conll_clusters
from corefscore import ArraySide, CorefScoreInputError

KEY = [["Obama", "he", "the president"], ["Michelle", "she"], ["the car"]]
RESPONSE = [["Obama", "he"], ["the president", "Michelle", "she"], ["the car"]]
TYPES = {"Obama": "name", "he": "pronoun", "the president": "nominal", "Michelle": "name", "she": "pronoun"}
TYPES["the car"] = "nominal"


def test_typed_metrics_appear_only_with_types():
    untyped = corefscore.score(KEY, RESPONSE)
    assert not set(TYPED_METRICS) & set(untyped.metrics)
    typed = corefscore.score(KEY, RESPONSE, mention_types=TYPES)
    assert set(TYPED_METRICS) <= set(typed.metrics)
    for m in untyped.metrics:  # the classic metrics do not depend on types
        assert typed[m].to_dict() == untyped[m].to_dict()


def test_perfect_typed_response_scores_one_on_every_typed_metric():
    r = corefscore.score(KEY, KEY, mention_types=TYPES)
    for m in TYPED_METRICS:
        assert (r[m].recall, r[m].precision, r[m].f1) == (1.0, 1.0, 1.0), m


def test_type_mapping_equals_type_arrays_and_codes():
    mentions = sorted(TYPES)
    index = {m: i for i, m in enumerate(mentions)}
    codes = {"name": 1, "nominal": 2, "pronoun": 3}

    def side(clusters):
        ids = [index[m] for c in clusters for m in c]
        cl = [i for i, c in enumerate(clusters) for _ in c]
        return ArraySide(np.array(ids), np.array(cl), np.array([codes[TYPES[mentions[i]]] for i in ids]))

    want = corefscore.score(KEY, RESPONSE, mention_types=TYPES).counts_matrix
    np.testing.assert_array_equal(corefscore.score(side(KEY), side(RESPONSE)).counts_matrix, want)
    as_codes = {m: codes[t] for m, t in TYPES.items()}
    np.testing.assert_array_equal(corefscore.score(KEY, RESPONSE, mention_types=as_codes).counts_matrix, want)


def test_types_in_corpora_and_scorer():
    want = corefscore.score(KEY, RESPONSE, mention_types=TYPES).counts_matrix
    r = corefscore.score_corpus({"a": KEY, "b": KEY}, {"a": RESPONSE, "b": KEY}, mention_types={"a": TYPES, "b": TYPES})
    np.testing.assert_array_equal(r.counts_matrix[:1], want)
    assert set(TYPED_METRICS) <= set(r.metrics)
    with pytest.raises(CorefScoreInputError, match=r"document 1 \('b'\)"):  # typed metrics over part of a corpus
        corefscore.score_corpus({"a": KEY, "b": KEY}, {"a": RESPONSE, "b": KEY}, mention_types={"a": TYPES})
    r = corefscore.score_corpus([KEY], [RESPONSE], mention_types=[TYPES])
    np.testing.assert_array_equal(r.counts_matrix, want)
    scorer = corefscore.Scorer()
    scorer.update(KEY, RESPONSE, mention_types=TYPES)
    np.testing.assert_array_equal(scorer.counts_matrix, want)
    assert set(TYPED_METRICS) <= set(scorer.compute().metrics)


def test_type_errors():
    with pytest.raises(
        ValueError, match=r"`mention_types` of document 0 must map mentions to 'name'.*got 'verb' for mention 'he'"
    ):
        corefscore.score(KEY, RESPONSE, mention_types={**TYPES, "he": "verb"})
    with pytest.raises(
        TypeError, match=r"`mention_types` of document 0 must be a mapping mention -> type; got \['name'\]"
    ):
        corefscore.score(KEY, RESPONSE, mention_types=["name"])
    with pytest.raises(TypeError, match=r"`mention_types` of document 0 must be None for ArraySide input"):
        corefscore.score(ArraySide.from_labels([0, 0]), ArraySide.from_labels([0, 0]), mention_types={0: "name"})
    with pytest.raises(
        ValueError, match=r"`mention_types` must be a sequence of one mapping \(or None\) per document \(1\)"
    ):
        corefscore.score_corpus([KEY], [RESPONSE], mention_types=TYPES)
    with pytest.raises(CorefScoreInputError, match=r"lmuc: .*type"):
        corefscore.score(KEY, RESPONSE, metrics=["lmuc"])


# -- score_files: parsing in Go gives the numbers of the Python lists ----------

_EXPECTED = REFERENCE / "expected.json"
CASES = json.loads(_EXPECTED.read_text())["cases"] if _EXPECTED.exists() else {}


@pytest.mark.parametrize("name", sorted(CASES) or ["(no shared data)"])
def test_score_files_equals_score_on_parsed_clusters(name, reference_dir):
    case = CASES[name]
    key = REFERENCE / case["key"]
    resp = REFERENCE / case["response"]
    got = corefscore.score_files(key, resp, duplicates="ignore")
    (k,) = read_conll_clusters(key).values()
    (r,) = read_conll_clusters(resp).values()
    want = corefscore.score(k, r, duplicates="ignore")
    np.testing.assert_allclose(got.counts_matrix, want.counts_matrix, rtol=0, atol=1e-12)
    assert got.key == str(key) and got.to_dict()["response"] == str(resp)
    conll = [got[m] for m in ("muc", "bcub", "ceafe")]
    # The attributes keep the reference's numbers (0 over 0); a CoNLL F1 over a metric with nothing to count
    # (MUC on singletons only) is no score: None.
    assert sum(s.f1 for s in conll) / 3 == pytest.approx(case["conll_f1"], abs=1e-9)
    assert got.conll_f1 == (pytest.approx(case["conll_f1"], abs=1e-9) if all(s.counted for s in conll) else None)


def test_score_files_on_the_bundled_example():
    key, resp = REPO / "examples" / "key.conll", REPO / "examples" / "response.conll"
    if not key.exists():
        pytest.skip("examples/ not present")
    r = corefscore.score_files(key, resp)
    assert r.n_documents >= 1 and 0.0 < r.conll_f1 <= 1.0
    assert corefscore.score_files(key, key).conll_f1 == 1.0


def test_label_arrays_with_types_equal_the_type_mapping():
    mentions = sorted(TYPES)
    codes = {"name": 1, "nominal": 2, "pronoun": 3}
    types = np.array([codes[TYPES[m]] for m in mentions])

    def labels(clusters):
        lab = np.full(len(mentions), -1)
        for i, c in enumerate(clusters):
            for m in c:
                lab[mentions.index(m)] = i
        return lab

    want = corefscore.score(KEY, RESPONSE, mention_types=TYPES).counts_matrix
    got = corefscore.score(
        ArraySide.from_labels(labels(KEY), types), ArraySide.from_labels(labels(RESPONSE), types)
    ).counts_matrix
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)  # sums in another mention order
    with pytest.raises(ValueError, match=r"types must have one entry per mention \(6\); got 2"):
        corefscore.score(ArraySide.from_labels(labels(KEY), [1, 2]), ArraySide.from_labels(labels(KEY)))
