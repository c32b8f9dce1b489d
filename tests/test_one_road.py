"""One road (issue 19): every entry point packs one document form and gets the engine's one decision.

The engine decides which metrics apply to a document; a document's counts do
not depend on the road it took or on the batch it came in; inputs that cannot
mean what they seem are refused by name; how a span is spelled does not
change what an analysis finds.
"""

from __future__ import annotations

from collections import namedtuple

import corefscore
import numpy as np
import pytest
from corefscore import ArraySide, _convert, _lib

EMPTY_KEY = ([], [[(11, 12), (11, 14)]])
OTHER = ([[(0, 1), (3, 4)], [(6, 6)]], [[(0, 1)], [(3, 4), (6, 6)]])


def _arrays(clusters):
    spans = np.array([m for c in clusters for m in c], dtype=np.int64).reshape(-1, 2)
    return ArraySide(spans, np.array([i for i, c in enumerate(clusters) for _ in c], dtype=np.int64))


def _roads(key, response):
    """The document's counts row and metric names down every in-memory road, alone and in a batch."""
    scorer = corefscore.Scorer()
    scorer.update(key, response)
    batch = corefscore.Scorer()
    batch.update([OTHER[0], key], [OTHER[1], response], batch=True)
    corpus = corefscore.score_corpus([OTHER[0], key], [OTHER[1], response])
    return {
        "score": corefscore.score(key, response),
        "score_arrays": corefscore.score(_arrays(key), _arrays(response)),
        "Scorer.update": scorer.compute(),
        "score_corpus alone": corefscore.score_corpus([key], [response]),
        "score_corpus by name": corefscore.score_corpus({"d": key}, {"d": response}),
        "Scorer.update batch": batch.compute(),
        "score_corpus in a batch": corpus,
    }


def test_an_untyped_document_with_an_empty_key_gets_the_same_answer_on_every_road():
    roads = _roads(*EMPTY_KEY)
    rows = {name: r.counts_matrix[-1] for name, r in roads.items()}
    first = rows["score"]
    for name, row in rows.items():
        np.testing.assert_array_equal(row, first, err_msg=name)
    for name, r in roads.items():
        assert "da" not in r.metrics, name  # untyped: DA is left out, as for any untyped document
    da = [i for i, c in enumerate(_lib.columns()) if c.startswith("da.")]
    assert not first[da].any()
    asked = corefscore.score(*EMPTY_KEY, metrics=["da"])  # asked for by name: computed, 2 spurious mentions
    assert asked.counts["da"]["precision_den"] > 0


def test_a_batch_given_to_score_is_refused_saying_what_was_expected():
    with pytest.raises(TypeError, match=r"a sequence of spans .* score_corpus"):
        corefscore.score([OTHER[0], OTHER[0]], [OTHER[1], OTHER[1]])
    with pytest.raises(TypeError, match="score_corpus"):
        corefscore.Scorer().update([OTHER[0]], [OTHER[1]])


def test_a_bare_cluster_of_spans_is_refused_by_name():
    with pytest.raises(TypeError, match=r"wrap it in a list \(\[\[\(0, 1\), \(3, 3\)\]\]\)"):
        corefscore.score([(0, 1), (3, 3)], [[(0, 1), (3, 3)]])
    with pytest.raises(TypeError, match=r"`response` of document 0 .* sequence of \(int, int\) pairs"):
        corefscore.score([[0, 1, 3]], [(0, 1), (3, 3)])
    assert corefscore.score([[0, 1], [3]], [[0, 1, 3]])["muc"].recall == 1.0  # clusters of ints are fine


def test_how_a_span_is_spelled_does_not_change_an_analysis():
    span = namedtuple("span", "start end")
    key = [[(0, 1), (3, 4)], [(6, 6)]]
    response = [[(0, 2), (3, 4)], [(6, 6)]]  # (0, 2) is a span error against (0, 1)
    plain = corefscore.analyze(key, response)
    assert plain.counts["span_error"] == 1 and plain.counts["extra_mention"] == plain.counts["missing_mention"] == 0
    named = corefscore.analyze(*([[span(*m) for m in c] for c in side] for side in (key, response)))
    assert named.counts == plain.counts
    assert corefscore.score(*([[span(*m) for m in c] for c in side] for side in (key, response))).counts == \
        corefscore.score(key, response).counts


def test_a_span_document_batched_with_an_int_document_keeps_its_analysis_counts():
    key = [[(0, 1), (3, 4)], [(6, 6)]]
    response = [[(0, 2), (3, 4)], [(6, 6)]]
    ints = ([[1, 2], [3]], [[1, 2, 3], [40]])
    kk = ["kk", "ms"]
    alone = [corefscore.score_corpus([k], [r], metrics=kk).counts_matrix[0] for k, r in ((key, response), ints)]
    for order in ((0, 1), (1, 0)):
        docs = [(key, response), ints]
        batch = corefscore.score_corpus([docs[i][0] for i in order], [docs[i][1] for i in order], metrics=kk)
        for row, i in zip(batch.counts_matrix, order):
            np.testing.assert_array_equal(row, alone[i])
    names = [c for c in _lib.columns() if c.startswith("kk.")]
    assert alone[0][_lib.columns().index("kk.span_error")] == 1, names


def test_only_a_first_mention_that_is_a_span_reaches_the_librarys_span_packing(monkeypatch):
    calls = []
    real = _lib.spans_from_lists
    monkeypatch.setattr(_lib, "spans_from_lists", lambda k, r: calls.append(1) or real(k, r))
    for key, response in (([[1, 2], [3]], [[1, 2, 3]]), ([["a", "b"]], [["a"], ["b"]]), ([], [])):
        corefscore.score(key, response)
    assert calls == []  # ints, labels, nothing: no call designed to fail
    doc = _convert.from_lists(*OTHER, "0")
    assert calls == [1] and doc.kind == _convert.SPAN


def test_a_cancel_flag_left_set_cancels_no_later_call():
    # An interrupted long call leaves the thread's flag at 1; the next calls, per-call or batch, must run.
    want = corefscore.score_corpus([OTHER[0]] * 2, [OTHER[1]] * 2).counts_matrix
    _lib._scratch.cancel.value = 1
    np.testing.assert_array_equal(corefscore.score(*OTHER).counts_matrix, want[:1])
    _lib._scratch.cancel.value = 1
    np.testing.assert_array_equal(corefscore.score_corpus([OTHER[0]] * 2, [OTHER[1]] * 2).counts_matrix, want)
