"""The per-call path (issue 10): lists of span pairs cross as marshal data, the rest takes the general path.

Lists (or tuples) of ``(start, end)`` int pairs are written by
``marshal.dumps`` and checked and packed by the library
(``_lib.spans_from_lists``); anything else, a bad span included, goes to the
general path (``_convert._from_lists``), which checks every mention on its
own. A bad span must give the general path's error from every entry point,
naming the document and the mention, in document order; valid spans give the
general path's ids and counts.
"""

from __future__ import annotations

import enum
import random
import warnings
from collections import namedtuple

import corefscore
import numpy as np
import pytest
from corefscore import _api, _convert, _engine, _lib

GOOD = [[(5 * j + i, 5 * j + i + 1) for i in range(5)] for j in range(10)]  # 50 mentions, 10 clusters


def _with(clusters, c, m, span):
    out = [list(cl) for cl in clusters]
    out[c][m] = span
    return out


def _strict_error(key, response, label="0"):
    """The error the conversion raises when it checks each mention in Python, as (type, message)."""
    with pytest.raises((TypeError, ValueError)) as info:
        _convert._from_lists(key, response, label)
    return type(info.value), str(info.value)


# Bounds out of order or out of range, beyond 64 bits once packed, and bounds that are not ints.
BAD_SPANS = [(-1, 3), (7, 2), (3, -1), (-5, -2), (2**31 - 1, 2**31 - 2), (4, 2**31), (0, 2**32 + 1), (2**32, 5),
             (-(2**40), 3), (2**40, 2**40 + 1), (True, 3), (0.0, 3), (np.int64(4), np.int32(2))]


@pytest.mark.parametrize("span", BAD_SPANS, ids=repr)
@pytest.mark.parametrize("side", ["key", "response"])
def test_a_bad_span_gives_the_conversions_error_from_every_entry_point(span, side):
    bad = _with(GOOD, 6, 3, span)
    key, response = (bad, GOOD) if side == "key" else (GOOD, bad)
    exc, message = _strict_error(key, response)
    assert side in message and str(span[0]) in message
    with pytest.raises(exc) as info:
        corefscore.score(key, response)
    assert str(info.value) == message
    scorer = corefscore.Scorer()
    with pytest.raises(exc) as info:
        scorer.update(key, response)
    assert str(info.value) == message and scorer.n_documents == 0
    with pytest.raises(exc) as info:
        corefscore.analyze(key, response)
    assert str(info.value) == message


def test_in_a_batch_the_first_document_in_order_is_named():
    # Document 1's response and document 2's key are bad: the error names document 1, the first in order.
    docs_key = [GOOD, GOOD, _with(GOOD, 0, 0, (9, 1))]
    docs_response = [GOOD, _with(GOOD, 2, 4, (-3, 4)), GOOD]
    _, message = _strict_error(docs_key[1], docs_response[1], "1")
    with pytest.raises(ValueError) as info:
        corefscore.score_corpus(docs_key, docs_response)
    assert str(info.value) == message and "`response` of document 1" in message
    scorer = corefscore.Scorer()
    with pytest.raises(ValueError, match=r"`response` of document 1 "):
        scorer.update(docs_key, docs_response, batch=True)


def test_engine_errors_that_are_not_about_spans_are_unchanged():
    repeated = _with(GOOD, 1, 0, GOOD[0][0])  # the first mention again, in another cluster
    with pytest.raises(corefscore.CorefScoreInputError) as info:
        corefscore.score(repeated, GOOD, duplicates="raise")
    assert info.value.kind == "duplicate" and info.value.mention == GOOD[0][0] and info.value.side == "key"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = corefscore.score(repeated, GOOD)
    assert r.duplicates[0].mention == GOOD[0][0] and caught


