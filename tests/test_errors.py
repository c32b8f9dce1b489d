"""Every error path of the public API: the exception type and a message naming what came."""

from __future__ import annotations

import warnings

import corefscore
import numpy as np
import pytest
from corefscore import ArraySide, CorefScoreInputError, DuplicateMentionWarning

KEY = [[(0, 1), (3, 3)], [(5, 6)]]


@pytest.mark.parametrize(
    ("key", "response", "exc", "match"),
    [
        (5, KEY, TypeError, r"`key` of document 0 must be a sequence of clusters.*got 5 \(int\)"),
        (KEY, "abc", TypeError, r"`response` of document 0 must be a sequence of clusters"),
        ([[(0, 1)], 7], KEY, TypeError, r"`key` of document 0 .*got cluster 1 = 7 \(int\)"),
        ([[(-1, 2)]], KEY, ValueError, r"`key` of document 0 must have spans .*got \(-1, 2\)"),
        ([[(4, 2)]], KEY, ValueError, r"0 <= start <= end < 2\*\*31; got \(4, 2\)"),
        ([[(0, 2**31)]], KEY, ValueError, r"< 2\*\*31; got \(0, 2147483648\)"),
        ([[(2**31, 2**31)]], KEY, ValueError, r"< 2\*\*31; got \(2147483648, 2147483648\)"),
        (
            [[(0.5, 2)]],
            KEY,
            TypeError,
            r"`key` of document 0, cluster 0, mention 0 must have integer span bounds; got 0.5",
        ),
        ([[(float("nan"), 2)]], KEY, ValueError, r"`key` of document 0, cluster 0, mention 0 must not be NaN"),
        ([[float("nan")]], [[1]], ValueError, r"`key` of document 0, cluster 0, mention 0 must not be NaN"),
        (
            [[{0, 1}]],
            KEY,
            TypeError,
            r"`key` of document 0, cluster 0, mention 0 must be hashable.*got \{0, 1\} \(set\)",
        ),
        ([[{"a": 1}]], [[1]], TypeError, r"mention 0 must be hashable"),
    ],
)
def test_bad_lists(key, response, exc, match):
    with pytest.raises(exc, match=match):
        corefscore.score(key, response)


SPANS = np.array([[0, 1], [3, 3], [5, 6]])
IDS = np.array([0, 0, 1])


@pytest.mark.parametrize(
    ("side", "exc", "match"),
    [
        (ArraySide(SPANS, IDS[:2]), ValueError, r"clusters must have one entry per mention \(3\); got 2"),
        (ArraySide(SPANS.astype(float), IDS), TypeError, r"mentions must be an integer array; got dtype float64"),
        (ArraySide(SPANS, IDS.astype(float)), TypeError, r"clusters must be an integer array; got dtype float64"),
        (ArraySide(np.array([[0.0, np.nan]]), [0]), TypeError, r"mentions must be an integer array; got dtype float64"),
        (ArraySide(SPANS.astype(str), IDS), TypeError, r"mentions must be an integer array; got dtype <U"),
        (ArraySide([[0, 1], [2]], [0, 0]), ValueError, r"mentions must be a rectangular integer array"),
        (
            ArraySide(np.zeros((3, 3), dtype=int), IDS),
            ValueError,
            r"must have shape \(n,\) or \(n, 2\); got \(3, 3\)",
        ),
        (ArraySide(np.zeros((3, 2, 1), dtype=int), IDS), ValueError, r"got \(3, 2, 1\)"),
        (ArraySide(SPANS, IDS.reshape(3, 1)), ValueError, r"clusters must have shape \(n,\); got \(3, 1\)"),
        (
            ArraySide(np.array([[0, 1], [-2, 3]]), [0, 1]),
            ValueError,
            r"`key` of document 0 mentions must be spans.*got \(-2, 3\) at row 1",
        ),
        (
            ArraySide(SPANS, np.array([0, -3, 1])),
            ValueError,
            r"document 0: key mention \(3, 3\): .*cluster id -3",
        ),
        (ArraySide(SPANS, IDS, types=[1, 2]), ValueError, r"types must have one entry per mention \(3\); got 2"),
        (
            ArraySide(SPANS, IDS, types=[1, 2, 7]),
            ValueError,
            r"document 0: key mention \(5, 6\): mention type 7 is not one of 0..3",
        ),
        (ArraySide.from_labels([0, -2, 1]), ValueError, r"labels must be cluster ids >= 0 or -1 \(absent\); got -2"),
        (ArraySide.from_labels([[0, 1]]), ValueError, r"labels must have shape \(n,\)"),
        (ArraySide.from_labels([0.0, 1.0]), TypeError, r"labels must be an integer array; got dtype float64"),
    ],
)
def test_bad_arrays(side, exc, match):
    good = ArraySide.from_labels([0, 0, 1]) if side.mentions is None else ArraySide(SPANS, IDS)
    with pytest.raises(exc, match=match):
        corefscore.score(side, good)


def test_bad_array_names_the_document_in_a_corpus():
    good = ArraySide(SPANS, IDS)
    bad = ArraySide(np.array([[0, 1], [-2, 3]]), [0, 1])
    with pytest.raises(
        ValueError, match=r"`response` of document 2 \('c'\) mentions must be spans.*\(-2, 3\) at row 1"
    ):
        corefscore.score_corpus({"a": good, "b": good, "c": good}, {"a": good, "b": good, "c": bad})
    with pytest.raises(ValueError, match=r"document 1: key mention \(5, 6\): .*cluster id -1"):
        corefscore.score_corpus([good, ArraySide(SPANS, [0, 1, -1])], [good, good])


