"""Every metric x every input form, scikit-learn ``test_common`` style.

A registry of input forms turns one document (clusters of ``(start, end)``
spans) into each form the API accepts; every form must give exactly the same
counts for every metric. A second registry of invariants is checked once for
all metrics.
"""

from __future__ import annotations

import corefscore
import numpy as np
import pytest
from _helpers import ANALYSES, TYPED_METRICS, UA_METRICS, WORD_METRICS, import_torch_module
from corefscore import ArraySide
from fixtures.synthetic import make_key, perturb

CLASSIC = [m for m in corefscore.metric_names() if m not in TYPED_METRICS + ANALYSES + WORD_METRICS + UA_METRICS]


def _docs():
    """Small documents with twinless mentions on both sides, plus edge cases."""
    rng = np.random.default_rng(7)
    docs = []
    for n in (2, 5, 17, 60):
        key = make_key(rng, n, max(1, n // 4))
        resp = perturb(rng, key, drop=0.2, add=0.2, shift=0.1, move=0.2, split=0.3, merge=0.3)
        docs.append((_lists(key), _lists(resp)))
    pradhan_key = [[(0, 0), (1, 1), (2, 2)], [(3, 3), (4, 4), (5, 5), (6, 6)]]
    pradhan_resp = [[(0, 0), (1, 1)], [(2, 2), (3, 3)], [(5, 5), (6, 6), (7, 7), (8, 8)]]
    docs.append((pradhan_key, pradhan_resp))
    docs.append((pradhan_key, []))  # empty response
    docs.append(([], pradhan_resp))  # empty key
    docs.append(([[(0, 3)], [(5, 9)]], [[(0, 3), (5, 9)]]))  # singletons only in the key
    return docs


def _lists(side: ArraySide) -> list[list[tuple[int, int]]]:
    out: dict[int, list[tuple[int, int]]] = {}
    for (s, e), c in zip(np.asarray(side.mentions).tolist(), np.asarray(side.clusters).tolist()):
        out.setdefault(c, []).append((s, e))
    return list(out.values())


DOCS = _docs()


def _span_arrays(doc):
    spans = [m for c in doc for m in c]
    ids = [10 * i + 3 for i, c in enumerate(doc) for _ in c]  # arbitrary non-dense cluster ids
    return np.array(spans, dtype=np.int64).reshape(-1, 2), np.array(ids, dtype=np.int64)


def _labels(key, resp):
    mentions = sorted({m for c in key for m in c} | {m for c in resp for m in c})
    index = {m: i for i, m in enumerate(mentions)}
    out = []
    for side in (key, resp):
        lab = np.full(len(mentions), -1, dtype=np.int64)
        for i, c in enumerate(side):
            for m in c:
                lab[index[m]] = i
        out.append(lab)
    return out


def _torch():
    return import_torch_module("torch")


class FakeTensor:
    """Duck-typed stand-in for a torch tensor (detach/cpu/numpy), so the tensor path runs without torch."""

    def __init__(self, a):
        self._a = np.asarray(a)

    def detach(self):
        return self

    def cpu(self):
        return self

    def numpy(self):
        return self._a


# Each form maps (key, response) of span clusters to the arguments of score().
FORMS = {
    "tuples": lambda k, r: (k, r),
    "span_lists": lambda k, r: ([[list(m) for m in c] for c in k], [[list(m) for m in c] for c in r]),
    "hashables": lambda k, r: ([[f"m{s}-{e}" for s, e in c] for c in k], [[f"m{s}-{e}" for s, e in c] for c in r]),
    "ints": lambda k, r: ([[s * 100003 + e for s, e in c] for c in k], [[s * 100003 + e for s, e in c] for c in r]),
    "sets_of_tuples": lambda k, r: ([set(c) for c in k], [set(c) for c in r]),
    "numpy_int_tuples": lambda k, r: (
        [[(np.int64(s), np.int32(e)) for s, e in c] for c in k],
        [[(np.int64(s), np.int32(e)) for s, e in c] for c in r],
    ),
    "generators": lambda k, r: ((iter(c) for c in k), (iter(c) for c in r)),
    "span_arrays": lambda k, r: (ArraySide(*_span_arrays(k)), ArraySide(*_span_arrays(r))),
    "id_arrays": lambda k, r: (
        ArraySide(_span_arrays(k)[0] @ np.array([100003, 1]), _span_arrays(k)[1]),
        ArraySide(_span_arrays(r)[0] @ np.array([100003, 1]), _span_arrays(r)[1]),
    ),
    "labels": lambda k, r: tuple(ArraySide.from_labels(lab) for lab in _labels(k, r)),
    "torch_spans": lambda k, r: tuple(
        ArraySide(*(_torch().from_numpy(a) for a in _span_arrays(side))) for side in (k, r)
    ),
    "fake_tensor_spans": lambda k, r: tuple(ArraySide(*(FakeTensor(a) for a in _span_arrays(side))) for side in (k, r)),
    "fake_tensor_labels": lambda k, r: tuple(ArraySide.from_labels(FakeTensor(lab)) for lab in _labels(k, r)),
    "torch_labels": lambda k, r: tuple(ArraySide.from_labels(_torch().from_numpy(lab)) for lab in _labels(k, r)),
}


#: The forms, those that need torch marked `torch` (run by make test-torch).
FORM_PARAMS = [pytest.param(f, marks=pytest.mark.torch) if f.startswith("torch") else f for f in sorted(FORMS)]


def _metrics(result, metric):
    return result.to_dict()["metrics"][metric]


@pytest.mark.parametrize("form", FORM_PARAMS)
@pytest.mark.parametrize("metric", CLASSIC)
def test_every_form_gives_the_same_counts(metric, form):
    for i, (key, resp) in enumerate(DOCS):
        want = corefscore.score(key, resp, metrics=[metric])
        got = corefscore.score(*FORMS[form](key, resp), metrics=[metric])
        assert _metrics(got, metric) == _metrics(want, metric), f"document {i}"


@pytest.mark.parametrize("form", FORM_PARAMS)
def test_every_form_through_score_corpus(form):
    """The same documents as one corpus in each form: identical per-document counts."""
    want = corefscore.score_corpus([k for k, _ in DOCS], [r for _, r in DOCS])
    converted = [FORMS[form](k, r) for k, r in DOCS]
    got = corefscore.score_corpus([k for k, _ in converted], [r for _, r in converted])
    np.testing.assert_array_equal(got.counts_matrix, want.counts_matrix)


def test_score_arrays_and_score_labels_match_score():
    key, resp = DOCS[3]
    want = corefscore.score(key, resp).counts_matrix
    got = corefscore.score_arrays(*_span_arrays(key), *_span_arrays(resp)).counts_matrix
    np.testing.assert_array_equal(got, want)
    got = corefscore.score_labels(*_labels(key, resp)).counts_matrix
    np.testing.assert_array_equal(got, want)


# -- invariants checked once for every metric ---------------------------------


@pytest.mark.parametrize("metric", CLASSIC)
def test_perfect_response_scores_one(metric):
    key = DOCS[3][0]
    r = corefscore.score(key, key, metrics=[metric])[metric]
    assert (r.recall, r.precision, r.f1) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize("metric", CLASSIC)
def test_swapping_key_and_response_swaps_recall_and_precision(metric):
    for key, resp in DOCS:
        a = corefscore.score(key, resp, metrics=[metric])[metric]
        b = corefscore.score(resp, key, metrics=[metric])[metric]
        if metric == "blanc":  # the reference's BLANC edge rule looks at the key only
            a = corefscore.score(key, resp, metrics=[metric], blanc_rule="either")[metric]
            b = corefscore.score(resp, key, metrics=[metric], blanc_rule="either")[metric]
        assert a.recall == pytest.approx(b.precision, abs=1e-12)
        assert a.precision == pytest.approx(b.recall, abs=1e-12)


@pytest.mark.parametrize("metric", CLASSIC)
def test_invariant_under_renumbering_and_reordering(metric):
    rng = np.random.default_rng(3)
    for key, resp in DOCS:
        want = _metrics(corefscore.score(key, resp, metrics=[metric]), metric)
        shuffled = [list(rng.permutation(len(c))) for c in resp]
        resp2 = [[c[i] for i in order] for c, order in zip(resp, shuffled)]
        resp2 = [resp2[i] for i in rng.permutation(len(resp2))] if resp2 else resp2
        key2 = key[::-1]
        got = _metrics(corefscore.score(key2, resp2, metrics=[metric]), metric)
        for field, value in want.items():
            if isinstance(value, dict):
                for f, v in value.items():
                    assert got[field][f] == pytest.approx(v, abs=1e-9)
            else:
                assert got[field] == pytest.approx(value, abs=1e-9)


@pytest.mark.parametrize("metric", CLASSIC)
def test_scores_lie_in_unit_interval_and_documents_add_up(metric):
    result = corefscore.score_corpus([k for k, _ in DOCS], [r for _, r in DOCS], metrics=[metric])
    for doc in result.per_document():
        s = doc[metric]
        assert 0.0 <= s.recall <= 1.0 and 0.0 <= s.precision <= 1.0 and 0.0 <= s.f1 <= 1.0
    singles = np.vstack([corefscore.score(k, r, metrics=[metric]).counts_matrix for k, r in DOCS])
    np.testing.assert_allclose(result.total_counts, singles.sum(axis=0), rtol=0, atol=1e-9)


def test_metric_selection_only_reports_and_computes_the_chosen_metrics():
    key, resp = DOCS[4]
    r = corefscore.score(key, resp, metrics=["ceafe", "muc"])
    assert r.metrics == ("muc", "ceafe")  # engine order
    cols = [i for i, c in enumerate(r.columns) if not c.startswith(("muc.", "ceafe."))]
    assert not r.counts_matrix[:, cols].any()


def test_a_corpus_may_mix_forms_document_by_document():
    forms = sorted(f for f in FORMS if not f.startswith("torch"))
    want = corefscore.score_corpus([k for k, _ in DOCS], [r for _, r in DOCS])
    converted = [FORMS[forms[i % len(forms)]](k, r) for i, (k, r) in enumerate(DOCS)]
    got = corefscore.score_corpus([k for k, _ in converted], [r for _, r in converted])
    np.testing.assert_array_equal(got.counts_matrix, want.counts_matrix)
    mixed = [FORMS["span_arrays"](*DOCS[0]), FORMS["id_arrays"](*DOCS[1]), FORMS["labels"](*DOCS[2])]
    got = corefscore.score_corpus([k for k, _ in mixed], [r for _, r in mixed])
    np.testing.assert_array_equal(got.counts_matrix, want.counts_matrix[:3])


def test_span_packing_agrees_between_lists_and_arrays_and_round_trips():
    from corefscore import _convert, _lib

    rng = np.random.default_rng(0)
    starts = rng.integers(0, 2**31 - 10, size=500)
    ends = starts + rng.integers(0, 10, size=500)
    spans = np.column_stack([starts, ends])
    spans[:3] = [[0, 0], [0, 2**31 - 1], [2**31 - 1, 2**31 - 1]]  # the edges
    pairs = [tuple(p) for p in spans.tolist()]
    both, n_key = _lib.spans_from_lists([pairs], [])
    from_lists = both[:n_key].tolist()
    doc = _convert.from_arrays(ArraySide(spans, np.zeros(len(spans), dtype=np.int64)),
                               ArraySide(np.zeros((0, 2), dtype=np.int64), np.zeros(0, dtype=np.int64)), "0")
    from_arrays = list(doc.key[0])
    assert from_lists == from_arrays
    assert len(set(from_lists)) == len(set(pairs))
    assert [_convert.unpack_span(i) for i in from_lists] == pairs
    assert min(from_lists) >= 0 and max(from_lists) < 2**63  # non-negative int64


def test_empty_inputs():
    # An empty document and an accumulator with nothing in it keep the
    # reference's 0 over 0 in the attributes, but no metric had anything to
    # count: none is a score (n/a, None in to_dict, no CoNLL F1); an empty
    # corpus is refused (tests/test_errors.py).
    for r in (corefscore.score([], []), corefscore.Scorer().compute()):
        assert r.conll_f1 is None
        assert all(r[m].f1 == 0.0 and not r[m].counted for m in r.metrics)
        assert all(s["f1"] is None for s in r.to_dict()["metrics"].values())
    assert corefscore.Scorer().compute().n_documents == 0