@pytest.mark.parametrize(
    "convert",
    [lambda m: m, list, lambda m: (np.int64(m[0]), np.int64(m[1]))],
    ids=["tuples", "lists", "numpy scalars"],
)
def test_valid_spans_give_the_general_paths_ids_and_counts(convert):
    key = [*GOOD, [(0, 0), (2**31 - 1, 2**31 - 1)]]  # the edges of the packing
    response = [[(0, 1), (5, 6)], [(10, 11), (15, 16), (20, 21)], [(2**31 - 1, 2**31 - 1)]]
    conv_key, conv_response = ([[convert(m) for m in c] for c in side] for side in (key, response))
    general = _convert._from_lists(conv_key, conv_response, "0")
    per_call = _convert.from_lists(conv_key, conv_response, "0")
    assert per_call.kind == general.kind == _convert.SPAN
    for side in ("key", "response"):
        assert [list(x) for x in getattr(per_call, side)[:2]] == [list(x) for x in getattr(general, side)[:2]]
    want = _engine.score_docs([general], ["0"], _engine.options(), False).counts
    np.testing.assert_array_equal(corefscore.score(conv_key, conv_response).counts_matrix, want)


def test_a_document_too_large_for_the_per_call_buffer_takes_the_batch_path_with_the_same_counts():
    from corefscore import ArraySide, _lib

    n = _lib.INTERRUPTIBLE_MENTIONS // 2 + 10  # both sides together above the per-call bound
    key = [[(i, i) for i in range(j, n, 7)] for j in range(7)]
    response = [[(i, i) for i in range(j, n, 5)] for j in range(5)]
    doc = _convert.from_lists(key, response, "0")
    assert doc.kind == _convert.SPAN and len(doc.both) >= _lib.INTERRUPTIBLE_MENTIONS
    spans = [np.array([m for c in side for m in c]) for side in (key, response)]
    ids = [np.array([i for i, c in enumerate(side) for _ in c]) for side in (key, response)]
    want = corefscore.score(ArraySide(spans[0], ids[0]), ArraySide(spans[1], ids[1])).counts_matrix
    np.testing.assert_array_equal(corefscore.score(key, response).counts_matrix, want)
    scorer = corefscore.Scorer()
    scorer.update(key, response)
    np.testing.assert_array_equal(scorer.counts_matrix, want)


def test_the_per_thread_buffer_grows_and_is_reused_across_documents_of_any_size():
    from corefscore import ArraySide

    def arrays(key, response):
        spans = [np.array([m for c in side for m in c]).reshape(-1, 2) for side in (key, response)]
        ids = [np.array([i for i, c in enumerate(side) for _ in c], dtype=np.int64) for side in (key, response)]
        return ArraySide(spans[0], ids[0]), ArraySide(spans[1], ids[1])

    big = ([[(i, i + 1) for i in range(j, 1200, 3)] for j in range(3)],
           [[(i, i + 1) for i in range(j, 1200, 4)] for j in range(4)])
    docs = [(GOOD, GOOD), big, ([[(0, 1), (3, 4)]], [[(0, 1)], [(3, 4)]]), big, (GOOD, big[1])]
    for key, response in docs:
        want = corefscore.score(*arrays(key, response)).counts_matrix
        np.testing.assert_array_equal(corefscore.score(key, response).counts_matrix, want)


Span = namedtuple("Span", "start end")


class Code(enum.IntEnum):
    FIVE = 5


class Clusters(list):
    pass


# Ways a bound, a mention, a cluster or a side can be given that the general
# path accepts or refuses, and that marshal writes otherwise than as exact
# int, list and tuple (or not at all).
ODD_BOUNDS = [True, np.int64(3), 3.0, 2**31, -1, 2**64, Code.FIVE]
ODD_MENTIONS = [Span(1, 2), (1, 2, 3), (4,), [1, 2], "ab", 7, None]
ODD_CLUSTERS = [Clusters([(1, 2)]), "ab", (x for x in [(1, 2)]), {(1, 2)}, 5]


