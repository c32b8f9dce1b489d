"""Tests of corefscore.stats: intervals, paired tests and averages.

Counts come from the real engine (the built shared library) scoring the
seeded synthetic corpora of ``test_stats_synth.py``. Vectorised results are
checked against plain loops written here with the same random draws.
"""

from __future__ import annotations

import html.parser
import json

import corefscore
import numpy as np
import pytest
from corefscore import _arith, _resample, stats
from test_stats_synth import (
    CLASSIC,
    Doc,
    columns,
    corpus,
    draw_errors,
    engine_counts,
    fixed,
    response,
    score,
)

MUC4 = ["muc.recall_num", "muc.recall_den", "muc.precision_num", "muc.precision_den"]


@pytest.fixture(scope="module")
def cols() -> list[str]:
    return columns()


@pytest.fixture(scope="module")
def pair(cols):
    """System A and a system B that fixes about a tenth of A's errors, 300 documents (seed 11)."""
    docs = corpus(11, 300)
    keys = [d.key for d in docs]
    a = engine_counts(keys, [response(d) for d in docs])
    b = engine_counts(keys, [fixed(d, 0.1) for d in docs])
    return a, b


@pytest.fixture(scope="module")
def population(cols):
    """3,000 documents of one system (seed 2024)."""
    docs = corpus(2024, 3000)
    return engine_counts([d.key for d in docs], [response(d) for d in docs])


@pytest.fixture(scope="module")
def small(cols):
    """40 documents of one system (seed 7)."""
    docs = corpus(7, 40)
    return engine_counts([d.key for d in docs], [response(d) for d in docs])


# ----------------------------------------------------------------------------
# Plain loop implementations (one resample at a time, no shared helpers)
# ----------------------------------------------------------------------------


def loop_micro(rows: np.ndarray, cols, metrics) -> dict[str, dict[str, float]]:
    """Micro scores of a list of counts rows, summed by a Python loop."""
    total = np.zeros(len(cols))
    for row in rows:
        total = total + row
    s = _arith.metric_scores(total, cols, metrics)
    out = {m: {q: float(s[m][q]) for q in ("recall", "precision", "f1")} for m in metrics}
    if all(m in metrics for m in ("muc", "bcub", "ceafe")):
        out["conll"] = {"f1": (out["muc"]["f1"] + out["bcub"]["f1"] + out["ceafe"]["f1"]) / 3}
    return out


def doc_scores(counts: np.ndarray, cols, metrics) -> list[dict]:
    """Per-document scores, one document at a time; None where a metric is undefined."""
    lay = _arith.layout(cols)
    out = []
    for row in counts:
        d = {}
        for m in metrics:
            dens = [i for s, i in lay[m].items() if s.endswith("_den")]
            if any(row[i] != 0 for i in dens):
                s = _arith.metric_scores(row, cols, [m])[m]
                d[m] = {q: float(s[q]) for q in ("recall", "precision", "f1")}
            else:
                d[m] = None
        out.append(d)
    return out


def loop_macro(docs: list[dict], cols, metrics) -> dict[str, dict[str, float]]:
    """Macro scores: mean over the documents where the metric is defined."""
    out = {}
    for m in metrics:
        acc = {"recall": [], "precision": [], "f1": []}
        for d in docs:
            if d[m] is None:
                continue
            for q in acc:
                acc[q].append(d[m][q])
        out[m] = {q: (sum(v) / len(v) if v else 0.0) for q, v in acc.items()}
    if all(m in metrics for m in ("muc", "bcub", "ceafe")):
        out["conll"] = {"f1": (out["muc"]["f1"] + out["bcub"]["f1"] + out["ceafe"]["f1"]) / 3}
    return out


def items(counts: np.ndarray, cols, average: str) -> list:
    """What the loops average over: counts rows (micro) or per-document scores (macro)."""
    return list(counts) if average == "micro" else doc_scores(counts, cols, CLASSIC)


LOOPS = {"micro": loop_micro, "macro": loop_macro}


