"""Result: scores from counts, the --json schema, per-document rows, repr, HTML, pandas."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import corefscore
import numpy as np
import pytest
from corefscore import Result

KEY = [["a", "b", "c"], ["d", "e", "f", "g"]]
RESPONSE = [["a", "b"], ["c", "d"], ["f", "g", "h", "i"]]
FIELDS = {"recall", "precision", "f1", "recall_num", "recall_den", "precision_num", "precision_den"}


def test_to_dict_follows_the_json_schema():
    r = corefscore.score_corpus({"d1": KEY, "d2": KEY}, {"d1": RESPONSE, "d2": KEY})
    d = r.to_dict()
    assert set(d) == {"version", "key", "response", "metrics", "conll_f1", "warnings"}
    assert d["version"] == corefscore.__version__
    assert list(d["metrics"]) == list(r.metrics)
    for name, m in d["metrics"].items():
        if name == "blanc":
            assert set(m) == {"recall", "precision", "f1", "coref_links", "noncoref_links"}
            for half in ("coref_links", "noncoref_links"):
                assert set(m[half]) == FIELDS
        else:
            assert set(m) == FIELDS
            assert m["recall"] == pytest.approx(m["recall_num"] / m["recall_den"])
    assert d["metrics"]["muc"]["recall_num"] == 2 + 5 and isinstance(d["metrics"]["muc"]["recall_num"], int)
    assert d["conll_f1"] == pytest.approx(np.mean([d["metrics"][m]["f1"] for m in ("muc", "bcub", "ceafe")]))
    json.dumps(d)  # serialisable as is
    per = r.to_dict(per_doc=True)["documents"]
    assert [p["name"] for p in per] == ["d1", "d2"]
    assert per[1]["metrics"]["muc"]["f1"] == 1.0
    assert per[0]["metrics"]["muc"]["recall"] == pytest.approx(0.4)


def test_metric_score_attributes_are_python_floats():
    r = corefscore.score(KEY, RESPONSE)
    m = r["muc"]
    assert type(m.recall) is float and type(m.precision) is float and type(m.f1) is float
    assert m.recall_num == 2.0 and m.recall_den == 5.0
    assert type(r.conll_f1) is float
    assert r["blanc"].coref_links.recall == pytest.approx(2 / 9)
    with pytest.raises(AttributeError, match="metric 'muc' has no quantity 'nothing'"):
        m.nothing
    assert "muc" in r and "nothing" not in r and list(r) == list(r.metrics)


def test_conll_f1_is_none_without_its_three_metrics():
    assert corefscore.score(KEY, RESPONSE, metrics=["muc", "bcub"]).conll_f1 is None


def test_per_document_rows_add_up_to_the_corpus():
    keys = [KEY, KEY[:1], [["x", "y"]]]
    resps = [RESPONSE, RESPONSE[:2], [["x"], ["y"]]]
    r = corefscore.score_corpus(keys, resps)
    docs = r.per_document()
    assert [d.n_documents for d in docs] == [1, 1, 1]
    assert docs[2]["muc"].recall == 0.0
    np.testing.assert_allclose(sum(d.total_counts for d in docs), r.total_counts)
    assert r.counts["bcub"]["recall_den"] == 7 + 3 + 2


def test_repr_and_html():
    r = corefscore.score(KEY, RESPONSE)
    text = repr(r)
    assert text.splitlines()[0] == "Result(1 document)"
    assert "muc" in text and "40.00" in text and "conll" in text
    page = r._repr_html_()

    class Rows(HTMLParser):
        def __init__(self):
            super().__init__()
            self.rows, self.stack = 0, []

        def handle_starttag(self, tag, attrs):
            self.stack.append(tag)
            self.rows += tag == "tr" and "tbody" in self.stack

        def handle_endtag(self, tag):
            assert self.stack and self.stack[-1] == tag, f"unbalanced </{tag}>"
            self.stack.pop()

    parser = Rows()
    parser.feed(page)
    assert parser.stack == [] and parser.rows == len(r.metrics)


def test_to_pandas():
    pd = pytest.importorskip("pandas")
    r = corefscore.score_corpus([KEY, KEY], [RESPONSE, KEY])
    df = r.to_pandas()
    assert isinstance(df, pd.DataFrame) and list(df["metric"]) == list(r.metrics)
    assert df.set_index("metric").loc["muc", "recall"] == pytest.approx(r["muc"].recall)
    per = r.to_pandas(per_document=True)
    assert len(per) == 2 * len(r.metrics) and set(per["document"]) == {"0", "1"}


def test_result_from_counts_validates_shape():
    cols = corefscore.score(KEY, RESPONSE).columns
    with pytest.raises(ValueError, match=r"`counts_matrix` must have shape \(n_docs, \d+\); got \(2, 3\)"):
        Result(np.zeros((2, 3)), cols, ["a", "b"], ["muc"])
    with pytest.raises(ValueError, match=r"`doc_names` must have one name per row \(1\); got 2"):
        Result(np.zeros((1, len(cols))), cols, ["a", "b"], ["muc"])


def test_singletons_exclude_and_blanc_rule_options():
    key = [["a", "b"], ["c"]]
    resp = [["a", "b"], ["c"], ["d"]]
    keep = corefscore.score(key, resp)
    drop = corefscore.score(key, resp, singletons="exclude")
    assert keep["mentions"].precision == pytest.approx(3 / 4)
    assert drop["mentions"].precision == 1.0 and drop["mentions"].recall == 1.0
    # A key with coreference links only: the reference rule ("key") scores the
    # coreference half alone; "either" also scores the response's non-coreference links.
    key, resp = [["a", "b", "c"]], [["a", "b"], ["c"]]
    assert corefscore.score(key, resp, metrics="blanc")["blanc"].f1 == pytest.approx(0.5)
    assert corefscore.score(key, resp, metrics="blanc", blanc_rule="either")["blanc"].f1 == pytest.approx(0.25)


def test_statistics_of_a_result():
    from corefscore import stats
    from fixtures.synthetic import synthetic_corpus

    r = synthetic_corpus(20, 1000, 220, seed=4).score()
    micro = stats.corpus_scores(r.counts_matrix, r.columns, r.metrics)
    assert micro["muc"]["f1"] == pytest.approx(r["muc"].f1)
    macro = stats.corpus_scores(r.counts_matrix, r.columns, r.metrics, average="macro")
    assert macro["muc"]["f1"] == pytest.approx(np.mean([d["muc"].f1 for d in r.per_document()]))
    iv = corefscore.bootstrap(r, n=100, seed=3)
    again = stats.bootstrap(r, n=100, seed=3)
    assert iv["muc"]["f1"] == again["muc"]["f1"]  # seeded: the same draws
    assert iv["muc"]["f1"].low <= r["muc"].f1 <= iv["muc"]["f1"].high
    assert "bootstrap" in iv._repr_html_()


def test_plots_of_a_result(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from corefscore import plotting

    r = corefscore.score_corpus([KEY, KEY], [RESPONSE, KEY])
    ax = plotting.plot_scores(r)
    assert len(ax.patches) == len(r.metrics) + 1  # one F1 bar per metric, and the CoNLL average
    path = tmp_path / "scores.png"
    ax.figure.savefig(path)
    assert path.stat().st_size > 0
    assert plotting.plot_distribution(r, metric="muc") is not None


def test_the_conll_score_is_an_attribute_and_the_key_error_says_so():
    r = corefscore.score([[1, 2, 3]], [[1, 2], [3]])
    for name in ("conll", "conll_f1"):
        with pytest.raises(KeyError, match=r"result\.conll_f1"):
            r[name]
    assert r.conll_f1 == pytest.approx((r["muc"].f1 + r["bcub"].f1 + r["ceafe"].f1) / 3)