def _random_side(rng: random.Random, shared: list) -> list:
    side = []
    for _ in range(rng.randrange(0, 5)):
        cluster = []
        for _ in range(rng.randrange(0, 5)):
            if shared and rng.random() < 0.3:
                cluster.append(rng.choice(shared))  # the same tuple object again: marshal refers back to it
                continue
            start = rng.choice([0, 1, 7, 255, 256, 300, 70_000, 2**31 - 2, 2**31 - 1])
            mention = (start, min(start + rng.randrange(0, 3), 2**31 - 1))
            shared.append(mention)
            cluster.append(mention if rng.random() < 0.8 else list(mention))
        side.append(cluster if rng.random() < 0.8 else tuple(cluster))
    return side


def _spoil(rng: random.Random, side: list) -> list:
    """The side with one bound, mention or cluster replaced by an odd one (when it has one to replace)."""
    side = [list(c) for c in side]
    if not side:
        return [rng.choice(ODD_CLUSTERS)]
    c = rng.randrange(len(side))
    what = rng.randrange(3)
    if what == 0 or not side[c]:
        side[c] = rng.choice(ODD_CLUSTERS)
    elif what == 1:
        side[c][rng.randrange(len(side[c]))] = rng.choice(ODD_MENTIONS)
    else:
        m = rng.randrange(len(side[c]))
        start, end = side[c][m]
        side[c][m] = (rng.choice(ODD_BOUNDS), end) if rng.random() < 0.5 else (start, rng.choice(ODD_BOUNDS))
    return side


def _general(key, response):
    try:
        return _convert._from_lists(key, response, "0")
    except (TypeError, ValueError):
        return None


def test_marshal_path_agrees_with_the_general_path_on_random_and_odd_inputs():
    # Whatever the input, the per-call path either gives the general path's
    # span ids and clusters or leaves the document to it; it takes every
    # document of plain int pairs in range (shared tuples, the key given again
    # as the response, lists as mentions and tuples as clusters included).
    rng = random.Random(10)
    taken = left = 0
    for trial in range(3000):
        shared: list = []
        key = _random_side(rng, shared)
        response = key if trial % 10 == 0 else _random_side(rng, shared)
        plain = trial % 3 != 0
        if not plain:
            key, response = (_spoil(rng, key), response) if rng.random() < 0.5 else (key, _spoil(rng, response))
        fast = _lib.spans_from_lists(key, response)
        general = _general(key, response)
        if plain:
            assert fast is not None, (key, response)
        if fast is None:
            left += 1
            continue
        taken += 1
        assert general is not None, (key, response)
        assert general.kind == _convert.SPAN or not len(fast[0]), (key, response)  # no mention: no kind to agree on
        doc = _convert.Doc(fast[0], fast[1], _convert.SPAN)
        for side in ("key", "response"):
            assert [list(x) for x in getattr(doc, side)[:2]] == [list(x) for x in getattr(general, side)[:2]]
    assert taken > 1000 and left > 500


@pytest.mark.parametrize("odd", ODD_BOUNDS, ids=repr)
def test_a_bound_that_is_not_a_plain_int_in_range_is_left_to_the_general_path(odd):
    assert _lib.spans_from_lists([[(1, 2), (odd, 2**31 - 1)]], []) is None
    assert _lib.spans_from_lists([], [[(0, odd)]]) is None


def test_one_shot_iterables_are_left_whole_to_the_general_path():
    key = [[(1, 2), (3, 4)]]
    assert _lib.spans_from_lists(iter(key), key) is None
    assert _lib.spans_from_lists([iter(key[0])], key) is None
    np.testing.assert_array_equal(corefscore.score([iter(key[0])], key).counts_matrix,
                                  corefscore.score(key, key).counts_matrix)