# ----------------------------------------------------------------------------
# Bootstrap intervals
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("average", ["micro", "macro"])
def test_bootstrap_equals_plain_loop_with_same_draws(small, cols, average):
    n, seed, conf = 300, 12345, 0.9
    iv = stats.bootstrap_counts(small, cols, CLASSIC, n=n, seed=seed, confidence=conf, average=average)
    indices = stats.draw_resamples(np.random.default_rng(seed), n, small.shape[0])
    its = items(small, cols, average)
    samples: dict = {}
    for r in range(n):
        sc = LOOPS[average]([its[d] for d in indices[r]], cols, CLASSIC)
        for m, row in sc.items():
            for q, v in row.items():
                samples.setdefault((m, q), []).append(v)
    point = LOOPS[average](its, cols, CLASSIC)
    assert set(iv.metrics) == set(CLASSIC) | {"conll"}
    for (m, q), values in samples.items():
        lo, hi = np.percentile(values, [5, 95])
        got = iv[m][q]
        assert got.low == pytest.approx(lo, abs=1e-12), (m, q)
        assert got.high == pytest.approx(hi, abs=1e-12), (m, q)
        assert got.estimate == pytest.approx(point[m][q], abs=1e-12), (m, q)


def test_bootstrap_is_reproducible_and_depends_on_seed(small, cols):
    a = stats.bootstrap_counts(small, cols, CLASSIC, n=200, seed=3)
    b = stats.bootstrap_counts(small, cols, CLASSIC, n=200, seed=3)
    c = stats.bootstrap_counts(small, cols, CLASSIC, n=200, seed=4)
    assert a.to_dict() == b.to_dict()
    assert a.to_dict()["metrics"] != c.to_dict()["metrics"]
    json.dumps(a.to_dict())  # plain Python values only
    assert stats.bootstrap_counts(small, cols, ["muc"], n=20, seed=np.int64(3)).to_dict()["seed"] == 3


def test_intervals_contain_estimate_and_widen_with_confidence(small, cols):
    narrow = stats.bootstrap_counts(small, cols, CLASSIC, n=500, seed=1, confidence=0.5)
    wide = stats.bootstrap_counts(small, cols, CLASSIC, n=500, seed=1, confidence=0.99)
    for m in narrow:
        for q, iv in narrow[m].items():
            assert iv.low <= iv.high
            assert wide[m][q].low <= iv.low and iv.high <= wide[m][q].high
            assert wide[m][q].low <= iv.estimate <= wide[m][q].high


def test_bootstrap_of_one_document_is_a_point(cols):
    docs = corpus(2, 1)
    one = engine_counts([d.key for d in docs], [response(d) for d in docs])
    iv = stats.bootstrap_counts(one, cols, CLASSIC, n=50, seed=0)
    for m in iv:
        for q, x in iv[m].items():
            assert x.low == x.high == pytest.approx(x.estimate), (m, q)


def test_blocked_arithmetic_equals_one_block(small, cols, monkeypatch):
    whole = stats.bootstrap_counts(small, cols, CLASSIC, n=300, seed=9).to_dict()
    monkeypatch.setattr(_resample, "_BLOCK_CELLS", 7 * small.shape[0])  # blocks of 7 resamples
    blocked = stats.bootstrap_counts(small, cols, CLASSIC, n=300, seed=9).to_dict()
    for m, row in whole["metrics"].items():
        for q, d in row.items():
            for k, v in d.items():
                assert blocked["metrics"][m][q][k] == pytest.approx(v, abs=1e-12)


@pytest.mark.parametrize("average", ["micro", "macro"])
def test_intervals_cover_population_value(cols, population, average):
    """Coverage of 95% intervals, 200 seeded repetitions (deterministic).

    Population: 3,000 documents of one system (generator seed 2024). Its
    value is the population's own corpus score (micro: scores of the summed
    counts of all 3,000 documents; macro: mean of their per-document
    scores). Repetition r draws a corpus of 300 documents from the population
    with replacement (rng seed r) and computes 95% intervals from 1,000
    resamples (seed r). Every metric and quantity must be covered at least
    90% of the time.
    """
    pop = population
    truth = stats.corpus_scores(pop, cols, CLASSIC, average=average)
    hits: dict = {}
    reps = 200
    for r in range(reps):
        sample = pop[np.random.default_rng(r).integers(0, pop.shape[0], size=300)]
        iv = stats.bootstrap_counts(sample, cols, CLASSIC, n=1000, seed=r, average=average)
        for m in iv:
            for q, x in iv[m].items():
                hits[(m, q)] = hits.get((m, q), 0) + (truth[m][q] in x)
    rates = {k: v / reps for k, v in hits.items()}
    assert len(rates) == len(CLASSIC) * 3 + 1
    assert min(rates.values()) >= 0.90, sorted(rates.items(), key=lambda kv: kv[1])[:3]
    # Not trivially wide either: the mean rate is near the nominal 95%.
    assert 0.92 <= np.mean(list(rates.values())) <= 0.98


