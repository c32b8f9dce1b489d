"""Statistics, part 4 of 4 (see :mod:`corefscore.stats`): paired comparison of two systems (B - A, interval, p)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._api import score_corpus, score_files
from ._resample import (
    _TOL,
    CONLL,
    METHODS,
    QUANTITIES,
    _check_choice,
    _check_confidence,
    _check_counts,
    _check_metrics,
    _check_n,
    _check_names,
    _metric_key,
    _quantiles,
    _resample_sums,
    _result_parts,
    _Statistic,
    _swapped_shift,
    draw_resamples,
    draw_swaps,
)
from ._tables import _pandas, _plain_seed

# ----------------------------------------------------------------------------
# Paired comparison
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class MetricComparison:
    """The paired comparison of two systems on one metric.

    Attributes
    ----------
    score_a, score_b : float
        The chosen quantity (F1 by default) of system A and of system B.
    difference : float
        ``score_b - score_a``.
    low, high : float
        Paired bootstrap confidence interval of the difference.
    p_value : float
        Two-sided p-value of "no difference" (see :func:`compare_counts`).
    """

    score_a: float
    score_b: float
    difference: float
    low: float
    high: float
    p_value: float


class Comparison:
    """Paired comparison of two systems, metric by metric.

    Returned by :func:`compare_counts` and :func:`compare`; index it by metric
    name (``comparison["muc"].p_value``).

    Attributes
    ----------
    table : dict
        ``{metric: MetricComparison}``; ``"conll"`` last when present.
    method : str
        ``"permutation"`` or ``"bootstrap"``.
    quantity : str
        The compared quantity (``"f1"``, ``"recall"`` or ``"precision"``).
    n, seed, confidence, average, n_docs
        The settings of the test.
    """

    def __init__(
        self,
        table: dict[str, MetricComparison],
        *,
        method: str,
        quantity: str,
        n: int,
        seed: Any,
        confidence: float,
        average: str,
        n_docs: int,
    ) -> None:
        self.table = table
        self.method = method
        self.quantity = quantity
        self.n = n
        self.seed = seed
        self.confidence = confidence
        self.average = average
        self.n_docs = n_docs

    @property
    def metrics(self) -> list[str]:
        """Metric names, in order."""
        return list(self.table)

    def __getitem__(self, metric: str) -> MetricComparison:
        try:
            return self.table[_metric_key(metric)]
        except KeyError:
            raise KeyError(f"no comparison for metric {metric!r}; have {self.metrics}") from None

    def __contains__(self, metric: object) -> bool:
        return _metric_key(metric) in self.table

    def __iter__(self):
        return iter(self.table)

    def __len__(self) -> int:
        return len(self.table)

    def _title(self) -> str:
        how = (
            f"approximate randomisation, {self.n} rounds"
            if self.method == "permutation"
            else f"paired bootstrap, {self.n} resamples"
        )
        return (
            f"B - A on {self.quantity}, {how}, {self.n_docs} documents, {self.average} average, "
            f"{100 * self.confidence:g}% CI, seed {self.seed}"
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python view: settings plus ``{"metrics": {m: {score_a, ..., p_value}}}``."""
        return {
            "method": self.method,
            "quantity": self.quantity,
            "n": self.n,
            "seed": _plain_seed(self.seed),
            "confidence": self.confidence,
            "average": self.average,
            "n_docs": self.n_docs,
            "metrics": {m: dict(vars(c)) for m, c in self.table.items()},
        }

    def to_pandas(self) -> Any:
        """One row per metric: columns ``metric``, ``score_a``, ``score_b``, ``difference``, ``low``, ``high``,
        ``p_value`` (the shape of :meth:`Intervals.to_pandas`)."""
        pd = _pandas()
        return pd.DataFrame([{"metric": m, **vars(c)} for m, c in self.table.items()])

    def __repr__(self) -> str:
        ci = f"{100 * self.confidence:g}% CI"
        lines = [
            f"Comparison ({self._title()})",
            f"{'metric':<12}{'A':>8}{'B':>8}{'B - A':>9}{ci:>20}{'p':>9}",
        ]
        for m, c in self.table.items():
            lines.append(
                f"{m:<12}{100 * c.score_a:8.2f}{100 * c.score_b:8.2f}{100 * c.difference:+9.2f}"
                f"{f'[{100 * c.low:+.2f}, {100 * c.high:+.2f}]':>20}{c.p_value:9.4f}"
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        ci = f"{100 * self.confidence:g}% CI"
        head = "".join(f"<th>{html.escape(h)}</th>" for h in ("metric", "A", "B", "B - A", ci, "p-value"))
        body = "".join(
            f"<tr><th>{html.escape(m)}</th><td>{100 * c.score_a:.2f}</td>"
            f"<td>{100 * c.score_b:.2f}</td><td>{100 * c.difference:+.2f}</td>"
            f"<td>[{100 * c.low:+.2f}, {100 * c.high:+.2f}]</td><td>{c.p_value:.4f}</td></tr>"
            for m, c in self.table.items()
        )
        return (
            f"<table><caption>{html.escape(self._title())}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        )


def _pair_names(names_a: Sequence[str] | None, names_b: Sequence[str] | None, n_docs: int) -> None:
    a = _check_names(names_a, n_docs, "doc_names_a")
    b = _check_names(names_b, n_docs, "doc_names_b")
    if a is None or b is None:
        return
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            raise ValueError(
                f"documents must pair by position: document {i} is {x!r} for system A but {y!r} for system B."
            )


def compare_counts(
    counts_a: Any,
    counts_b: Any,
    columns: Sequence[str],
    metrics: Sequence[str],
    *,
    method: str = "permutation",
    n: int = 10000,
    seed: Any = None,
    confidence: float = 0.95,
    quantity: str = "f1",
    average: str = "micro",
    blanc_rule: str = "key",
    empty: str = "exclude",
    doc_names_a: Sequence[str] | None = None,
    doc_names_b: Sequence[str] | None = None,
) -> Comparison:
    """Paired significance test and interval of the difference of two systems.

    Row ``d`` of ``counts_a`` and of ``counts_b`` must score the same key
    document. For each metric (and the CoNLL average) the statistic is
    ``Δ = score(B) - score(A)`` of the chosen quantity on the corpus.

    ``method="permutation"``: approximate randomisation (Noreen 1989). Round
    ``r`` swaps the two systems' counts rows of document ``d`` where
    ``swaps[r, d]`` (``swaps = draw_swaps(rng, n, n_docs)``, probability 1/2),
    so with ``D = counts_b - counts_a``::

        A*_r = sum(A) + swaps[r] @ D      B*_r = sum(B) - swaps[r] @ D
        p = (1 + #{r : |Δ*_r| >= |Δ|}) / (n + 1)

    The +1 counts the observed assignment as one of the permutations, which
    keeps the test valid (never p = 0) for a finite ``n``.

    ``method="bootstrap"``: paired bootstrap; resample ``r`` draws documents
    ``indices[r]`` (``draw_resamples(rng, n, n_docs)``) for both systems at
    once, giving ``Δ*_r``. The p-value is the two-sided shifted-null bootstrap
    test (Efron & Tibshirani 1993, sec. 16.4; Berg-Kirkpatrick et al. 2012 use
    its one-sided form): centring the bootstrap distribution on the null::

        p = (1 + #{r : |Δ*_r - Δ| >= |Δ|}) / (n + 1)

    Counts use ``>=`` with a tolerance of 1e-12, so equal statistics computed
    in a different order still count as ties. A system compared with itself
    gets ``Δ = 0`` and ``p = 1`` under both methods.

    The confidence interval of ``Δ`` is always the paired-bootstrap percentile
    interval. With ``method="permutation"`` its resamples are drawn from the
    same generator after the swaps: ``rng = default_rng(seed)``,
    ``swaps = draw_swaps(rng, n, n_docs)``, then
    ``indices = draw_resamples(rng, n, n_docs)``.

    Parameters
    ----------
    counts_a, counts_b : array of shape (n_docs, n_columns)
        Per-document counts of system A and system B on the same documents, in
        the same order; n_docs >= 1.
    columns : sequence of str
        The engine's column names.
    metrics : sequence of str
        Metrics to compare.
    method : {"permutation", "bootstrap"}
        The test.
    n : int, default 10000
        Rounds of the permutation test, and resamples of the bootstrap.
    seed : int, numpy.random.Generator or None
        Seed of ``numpy.random.default_rng``.
    confidence : float, default 0.95
        Coverage of the interval of the difference.
    quantity : {"f1", "recall", "precision"}
        What is compared (the CoNLL average has F1 only).
    average : {"micro", "macro"}
        Corpus score (see the module documentation).
    blanc_rule : {"key", "either"}
        See :func:`corefscore._arith.metric_scores`.
    empty : {"exclude", "zero"}
        Macro only; see :func:`macro_scores`.
    doc_names_a, doc_names_b : sequence of str, optional
        Document names of the rows; when both are given they must be equal,
        position by position.

    Returns
    -------
    Comparison

    Raises
    ------
    ValueError
        Shapes differ, or the document names differ (the message names the
        first differing document), or an option is invalid.

    Notes
    -----
    Time O(n * n_docs * k) for two matrix products plus O(n * k) scoring;
    memory O(n * n_docs).

    Examples
    --------
    >>> cols = ["muc.recall_num", "muc.recall_den", "muc.precision_num", "muc.precision_den"]
    >>> a = [[1, 2, 1, 2], [2, 3, 2, 3]]
    >>> c = compare_counts(a, a, cols, ["muc"], n=100, seed=0)
    >>> c["muc"].difference, c["muc"].p_value
    (0.0, 1.0)
    """
    metrics = _check_metrics(metrics, columns)
    a = _check_counts(counts_a, columns, "counts_a")
    b = _check_counts(counts_b, columns, "counts_b")
    if a.shape != b.shape:
        raise ValueError(
            f"`counts_a` and `counts_b` must score the same documents; got shapes {a.shape} and {b.shape} instead."
        )
    if a.shape[0] == 0:
        raise ValueError("`counts_a` must have at least one document; got 0 rows instead.")
    _pair_names(doc_names_a, doc_names_b, a.shape[0])
    method = _check_choice(method, "method", METHODS)
    quantity = _check_choice(quantity, "quantity", QUANTITIES)
    n = _check_n(n)
    confidence = _check_confidence(confidence)
    stat = _Statistic(columns, metrics, average, blanc_rule, empty)
    n_docs = a.shape[0]
    ra, rb = stat.rows(a), stat.rows(b)
    sum_a, sum_b = ra.sum(axis=0), rb.sum(axis=0)
    point_a, point_b = stat.scores(sum_a), stat.scores(sum_b)

    def pick(scores: dict[str, dict[str, np.ndarray]], m: str) -> np.ndarray:
        return scores[m]["f1" if m == CONLL else quantity]

    rng = np.random.default_rng(seed)
    observed = {m: pick(point_b, m) - pick(point_a, m) for m in stat.names}
    if method == "permutation":
        shift = _swapped_shift(draw_swaps(rng, n, n_docs), rb - ra)
        perm_a, perm_b = stat.scores(sum_a + shift), stat.scores(sum_b - shift)
        extreme = {m: np.abs(pick(perm_b, m) - pick(perm_a, m)) for m in stat.names}
    indices = draw_resamples(rng, n, n_docs)
    sums = _resample_sums(indices, np.concatenate([ra, rb], axis=1))
    width = ra.shape[1]
    boot_a, boot_b = stat.scores(sums[:, :width]), stat.scores(sums[:, width:])
    boot = {m: pick(boot_b, m) - pick(boot_a, m) for m in stat.names}
    if method == "bootstrap":
        extreme = {m: np.abs(boot[m] - observed[m]) for m in stat.names}
    low, high = _quantiles(np.stack([boot[m] for m in stat.names], axis=1), confidence)
    table = {}
    for j, m in enumerate(stat.names):
        hits = int(np.count_nonzero(extreme[m] >= np.abs(observed[m]) - _TOL))
        table[m] = MetricComparison(
            score_a=float(pick(point_a, m)),
            score_b=float(pick(point_b, m)),
            difference=float(observed[m]),
            low=float(low[j]),
            high=float(high[j]),
            p_value=(1 + hits) / (n + 1),
        )
    return Comparison(
        table,
        method=method,
        quantity=quantity,
        n=n,
        seed=seed,
        confidence=confidence,
        average=average,
        n_docs=n_docs,
    )


def compare_results(
    result_a: Any,
    result_b: Any,
    *,
    method: str = "permutation",
    n: int = 10000,
    seed: Any = None,
    confidence: float = 0.95,
    quantity: str = "f1",
    average: str = "micro",
    empty: str = "exclude",
) -> Comparison:
    """:func:`compare_counts` on two Result-like objects scored on the same key.

    Parameters
    ----------
    result_a, result_b : Result
        Objects with ``counts_matrix`` and ``columns`` (and optionally
        ``metrics``, ``doc_names``, ``blanc_rule``). Their columns must be
        equal; the compared metrics are those both scored.
    method, n, seed, confidence, quantity, average, empty
        As in :func:`compare_counts`.

    Returns
    -------
    Comparison
    """
    pa = _result_parts(result_a, "result_a")
    pb = _result_parts(result_b, "result_b")
    if pa["columns"] != pb["columns"]:
        raise ValueError(
            "`result_a` and `result_b` must have the same counts columns; got "
            f"{len(pa['columns'])} and {len(pb['columns'])} different columns instead."
        )
    if pa["blanc_rule"] != pb["blanc_rule"]:
        raise ValueError(
            "`result_a` and `result_b` must use the same BLANC rule; got "
            f"{pa['blanc_rule']!r} and {pb['blanc_rule']!r} instead."
        )
    metrics = [m for m in pa["metrics"] if m in pb["metrics"]]
    return compare_counts(
        pa["counts"],
        pb["counts"],
        pa["columns"],
        metrics,
        method=method,
        n=n,
        seed=seed,
        confidence=confidence,
        quantity=quantity,
        average=average,
        blanc_rule=pa["blanc_rule"],
        empty=empty,
        doc_names_a=pa["doc_names"],
        doc_names_b=pb["doc_names"],
    )


def compare(
    key: Any,
    response_a: Any,
    response_b: Any,
    *,
    method: str = "permutation",
    n: int = 10000,
    seed: Any = None,
    confidence: float = 0.95,
    quantity: str = "f1",
    average: str = "micro",
    empty: str = "exclude",
    **score_kwargs: Any,
) -> Comparison:
    """Score two systems' responses against one key and compare them, paired by document.

    Calls ``corefscore.score_corpus(key, response_a, **score_kwargs)`` and
    ``corefscore.score_corpus(key, response_b, **score_kwargs)``, then
    :func:`compare_results`.

    Parameters
    ----------
    key : documents
        Key documents, in any form ``score_corpus`` accepts.
    response_a, response_b : documents
        The two systems' responses, paired with ``key`` as ``score_corpus``
        pairs them (by position or by document name).
    method, n, seed, confidence, quantity, average, empty
        As in :func:`compare_counts`.
    **score_kwargs
        Passed to ``score_corpus`` (``metrics=``, ``singletons=``, ...).

    Returns
    -------
    Comparison

    Examples
    --------
    >>> import corefscore
    >>> key = [[[(0, 1), (3, 3)], [(5, 6), (8, 8)]]] * 4
    >>> a = [[[(0, 1), (3, 3), (5, 6), (8, 8)]]] * 4
    >>> c = corefscore.stats.compare(key, a, key, n=200, seed=0, metrics=["muc", "bcub"])
    >>> c["bcub"].difference > 0
    True
    """
    ra = score_corpus(key, response_a, **score_kwargs)
    rb = score_corpus(key, response_b, **score_kwargs)
    return compare_results(
        ra,
        rb,
        method=method,
        n=n,
        seed=seed,
        confidence=confidence,
        quantity=quantity,
        average=average,
        empty=empty,
    )


def compare_files(
    key_path: Any,
    a_path: Any,
    b_path: Any,
    *,
    method: str = "permutation",
    n: int = 10000,
    seed: Any = None,
    confidence: float = 0.95,
    quantity: str = "f1",
    average: str = "micro",
    empty: str = "exclude",
    **score_kwargs: Any,
) -> Comparison:
    """Score two response files against one key file and compare them.

    Calls ``corefscore.score_files(key_path, a_path, **score_kwargs)`` and
    ``corefscore.score_files(key_path, b_path, **score_kwargs)``, then
    :func:`compare_results`; documents pair by name (both results list the key's
    documents in the key's order).

    Parameters
    ----------
    key_path, a_path, b_path : str or path-like
        CoNLL (or other supported) files.
    method, n, seed, confidence, quantity, average, empty
        As in :func:`compare_counts`.
    **score_kwargs
        Passed to ``score_files``.

    Returns
    -------
    Comparison
    """
    ra = score_files(key_path, a_path, **score_kwargs)
    rb = score_files(key_path, b_path, **score_kwargs)
    return compare_results(
        ra,
        rb,
        method=method,
        n=n,
        seed=seed,
        confidence=confidence,
        quantity=quantity,
        average=average,
        empty=empty,
    )