def test_array_sides_take_the_per_call_path_with_the_lists_counts():
    # Spans of any integer dtype and layout are packed by the library into the
    # per-call array (ids, then clusters); ids and typed sides as well, typed
    # ones then scored in a batch.
    from corefscore import ArraySide

    response = [[(0, 1), (5, 6)], [(10, 11), (15, 16), (20, 21)], [(2**31 - 1, 2**31 - 1)]]

    def side(clusters, dtype=np.int64, strided=False):
        spans = np.array([m for c in clusters for m in c], dtype=dtype)
        if strided:  # every other row of a larger array: not contiguous
            spans = np.repeat(spans, 2, axis=0)[::2]
        return ArraySide(spans, np.array([i for i, c in enumerate(clusters) for _ in c], dtype=np.int32))

    want = corefscore.score(GOOD, response).counts_matrix
    for dtype, strided in ((np.int64, False), (np.int32, False), (np.int64, True)):
        key_side, response_side = side(GOOD, dtype, strided), side(response, np.int64, strided)
        doc = _convert.convert(key_side, response_side, "0")
        assert doc.kind == _convert.SPAN and doc.types is None
        np.testing.assert_array_equal(corefscore.score(key_side, response_side).counts_matrix, want)
    ids = ArraySide(np.arange(10), np.arange(10) % 3), ArraySide(np.arange(2, 12), np.arange(10) % 4)
    assert _convert.convert(*ids, "0").kind == _convert.INT
    as_lists = [[[int(m) for m, c in zip(s.mentions, s.clusters) if c == k] for k in range(4)] for s in ids]
    np.testing.assert_array_equal(corefscore.score(*ids).counts_matrix,
                                  corefscore.score(*[[c for c in s if c] for s in as_lists]).counts_matrix)
    typed = ArraySide(side(GOOD).mentions, side(GOOD).clusters, np.ones(50, dtype=np.int8))
    assert _convert.convert(typed, typed, "0").types.tolist() == [1] * 100  # both sides' types, key first
    with pytest.raises(ValueError, match=r"`response` of document 0 mentions must be spans .* got \(9, 2\) at row 1"):
        corefscore.score(side(GOOD), ArraySide(np.array([[0, 1], [9, 2]]), np.array([0, 0])))


# The one-crossing road (issue 24): an untyped document of span lists is read and scored in one engine call
# (cs_score_batch with input=marshal); anything the engine has more to say about takes the general road.

FIFTY_RESPONSE = [[(7 * j + i, 7 * j + i + 1) for i in range(7) if 7 * j + i < 50] for j in range(8)]


def _general_scores(key, response, **options):
    """score() by the general road: the document converted in Python, then one batch-shaped call."""
    opts = _api._options(**options)
    return _engine.score_docs([_convert.convert(key, response, "0")], ["0"], opts, False)


def test_score_and_update_read_and_score_span_lists_in_one_engine_call(monkeypatch):
    calls = []
    real = _lib.score_marshal
    monkeypatch.setattr(_lib, "score_marshal", lambda *a: calls.append(1) or real(*a))
    for road in ("spans_from_lists", "score_one", "score"):  # the two-call road must not be taken
        monkeypatch.setattr(_lib, road, lambda *a, road=road, **k: pytest.fail(f"_lib.{road} was called"))
    r = corefscore.score(GOOD, FIFTY_RESPONSE)
    scorer = corefscore.Scorer(metrics=["muc", "ceafe"])
    scorer.update(GOOD, FIFTY_RESPONSE)
    scorer.update(GOOD, GOOD)
    assert len(calls) == 3
    monkeypatch.undo()
    want = _general_scores(GOOD, FIFTY_RESPONSE)
    assert np.array_equal(r.counts_matrix, want.counts)
    assert r.metrics == want.metrics and r.doc_names == ["0"] and r.warnings == [] and r.duplicates == []
    both = _engine.score_docs([_convert.convert(GOOD, FIFTY_RESPONSE, "0"), _convert.convert(GOOD, GOOD, "1")],
                              ["0", "1"], _api._options(metrics=["muc", "ceafe"]), False)
    got = scorer.compute()
    assert np.array_equal(got.counts_matrix, both.counts)
    assert got.doc_names == ["0", "1"] and got.metrics == ("muc", "ceafe")