# ----------------------------------------------------------------------------
# Paired comparison
# ----------------------------------------------------------------------------


def pick(scores, m, quantity="f1"):
    return scores[m]["f1" if m == "conll" else quantity]


@pytest.mark.parametrize("average", ["micro", "macro"])
@pytest.mark.parametrize("quantity", ["f1", "recall"])
def test_permutation_equals_plain_loop_with_same_draws(small, cols, average, quantity):
    a = small
    docs = corpus(7, 40)  # the same keys as `small`, another system
    rng_sys = np.random.default_rng(99)
    b = engine_counts([d.key for d in docs], [response(Doc(d.key, draw_errors(rng_sys, d.key))) for d in docs])
    n, seed, conf = 200, 5, 0.9
    got = stats.compare_counts(a, b, cols, CLASSIC, n=n, seed=seed, confidence=conf, average=average, quantity=quantity)
    loop = LOOPS[average]
    rng = np.random.default_rng(seed)
    swaps = stats.draw_swaps(rng, n, a.shape[0])
    indices = stats.draw_resamples(rng, n, a.shape[0])
    ia, ib = items(a, cols, average), items(b, cols, average)
    sa, sb = loop(ia, cols, CLASSIC), loop(ib, cols, CLASSIC)
    perm, boot = [], []
    for r in range(n):
        xa = [ib[d] if swaps[r, d] else ia[d] for d in range(a.shape[0])]
        xb = [ia[d] if swaps[r, d] else ib[d] for d in range(a.shape[0])]
        perm.append((loop(xa, cols, CLASSIC), loop(xb, cols, CLASSIC)))
        ya = [ia[d] for d in indices[r]]
        yb = [ib[d] for d in indices[r]]
        boot.append((loop(ya, cols, CLASSIC), loop(yb, cols, CLASSIC)))
    for m in got:
        observed = pick(sb, m, quantity) - pick(sa, m, quantity)
        extreme = sum(abs(pick(pb, m, quantity) - pick(pa, m, quantity)) >= abs(observed) - 1e-12 for pa, pb in perm)
        diffs = [pick(pb, m, quantity) - pick(pa, m, quantity) for pa, pb in boot]
        lo, hi = np.percentile(diffs, [5, 95])
        c = got[m]
        assert c.score_a == pytest.approx(pick(sa, m, quantity), abs=1e-12)
        assert c.score_b == pytest.approx(pick(sb, m, quantity), abs=1e-12)
        assert c.difference == pytest.approx(observed, abs=1e-12)
        assert c.p_value == (1 + extreme) / (n + 1), m
        assert c.low == pytest.approx(lo, abs=1e-12)
        assert c.high == pytest.approx(hi, abs=1e-12)


def test_paired_bootstrap_equals_plain_loop_with_same_draws(small, cols):
    a, b = small, small[::-1].copy()  # a different system on "the same" documents
    n, seed = 250, 8
    got = stats.compare_counts(a, b, cols, CLASSIC, method="bootstrap", n=n, seed=seed)
    indices = stats.draw_resamples(np.random.default_rng(seed), n, a.shape[0])
    sa, sb = loop_micro(list(a), cols, CLASSIC), loop_micro(list(b), cols, CLASSIC)
    boot = [
        (
            loop_micro([a[d] for d in indices[r]], cols, CLASSIC),
            loop_micro([b[d] for d in indices[r]], cols, CLASSIC),
        )
        for r in range(n)
    ]
    for m in got:
        observed = pick(sb, m) - pick(sa, m)
        diffs = [pick(pb, m) - pick(pa, m) for pa, pb in boot]
        extreme = sum(abs(x - observed) >= abs(observed) - 1e-12 for x in diffs)
        lo, hi = np.percentile(diffs, [2.5, 97.5])
        assert got[m].p_value == (1 + extreme) / (n + 1), m
        assert got[m].low == pytest.approx(lo, abs=1e-12)
        assert got[m].high == pytest.approx(hi, abs=1e-12)