def test_mixed_forms_in_one_document():
    with pytest.raises(TypeError, match=r"document 0: both sides must be ArraySide when one is"):
        corefscore.score(ArraySide(SPANS, IDS), KEY)
    with pytest.raises(ValueError, match=r"must give mentions like the key \(spans or ids\)"):
        corefscore.score(ArraySide(SPANS, IDS), ArraySide(np.array([1, 2, 3]), IDS))


def test_unknown_metric_lists_the_known_names():
    with pytest.raises(ValueError, match=r"`metrics`: unknown metric \"mcu\"; known metrics: mentions, muc, "):
        corefscore.score(KEY, KEY, metrics=["muc", "mcu"])
    with pytest.raises(TypeError, match=r"`metrics` must contain metric names \(str\); got \[3\]"):
        corefscore.score(KEY, KEY, metrics=[3])
    with pytest.raises(ValueError, match=r"`metrics`: .*at least one"):
        corefscore.score(KEY, KEY, metrics=[])


@pytest.mark.parametrize(
    ("option", "match"),
    [
        ({"singletons": "drop"}, r"`singletons`: must be keep or exclude; got \"drop\""),
        ({"duplicates": "first"}, r"`duplicates`: must be .*; got \"first\""),
        ({"blanc_rule": "both"}, r"`blanc_rule`: must be key or either; got \"both\""),
        ({"workers": 0}, r"`workers`: must be an integer from 1 to 4096.*; got \"0\""),
        ({"workers": 2**40}, r"`workers`: must be an integer from 1 to 4096.*; got \"1099511627776\""),
        ({"workers": 1.5}, r"`workers`: must be an integer; got \"1.5\""),
        ({"link_weights": (1, 2)}, r"`link_weights`: must be 4 comma-separated numbers"),
        ({"da_weights": (0.5, float("nan"), 0.5)}, r"`da_weights`: must be finite and >= 0; got nan"),
    ],
)
def test_bad_options(option, match):
    with pytest.raises(ValueError, match=match):
        corefscore.score(KEY, KEY, **option)


def test_corpus_pairing_errors():
    with pytest.raises(ValueError, match=r"`response_docs` must have one document per key document \(2\); got 1"):
        corefscore.score_corpus([KEY, KEY], [KEY])
    with pytest.raises(TypeError, match=r"must both be mappings .* got dict and list"):
        corefscore.score_corpus({"a": KEY}, [KEY])
    with pytest.raises(TypeError, match=r"`key_docs` must be a sequence of documents"):
        corefscore.score_corpus(ArraySide(SPANS, IDS), [KEY])
    with pytest.raises(ValueError, match=r"`names` must have one name per document \(1\); got 2"):
        corefscore.score_corpus([KEY], [KEY], names=["a", "b"])


def test_unpaired_documents_are_reported():
    r = corefscore.score_corpus({"a": KEY, "b": KEY}, {"a": KEY, "z": KEY})
    assert r.doc_names == ["a", "b"]
    assert '1 of 2 key documents is not in the response ("b"): scored against an empty response' in r.warnings
    assert '1 of 2 response documents is not in the key ("z"): ignored' in r.warnings
    b = r.per_document()[1]
    assert b["mentions"].recall == 0.0 and b.counts["mentions"]["recall_den"] == 3


REPEATED = [[(0, 1), (3, 3)], [(0, 1), (5, 6)]]  # (0, 1) in two clusters


def test_duplicate_mention_is_reported_and_warned():
    with pytest.warns(
        DuplicateMentionWarning, match=r"document 0: key mention \(0, 1\) is repeated \(clusters 0 and 1\)"
    ):
        r = corefscore.score(REPEATED, KEY)
    assert r.duplicates == [corefscore.Duplicate("0", "key", (0, 1), 0, 1)]
    assert r.warnings == [r.duplicates[0].message()]
    assert r.counts["mentions"]["recall_den"] == 3  # the repetition is not scored


def test_duplicate_mention_ignore_and_raise():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = corefscore.score(KEY, REPEATED, duplicates="ignore")
    assert r.duplicates[0].side == "response"
    with pytest.raises(
        CorefScoreInputError,
        match=r"document 0: response mention \(0, 1\): the mention occurs twice \(first in cluster 0, then in cluster",
    ):
        corefscore.score(KEY, REPEATED, duplicates="raise")
    with pytest.raises(ValueError, match=r"document 1 \('b'\): key mention 'x': the mention occurs twice"):
        corefscore.score_corpus({"a": [["x"]], "b": [["x", "x"]]}, {"a": [["x"]], "b": [["x"]]}, duplicates="raise")


def test_duplicate_in_arrays_names_the_callers_cluster_ids():
    side = ArraySide(np.array([[0, 1], [0, 1], [4, 4]]), np.array([7, 9, 9]))
    r = corefscore.score(side, side, duplicates="ignore")
    assert [(d.side, d.mention, d.first_cluster, d.cluster) for d in r.duplicates] == [
        ("key", (0, 1), 7, 9),
        ("response", (0, 1), 7, 9),
    ]


def test_unknown_metric_in_result_lookup():
    r = corefscore.score(KEY, KEY, metrics="muc")
    with pytest.raises(KeyError, match=r"`metric` must be one of the scored metrics \['muc'\]; got 'bcub'"):
        r["bcub"]


@pytest.mark.parametrize("empty", [[], {}, ()])
def test_score_corpus_refuses_an_empty_corpus(empty):
    with pytest.raises(ValueError, match="at least one document"):
        corefscore.score_corpus(empty, empty)