def test_what_the_engine_reports_beyond_counts_takes_the_general_road():
    repeated = [[(0, 1), (3, 4)], [(0, 1)]]
    assert _engine.score_marshal(repeated, repeated, _engine.options()) is None  # duplicates: reported by name
    with pytest.warns(corefscore.DuplicateMentionWarning, match=r"mention \(0, 1\)"):
        r = corefscore.score(repeated, repeated)
    assert r.n_duplicates == 2 and r.duplicates[0].mention == (0, 1)
    scorer = corefscore.Scorer(duplicates="ignore")
    scorer.update(repeated, [[(0, 1)]])
    assert scorer.compute().n_duplicates == 1
    with pytest.raises(corefscore.CorefScoreInputError, match=r"mention \(0, 1\)"):
        corefscore.score(repeated, [[(0, 1)]], duplicates="raise")
    # Not span lists, or too long for a call without a cancel flag: the general road, same counts.
    long = [[(i, i) for i in range(_lib.MARSHAL_MAX // 10)]]
    for key in ([[(0, 1), (2, 2)]], [[[0, 1], (2, 2)]], [["a", "b"]], long):
        if key is not long:
            assert (_engine.score_marshal(key, key, _engine.options()) is None) == (key[0][0] != (0, 1))
        else:
            assert _engine.score_marshal(key, key, _engine.options()) is None
        assert np.array_equal(corefscore.score(key, key).counts_matrix, _general_scores(key, key).counts)


def test_options_are_cached_by_value_and_a_later_change_to_a_list_is_not_seen():
    metrics = ["muc", "bcub"]
    first = corefscore.score(GOOD, FIFTY_RESPONSE, metrics=metrics)
    metrics.append("ceafe")
    assert first.metrics == ("muc", "bcub")
    assert corefscore.score(GOOD, FIFTY_RESPONSE, metrics=metrics).metrics == ("muc", "bcub", "ceafe")
    assert corefscore.score(GOOD, FIFTY_RESPONSE, metrics=("muc", "bcub")).metrics == ("muc", "bcub")
    assert _api._options_by_value({"metrics": ["lea"]}) is _api._options_by_value(
        {"metrics": ["lea"]})
    with pytest.raises(ValueError, match="singletons"):
        corefscore.score(GOOD, GOOD, singletons="sometimes")
    with pytest.raises(ValueError, match="singletons"):  # a bad value is refused every time, not cached
        corefscore.score(GOOD, GOOD, singletons="sometimes")


@pytest.mark.parametrize(("option", "accepted", "refused"), [("da_greedy", True, 1), ("workers", 1, True)])
def test_option_values_equal_as_keys_but_of_other_types_are_validated_each_on_its_own(option, accepted, refused):
    # True == 1 as dict keys, but the engine reads them as "true" and "1": a cached value must not stand in.
    _api._by_value.clear()
    _engine._cache.clear()
    corefscore.score(GOOD, GOOD, **{option: accepted})
    with pytest.raises(ValueError, match=option):
        corefscore.score(GOOD, GOOD, **{option: refused})
    with pytest.raises(ValueError, match=option):
        corefscore.Scorer(**{option: refused})


# The per-call road's Result (issue 24) holds the counts row alone: what it makes on first read must be what the
# general road's Result holds, and a copy or a pickle of it is a plain Result.

SINGLETONS = [[(0, 0)], [(2, 2)]]  # MUC, BLANC's coreference half: nothing to count


def _general_result(key, response, **options):
    opts = _api._options(**options)
    return _api._result(_general_scores(key, response, **options), opts, [], 2)


@pytest.mark.parametrize("options", [{}, {"metrics": ["muc", "bcub", "ceafe"]}, {"metrics": ["blanc", "kk"]},
                                     {"blanc_rule": "either"}])
@pytest.mark.parametrize("doc", [(GOOD, FIFTY_RESPONSE), (SINGLETONS, SINGLETONS), ([[(0, 1), (3, 4)]], [])])
def test_the_per_call_result_answers_as_the_general_roads(doc, options):
    import copy
    import pickle

    want = _general_result(*doc, **options)
    # Read in different orders: one metric first, everything first, the CoNLL score first.
    for first in ("one", "all", "conll"):
        got = corefscore.score(*doc, **options)
        assert type(got) is not corefscore.Result and isinstance(got, corefscore.Result)  # the per-call road's
        if first == "one":
            assert str(got[want.metrics[0]].f1) == str(want[want.metrics[0]].f1)
        elif first == "conll":
            assert got.conll_f1 == want.conll_f1
        for name in ("columns", "doc_names", "metrics", "analyses", "blanc_rule", "duplicates", "warnings", "key",
                     "response", "options", "n_duplicates", "n_documents", "conll_f1"):
            assert getattr(got, name) == getattr(want, name), name
        assert np.array_equal(got.counts_matrix, want.counts_matrix) and got.counts_matrix.flags.writeable
        assert [(m, s.to_dict()) for m, s in got.items()] == [(m, s.to_dict()) for m, s in want.items()]
        assert all(got[m] is s for m, s in got.items())  # one MetricScore per metric, however read
        assert got.to_dict(per_doc=True) == want.to_dict(per_doc=True) and repr(got) == repr(want)
        assert got.na_warnings() == want.na_warnings() and got.counts == want.counts
        for other in (copy.copy(got), pickle.loads(pickle.dumps(got))):
            assert type(other) is corefscore.Result and repr(other) == repr(want)
            assert np.array_equal(other.counts_matrix, want.counts_matrix) and other.metrics == want.metrics
    with pytest.raises(KeyError, match="the CoNLL score"):
        corefscore.score(*doc, **options)["conll"]
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        corefscore.score(*doc, **options).nothing


def test_the_scorers_per_call_rows_keep_their_order_among_the_other_roads():
    one, two = [[(0, 1), (3, 4)]], [[(0, 1)], [(3, 4)]]
    scorer, want = corefscore.Scorer(), []
    for step in range(3):
        scorer.update(one, two)  # the per-call road
        scorer.update(two, one)
        scorer.update([[("a", 1), ("b", 2)]], [[("a", 1)]])  # the general road
        scorer.add_counts(corefscore.score(one, one).counts_matrix)
        assert scorer.n_documents == 4 * (step + 1)
        want += [(one, two), (two, one), ([[("a", 1), ("b", 2)]], [[("a", 1)]]), (one, one)]
    expected = np.concatenate([_general_scores(k, r).counts for k, r in want])
    got = scorer.compute()
    assert np.array_equal(got.counts_matrix, expected)
    assert got.doc_names == [str(i) for i in range(12)]
    scorer.update(one, two)
    assert scorer.n_documents == 13 and len(scorer.compute().doc_names) == 13
    assert np.array_equal(scorer.counts_matrix[-1], _general_scores(one, two).counts[0])


def test_per_call_states_of_ended_threads_are_bounded(monkeypatch):
    import threading

    monkeypatch.setattr(_lib, "PER_CALL_STATES", 4)
    # States made before the patch (threads of earlier tests, under the real bound) would count against 4;
    # and a new thread may reuse an ended thread's ident, and with it that thread's state.
    monkeypatch.setattr(_lib, "_per_call", {})
    one = [[(0, 1), (3, 4)]]
    want = corefscore.score(one, one).counts_matrix
    got = []
    for _ in range(10):  # one thread after another, each with its own state
        t = threading.Thread(target=lambda: got.append(corefscore.score(one, one).counts_matrix))
        t.start()
        t.join()
    assert len(_lib._per_call) <= 4 and len(got) == 10
    assert all(np.array_equal(g, want) for g in got)
    assert np.array_equal(corefscore.score(one, one).counts_matrix, want)  # this thread's state, made again