@pytest.mark.parametrize("method", ["permutation", "bootstrap"])
@pytest.mark.parametrize("average", ["micro", "macro"])
def test_system_against_itself(pair, cols, method, average):
    a, _ = pair
    c = stats.compare_counts(a, a.copy(), cols, CLASSIC, method=method, n=500, seed=0, average=average)
    assert c.metrics == [*CLASSIC, "conll"]
    for m in c:
        assert c[m].difference == 0.0
        assert c[m].p_value == 1.0
        assert c[m].low == 0.0 and c[m].high == 0.0
        assert c[m].score_a == c[m].score_b


@pytest.mark.parametrize("method", ["permutation", "bootstrap"])
@pytest.mark.parametrize("average", ["micro", "macro"])
def test_fixing_errors_is_significant(pair, cols, method, average):
    """B fixes about a tenth of A's errors in every one of 300 documents."""
    a, b = pair
    c = stats.compare_counts(a, b, cols, CLASSIC, method=method, n=2000, seed=1, average=average)
    for m in c:
        assert c[m].difference > 0, m
        assert c[m].p_value < 0.01, m
        assert 0 < c[m].low <= c[m].difference <= c[m].high, m
    # Swapping the roles flips the sign and keeps the p-value.
    r = stats.compare_counts(b, a, cols, CLASSIC, method=method, n=2000, seed=1, average=average)
    for m in c:
        assert r[m].difference == pytest.approx(-c[m].difference, abs=1e-12)
        assert r[m].p_value < 0.01


def test_noise_only_is_not_significant(cols):
    """A and B make independent errors at the same rates on the same 300 keys.

    Seeds: keys and A's errors from generator seed 11, B's errors from
    ``default_rng(0)``, test seed 0. With these seeds every p-value is above
    0.1 (the null is true, so p is uniform; another seed may give a small p
    for some metric by chance).
    """
    docs = corpus(11, 300)
    keys = [d.key for d in docs]
    a = engine_counts(keys, [response(d) for d in docs])
    rng = np.random.default_rng(0)
    b = engine_counts(keys, [response(Doc(d.key, draw_errors(rng, d.key))) for d in docs])
    for method in ("permutation", "bootstrap"):
        c = stats.compare_counts(a, b, cols, CLASSIC, method=method, n=2000, seed=0)
        for m in c:
            assert c[m].p_value > 0.1, (method, m, c[m])
            assert c[m].low < 0 < c[m].high, (method, m)


def test_permutation_p_values_are_calibrated_under_the_null(cols):
    """Under exchangeable systems P(p <= 0.1) should be about 0.1.

    40 seeded null pairs of 60 documents: both systems' rows are drawn from
    the same pool of engine counts, so every document's pair is exchangeable.
    """
    docs = corpus(31, 400)
    pool = engine_counts([d.key for d in docs], [response(d) for d in docs])
    small_p = 0
    trials = 40
    for t in range(trials):
        rng = np.random.default_rng(1000 + t)
        a = pool[rng.integers(0, 400, size=60)]
        b = pool[rng.integers(0, 400, size=60)]
        c = stats.compare_counts(a, b, cols, ["muc", "bcub", "ceafe"], n=500, seed=t)
        small_p += c["conll"].p_value <= 0.1
    # Binomial(40, 0.1): mean 4; 12 or more has probability below 1e-3.
    assert small_p < 12


def test_comparison_is_reproducible(pair, cols):
    a, b = pair
    x = stats.compare_counts(a, b, cols, CLASSIC, n=300, seed=42).to_dict()
    y = stats.compare_counts(a, b, cols, CLASSIC, n=300, seed=42).to_dict()
    assert x == y
    json.dumps(x)


def test_document_names_must_pair(small, cols):
    names = [f"doc{i}" for i in range(small.shape[0])]
    other = list(names)
    other[5], other[6] = names[6], names[5]
    with pytest.raises(ValueError, match=r"document 5 is 'doc5' for system A but 'doc6'"):
        stats.compare_counts(small, small, cols, CLASSIC, n=10, doc_names_a=names, doc_names_b=other)
    with pytest.raises(ValueError, match=r"one name per counts row \(40\); got 39"):
        stats.compare_counts(small, small, cols, CLASSIC, n=10, doc_names_a=names[:-1])
    c = stats.compare_counts(small, small, cols, CLASSIC, n=10, doc_names_a=names, doc_names_b=list(names))
    assert c["muc"].p_value == 1.0


