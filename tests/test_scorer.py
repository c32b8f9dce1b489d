"""The streaming Scorer: batches add up to one score_corpus call; merge, reset, counts."""

from __future__ import annotations

import pickle

import corefscore
import numpy as np
import pytest
from corefscore import Scorer
from fixtures.synthetic import synthetic_corpus


@pytest.fixture(scope="module")
def corpus():
    return synthetic_corpus(40, 2000, 450, seed=11)


def test_scorer_over_batches_equals_one_score_corpus(corpus):
    want = corefscore.score_corpus(corpus.key, corpus.response)
    scorer = Scorer()
    for lo in range(0, 40, 7):  # uneven batches
        scorer.update(corpus.key[lo : lo + 7], corpus.response[lo : lo + 7], batch=True)
    got = scorer.compute()
    np.testing.assert_array_equal(got.counts_matrix, want.counts_matrix)
    assert got.to_dict() == want.to_dict()
    assert got.doc_names == [str(i) for i in range(40)]


def test_scorer_one_document_at_a_time_in_list_form(corpus):
    keys, responses = corpus.as_lists()
    want = corefscore.score_corpus(keys, responses, metrics=["muc", "bcub", "ceafe", "lea"])
    scorer = Scorer(metrics=["muc", "bcub", "ceafe", "lea"])
    for k, r in zip(keys, responses):
        scorer.update(k, r)
    np.testing.assert_array_equal(scorer.counts_matrix, want.counts_matrix)
    np.testing.assert_allclose(scorer.counts, want.total_counts)
    assert scorer.compute().conll_f1 == pytest.approx(want.conll_f1, abs=1e-15)


def test_scorer_mappings_are_a_batch_paired_by_name():
    scorer = Scorer(metrics="muc")
    scorer.update({"a": [[1, 2, 3]], "b": [[1, 2]]}, {"b": [[1, 2]], "a": [[1, 2], [3]]})
    r = scorer.compute()
    assert r.doc_names == ["a", "b"]
    assert (r.counts["muc"]["recall_num"], r.counts["muc"]["recall_den"]) == (2, 3)


def test_merge_equals_one_scorer_and_distributed_sum(corpus):
    whole = Scorer()
    whole.update(corpus.key, corpus.response, batch=True)
    parts = [Scorer(), Scorer(), Scorer()]
    for i, (k, r) in enumerate(zip(corpus.key, corpus.response)):
        parts[i % 3].update(k, r)
    merged = Scorer().merge(parts[0]).merge(parts[1]).merge(parts[2])
    assert merged.n_documents == 40
    np.testing.assert_allclose(merged.counts, whole.counts, rtol=0, atol=1e-9)
    assert merged.compute().conll_f1 == pytest.approx(whole.compute().conll_f1, abs=1e-12)
    # Workers that only ship their summed counts (e.g. an all-reduce) give the same corpus scores.
    summed = Scorer()
    summed.add_counts(np.sum([p.counts for p in parts], axis=0))
    got, want = summed.compute(), whole.compute()
    for metric in want.metrics:
        for q in ("recall", "precision", "f1"):
            assert getattr(got[metric], q) == pytest.approx(getattr(want[metric], q), abs=1e-12)


def test_scorer_is_picklable_for_multiprocessing(corpus):
    scorer = Scorer(metrics=["muc", "ceafe"])
    scorer.update(corpus.key[:3], corpus.response[:3], batch=True)
    clone = pickle.loads(pickle.dumps(scorer))
    np.testing.assert_array_equal(clone.counts_matrix, scorer.counts_matrix)
    clone.update(corpus.key[3], corpus.response[3])
    assert clone.n_documents == 4 and scorer.n_documents == 3


def test_reset_and_empty_scorer():
    scorer = Scorer(metrics=["muc"])
    assert scorer.compute()["muc"].f1 == 0.0 and scorer.counts_matrix.shape == (0, len(scorer.columns))
    scorer.update([[1, 2]], [[1, 2]])
    assert scorer.compute()["muc"].f1 == 1.0
    scorer.reset()
    assert scorer.n_documents == 0


def test_merge_and_add_counts_errors():
    with pytest.raises(ValueError, match=r"`other` must have the same options as this Scorer"):
        Scorer(metrics="muc").merge(Scorer(metrics="bcub"))
    with pytest.raises(TypeError, match=r"`other` must be a Scorer; got int"):
        Scorer().merge(3)
    with pytest.raises(ValueError, match=r"`counts_matrix` must have shape \(n, \d+\); got \(2, 3\)"):
        Scorer().add_counts(np.zeros((2, 3)))
    ncol = len(Scorer().columns)
    with pytest.raises(ValueError, match=r"`counts_matrix` must be finite"):
        Scorer().add_counts(np.full(ncol, np.nan))


def test_scorer_reports_duplicates_per_policy():
    scorer = Scorer(duplicates="ignore")
    scorer.update([[1, 2], [2, 3]], [[1, 2]], name="d7")
    (dup,) = scorer.compute().duplicates
    assert (dup.document, dup.side, dup.mention) == ("d7", "key", 2)
    with pytest.raises(corefscore.CorefScoreInputError, match=r"document 0: response mention 1: the mention occurs"):
        Scorer(duplicates="raise").update([[1]], [[1], [1]])