def test_shape_mismatch(small, cols):
    with pytest.raises(ValueError, match="must score the same documents"):
        stats.compare_counts(small, small[:-1], cols, CLASSIC)
    with pytest.raises(ValueError, match=rf"shape \(n_docs, {len(cols)}\)"):
        stats.compare_counts(small[:, :-1], small[:, :-1], cols, CLASSIC)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"method": "sign"}, r"`method` must be one of \('permutation', 'bootstrap'\); got 'sign'"),
        ({"n": 0}, "`n` must be a positive integer; got 0"),
        ({"n": 2.5}, "`n` must be a positive integer; got 2.5"),
        ({"confidence": 1.0}, r"`confidence` must be a number in \(0, 1\); got 1.0"),
        ({"average": "weighted"}, "`average` must be one of"),
        ({"quantity": "accuracy"}, "`quantity` must be one of"),
        ({"empty": "drop"}, "`empty` must be one of"),
        ({"blanc_rule": "any"}, "`blanc_rule` must be one of"),
    ],
)
def test_bad_options(small, cols, kwargs, match):
    with pytest.raises(ValueError, match=match):
        stats.compare_counts(small, small, cols, CLASSIC, **kwargs)


def test_bad_inputs(small, cols):
    with pytest.raises(ValueError, match=r"`metrics` must be metric names among .*; got 'bleu'"):
        stats.bootstrap_counts(small, cols, ["muc", "bleu"])
    with pytest.raises(ValueError, match="got 'conll'"):
        stats.bootstrap_counts(small, cols, ["conll"])
    bad = small.copy()
    bad[3, 4] = np.nan
    with pytest.raises(ValueError, match="must be finite; got NaN or infinity in row 3"):
        stats.bootstrap_counts(bad, cols, CLASSIC)
    with pytest.raises(TypeError, match="must be a numeric array; got dtype <U1"):
        stats.bootstrap_counts([["a"] * len(cols)], cols, CLASSIC)
    with pytest.raises(ValueError, match="at least one document; got 0 rows"):
        stats.bootstrap_counts(np.zeros((0, len(cols))), cols, CLASSIC)
    with pytest.raises(TypeError, match="must be a corefscore Result"):
        stats.bootstrap(small)


# ----------------------------------------------------------------------------
# Averages
# ----------------------------------------------------------------------------


def test_macro_rules_on_hand_counts():
    # Document 1: recall 1/2, precision 1/1. Document 2: no key link, no
    # response link (all denominators 0). Document 3: recall 0/3, precision 0/0.
    m = [[1, 2, 1, 1], [0, 0, 0, 0], [0, 3, 0, 0]]
    ex = stats.macro_scores(m, MUC4, ["muc"])["muc"]
    assert ex["recall"] == pytest.approx((0.5 + 0.0) / 2)
    assert ex["precision"] == pytest.approx((1.0 + 0.0) / 2)
    assert ex["f1"] == pytest.approx((2 / 3 + 0.0) / 2)
    zero = stats.macro_scores(m, MUC4, ["muc"], empty="zero")["muc"]
    assert zero["recall"] == pytest.approx(0.5 / 3)
    micro = stats.corpus_scores(m, MUC4, ["muc"])["muc"]
    assert micro["recall"] == pytest.approx(1 / 5)
    assert micro["precision"] == pytest.approx(1.0)
    # Nothing to average: 0, like the reference scorer's empty corpus.
    assert stats.macro_scores([[0, 0, 0, 0]], MUC4, ["muc"])["muc"]["f1"] == 0.0


def test_macro_equals_mean_of_single_document_scores(small, cols):
    got = stats.macro_scores(small, cols, CLASSIC)
    want = loop_macro(doc_scores(small, cols, CLASSIC), cols, CLASSIC)
    for m in want:
        for q, v in want[m].items():
            assert got[m][q] == pytest.approx(v, abs=1e-12), (m, q)
    micro = stats.corpus_scores(small, cols, CLASSIC)
    want_micro = loop_micro(list(small), cols, CLASSIC)
    assert micro.keys() == want_micro.keys()
    for m in want_micro:
        assert micro[m] == pytest.approx(want_micro[m], abs=1e-12), m
    assert micro["muc"]["f1"] != pytest.approx(got["muc"]["f1"])


def test_per_document_scores_and_frame(small, cols):
    per = stats.per_document_scores(small, cols, CLASSIC)
    for d in range(small.shape[0]):
        one = stats.corpus_scores(small[d : d + 1], cols, CLASSIC)
        for m in one:
            for q, v in one[m].items():
                assert per[m][q][d] == pytest.approx(v, abs=1e-15)
    pytest.importorskip("pandas", reason="DataFrames need the notebook extra (pandas)")
    names = [f"d{i}" for i in range(small.shape[0])]
    frame = stats.per_document_frame(small, cols, CLASSIC, names)
    assert len(frame) == small.shape[0] * len(CLASSIC)
    row = frame[(frame.document == "d3") & (frame.metric == "lea")].iloc[0]
    assert row.f1 == pytest.approx(per["lea"]["f1"][3])


# ----------------------------------------------------------------------------
# Views: repr, HTML, pandas
# ----------------------------------------------------------------------------


class _Rows(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.body_rows = 0
        self.head_rows = 0
        self.cells: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            if "tbody" in self.stack:
                self.body_rows += 1
            if "thead" in self.stack:
                self.head_rows += 1
        self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1:]}>"
        self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "th" and "tbody" in self.stack:
            self.cells.append(data)


def _parse(text: str) -> _Rows:
    p = _Rows()
    p.feed(text)
    p.close()
    assert p.stack == []
    return p


def test_html_views_have_one_row_per_metric(pair, cols):
    a, b = pair
    metrics = ["muc", "bcub", "ceafe", "blanc"]
    c = stats.compare_counts(a, b, cols, metrics, n=100, seed=0)
    p = _parse(c._repr_html_())
    assert p.head_rows == 1 and p.body_rows == len(metrics) + 1
    assert p.cells == [*metrics, "conll"]
    iv = stats.bootstrap_counts(a, cols, ["lea", "muc"], n=100, seed=0)
    p = _parse(iv._repr_html_())
    assert p.body_rows == 2 and p.cells == ["lea", "muc"]


def test_text_and_pandas_views(pair, cols):
    a, b = pair
    c = stats.compare_counts(a, b, cols, CLASSIC, n=100, seed=0)
    text = repr(c)
    assert "approximate randomisation, 100 rounds" in text
    assert len(text.splitlines()) == 2 + len(CLASSIC) + 1
    pytest.importorskip("pandas", reason="DataFrames need the notebook extra (pandas)")
    frame = c.to_pandas()
    assert list(frame["metric"]) == [*CLASSIC, "conll"]
    assert frame.set_index("metric").loc["muc", "p_value"] == c["muc"].p_value
    iv = stats.bootstrap_counts(a, cols, CLASSIC, n=100, seed=0)
    assert "100 resamples of 300 documents" in repr(iv)
    f = iv.to_pandas().set_index("metric")
    assert f.loc["bcub", "f1_low"] == iv["bcub"]["f1"].low
    assert np.isnan(f.loc["conll", "recall"])


def test_to_pandas_shapes_agree(pair, cols):
    """Result, Intervals and Comparison: one row per metric, a `metric` column, a RangeIndex."""
    pd = pytest.importorskip("pandas", reason="DataFrames need the notebook extra (pandas)")
    a, b = pair
    result = corefscore.Result.from_counts(a, cols, CLASSIC)
    frames = [result.to_pandas(), stats.bootstrap(result, n=50, seed=0).to_pandas(),
              stats.compare_counts(a, b, cols, CLASSIC, n=50, seed=0).to_pandas()]
    for frame in frames:
        assert isinstance(frame.index, pd.RangeIndex)
        assert list(frame["metric"][:len(CLASSIC)]) == list(CLASSIC)


def test_conll_f1_as_a_metric_key_is_deprecated(pair, cols):
    a, b = pair
    iv = stats.bootstrap_counts(a, cols, CLASSIC, n=50, seed=0)
    c = stats.compare_counts(a, b, cols, CLASSIC, n=50, seed=0)
    for table in (iv, c):
        with pytest.warns(DeprecationWarning, match="'conll'"):
            assert table["conll_f1"] == table["conll"]
        with pytest.warns(DeprecationWarning):
            assert "conll_f1" in table


def test_result_like_objects(pair, cols):
    from types import SimpleNamespace

    a, b = pair
    names = [f"d{i}" for i in range(a.shape[0])]
    ra = SimpleNamespace(counts_matrix=a, columns=cols, metrics=["muc", "lea"], doc_names=names)
    rb = SimpleNamespace(counts_matrix=b, columns=cols, metrics=["lea"], doc_names=names)
    c = stats.compare_results(ra, rb, n=100, seed=0)
    assert c.metrics == ["lea"]
    iv = stats.bootstrap(ra, n=100, seed=0)
    assert iv.to_dict() == stats.bootstrap_counts(a, cols, ["muc", "lea"], n=100, seed=0).to_dict()
    rb.doc_names = names[::-1]
    with pytest.raises(ValueError, match="document 0 is 'd0' for system A but 'd299'"):
        stats.compare_results(ra, rb, n=10)


# ----------------------------------------------------------------------------
# Through the public API
# ----------------------------------------------------------------------------


def test_compare_scores_both_systems_through_score_corpus(cols):
    docs = corpus(17, 80)
    names = [f"doc{i}" for i in range(len(docs))]
    key = {n: d.key for n, d in zip(names, docs)}
    sys_a = {n: response(d) for n, d in zip(names, docs)}
    sys_b = {n: fixed(d, 0.5) for n, d in zip(names[::-1], docs[::-1])}  # another order: pairs by name
    got = stats.compare(key, sys_a, sys_b, n=500, seed=4, metrics=["muc", "bcub", "ceafe", "lea"])
    a = engine_counts([d.key for d in docs], [response(d) for d in docs])
    b = engine_counts([d.key for d in docs], [fixed(d, 0.5) for d in docs])
    want = stats.compare_counts(a, b, cols, ["muc", "bcub", "ceafe", "lea"], n=500, seed=4)
    assert got.to_dict() == want.to_dict()
    assert got["conll"].difference > 0


def test_bootstrap_and_compare_of_results(cols):
    docs = corpus(18, 50)
    keys = [d.key for d in docs]
    ra = score(keys, [response(d) for d in docs], names=[f"a{i}" for i in range(50)])
    rb = score(keys, [fixed(d, 0.5) for d in docs], names=[f"a{i}" for i in range(50)])
    iv = stats.bootstrap(ra, n=200, seed=1)
    assert iv.metrics == [*CLASSIC, "conll"]
    assert iv["muc"]["f1"].estimate == pytest.approx(ra["muc"].f1, abs=1e-12)
    assert iv["conll"]["f1"].estimate == pytest.approx(ra.conll_f1, abs=1e-12)
    c = stats.compare_results(ra, rb, method="bootstrap", n=200, seed=1)
    assert c["lea"].score_a == pytest.approx(ra["lea"].f1, abs=1e-12)
    assert c["lea"].score_b == pytest.approx(rb["lea"].f1, abs=1e-12)
    other = score(keys, [fixed(d, 0.5) for d in docs], names=[f"b{i}" for i in range(50)])
    with pytest.raises(ValueError, match="document 0 is 'a0' for system A but 'b0' for system B"):
        stats.compare_results(ra, other, n=10)


def test_compare_files_pairs_by_document_name(tmp_path):
    from pathlib import Path


    examples = Path(__file__).resolve().parent.parent / "examples"
    key, resp = examples / "key.conll", examples / "response.conll"
    c = stats.compare_files(key, resp, key, n=200, seed=0)
    assert all(c[m].difference >= 0 for m in c)
    same = stats.compare_files(key, resp, resp, n=200, seed=0)
    assert all(same[m].p_value == 1.0 and same[m].difference == 0.0 for m in same)


def test_blanc_rule_reaches_the_arithmetic(cols):
    # A response that links mentions where the key has no coreference links:
    # the two BLANC rules differ on such a corpus.
    keys = [[[0], [1], [2]], [[0, 1], [2]]]
    responses = [[[0, 1], [2]], [[0, 1], [2]]]
    counts = engine_counts(keys, responses)
    for rule in ("key", "either"):
        want = _arith.metric_scores(counts.sum(axis=0), cols, ["blanc"], blanc_rule=rule)["blanc"]
        got = stats.corpus_scores(counts[:1], cols, ["blanc"], blanc_rule=rule)["blanc"]
        one = _arith.metric_scores(counts[0], cols, ["blanc"], blanc_rule=rule)["blanc"]
        assert got["f1"] == pytest.approx(float(one["f1"]))
        iv = stats.bootstrap_counts(counts, cols, ["blanc"], n=50, seed=0, blanc_rule=rule)
        assert iv["blanc"]["f1"].estimate == pytest.approx(float(want["f1"]))
    key_rule = stats.corpus_scores(counts[:1], cols, ["blanc"], blanc_rule="key")["blanc"]["f1"]
    either = stats.corpus_scores(counts[:1], cols, ["blanc"], blanc_rule="either")["blanc"]["f1"]
    assert key_rule != either
