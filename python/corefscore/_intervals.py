"""Statistics, part 3 of 4 (see :mod:`corefscore.stats`): percentile bootstrap confidence intervals."""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._resample import (
    QUANTITIES,
    _check_confidence,
    _check_counts,
    _check_metrics,
    _check_n,
    _metric_key,
    _quantiles,
    _resample_sums,
    _result_parts,
    _Statistic,
    draw_resamples,
)
from ._tables import _pandas, _pct, _plain_seed

# ----------------------------------------------------------------------------
# Bootstrap intervals
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Interval:
    """A point estimate with a confidence interval.

    Attributes
    ----------
    estimate : float
        The statistic on the whole corpus.
    low, high : float
        The interval's bounds.
    """

    estimate: float
    low: float
    high: float

    def __contains__(self, value: float) -> bool:
        return self.low <= value <= self.high



class Intervals:
    """Bootstrap confidence intervals of every metric's recall, precision and F1.

    Returned by :func:`bootstrap_counts`; index it by metric name
    (``intervals["muc"]["f1"].low``). Scores are fractions in [0, 1]; the
    text and HTML views show percentages.

    Attributes
    ----------
    table : dict
        ``{metric: {quantity: Interval}}``; ``"conll"`` has ``"f1"`` only.
    confidence : float
        Nominal coverage, e.g. 0.95.
    n : int
        Number of bootstrap resamples.
    seed : object
        The seed the resamples were drawn with.
    average : str
        ``"micro"`` or ``"macro"``.
    n_docs : int
        Number of documents resampled.
    """

    def __init__(
        self,
        table: dict[str, dict[str, Interval]],
        *,
        confidence: float,
        n: int,
        seed: Any,
        average: str,
        n_docs: int,
    ) -> None:
        self.table = table
        self.confidence = confidence
        self.n = n
        self.seed = seed
        self.average = average
        self.n_docs = n_docs

    @property
    def metrics(self) -> list[str]:
        """Metric names, in order (``"conll"`` last when present)."""
        return list(self.table)

    def __getitem__(self, metric: str) -> dict[str, Interval]:
        try:
            return self.table[_metric_key(metric)]
        except KeyError:
            raise KeyError(f"no interval for metric {metric!r}; have {self.metrics}") from None

    def __contains__(self, metric: object) -> bool:
        return _metric_key(metric) in self.table

    def __iter__(self):
        return iter(self.table)

    def __len__(self) -> int:
        return len(self.table)

    def _title(self) -> str:
        return (
            f"{100 * self.confidence:g}% percentile bootstrap intervals, {self.n} resamples of "
            f"{self.n_docs} documents, {self.average} average, seed {self.seed}"
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python view: settings plus ``{"metrics": {m: {q: {estimate, low, high}}}}``."""
        return {
            "confidence": self.confidence,
            "n": self.n,
            "seed": _plain_seed(self.seed),
            "average": self.average,
            "n_docs": self.n_docs,
            "metrics": {
                m: {q: {"estimate": iv.estimate, "low": iv.low, "high": iv.high} for q, iv in row.items()}
                for m, row in self.table.items()
            },
        }

    def to_pandas(self) -> Any:
        """One row per metric: columns ``metric``, ``recall``, ``recall_low``, ``recall_high``, ... ``f1_high``.

        The shape of every ``to_pandas`` of corefscore: one row per metric
        (per document and metric where documents are listed), the names as
        columns, a plain RangeIndex; ``.set_index("metric")`` indexes it.
        """
        pd = _pandas()
        rows = []
        for m, row in self.table.items():
            rec: dict[str, Any] = {"metric": m}
            for q in QUANTITIES:
                iv = row.get(q)
                rec[q] = iv.estimate if iv else np.nan
                rec[q + "_low"] = iv.low if iv else np.nan
                rec[q + "_high"] = iv.high if iv else np.nan
            rows.append(rec)
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        lines = [f"Intervals ({self._title()})"]
        head = f"{'metric':<12}" + "".join(f"{q:>26}" for q in QUANTITIES)
        lines.append(head)
        for m, row in self.table.items():
            cells = []
            for q in QUANTITIES:
                iv = row.get(q)
                cells.append(f"{_pct(iv.estimate)} [{_pct(iv.low)}, {_pct(iv.high)}]".rjust(26) if iv else " " * 26)
            lines.append(f"{m:<12}" + "".join(cells))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{q}</th>" for q in QUANTITIES)
        body = []
        for m, row in self.table.items():
            cells = []
            for q in QUANTITIES:
                iv = row.get(q)
                cells.append(
                    f"<td>{100 * iv.estimate:.2f} [{100 * iv.low:.2f}, {100 * iv.high:.2f}]</td>" if iv else "<td></td>"
                )
            body.append(f"<tr><th>{html.escape(m)}</th>{''.join(cells)}</tr>")
        return (
            f"<table><caption>{html.escape(self._title())}</caption>"
            f"<thead><tr><th>metric</th>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>"
        )




def bootstrap_counts(
    counts_matrix: Any,
    columns: Sequence[str],
    metrics: Sequence[str],
    *,
    n: int = 1000,
    confidence: float = 0.95,
    seed: Any = None,
    average: str = "micro",
    blanc_rule: str = "key",
    empty: str = "exclude",
) -> Intervals:
    """Percentile bootstrap intervals of every metric, resampling documents.

    Draws ``n`` resamples of the ``n_docs`` documents with replacement
    (``indices = draw_resamples(numpy.random.default_rng(seed), n, n_docs)``),
    sums the counts of each resample with one matrix product
    (``W @ counts_matrix``, ``W[r, d]`` = how often document ``d`` is in
    resample ``r``), scores every resample at once and takes, per metric and
    quantity, the ``(1 - confidence) / 2`` and ``(1 + confidence) / 2``
    quantiles of the resampled scores (NumPy's default linear interpolation)::

        low, high = quantile(score(W @ counts), [(1 - c) / 2, (1 + c) / 2])

    The point estimate is the score of the whole corpus, not the mean of the
    resamples.

    Parameters
    ----------
    counts_matrix : array of shape (n_docs, n_columns)
        Per-document additive counts (``Result.counts_matrix``); n_docs >= 1.
    columns : sequence of str
        The engine's column names.
    metrics : sequence of str
        Metrics to report; ``"conll"`` is added when MUC, B-cubed and CEAF_e
        are all present.
    n : int, default 1000
        Number of resamples.
    confidence : float, default 0.95
        Nominal coverage of the intervals.
    seed : int, numpy.random.Generator or None
        Seed of ``numpy.random.default_rng``; equal seeds give equal intervals.
    average : {"micro", "macro"}
        Which corpus score is resampled (see the module documentation).
    blanc_rule : {"key", "either"}
        See :func:`corefscore._arith.metric_scores`.
    empty : {"exclude", "zero"}
        Macro only; see :func:`macro_scores`.

    Returns
    -------
    Intervals

    Notes
    -----
    Time O(n * n_docs * k) for the matrix product (k = counts columns) plus
    O(n * k) scoring; memory O(n * n_docs) for the index matrix (8 bytes a
    cell) and O(n * k) for the sums. 10,000 resamples of 348 documents take
    well under a second (``bench/stats_bench.py``).

    Examples
    --------
    >>> cols = ["muc.recall_num", "muc.recall_den", "muc.precision_num", "muc.precision_den"]
    >>> m = [[1, 2, 1, 1], [2, 2, 2, 3], [0, 1, 0, 0]]
    >>> iv = bootstrap_counts(m, cols, ["muc"], n=200, seed=0)
    >>> iv["muc"]["recall"].low <= iv["muc"]["recall"].estimate <= iv["muc"]["recall"].high
    True
    """
    metrics = _check_metrics(metrics, columns)
    counts = _check_counts(counts_matrix, columns, "counts_matrix")
    n = _check_n(n)
    confidence = _check_confidence(confidence)
    if counts.shape[0] == 0:
        raise ValueError("`counts_matrix` must have at least one document; got 0 rows instead.")
    stat = _Statistic(columns, metrics, average, blanc_rule, empty)
    rows = stat.rows(counts)
    point = stat.scores(rows.sum(axis=0))
    indices = draw_resamples(np.random.default_rng(seed), n, counts.shape[0])
    samples = stat.scores(_resample_sums(indices, rows))
    keys = [(m, q) for m in stat.names for q in samples[m]]
    low, high = _quantiles(np.stack([samples[m][q] for m, q in keys], axis=1), confidence)
    table: dict[str, dict[str, Interval]] = {m: {} for m in stat.names}
    for j, (m, q) in enumerate(keys):
        table[m][q] = Interval(float(point[m][q]), float(low[j]), float(high[j]))
    return Intervals(table, confidence=confidence, n=n, seed=seed, average=average, n_docs=counts.shape[0])


def bootstrap(
    result: Any,
    *,
    n: int = 1000,
    confidence: float = 0.95,
    seed: Any = None,
    average: str = "micro",
    empty: str = "exclude",
) -> Intervals:
    """:func:`bootstrap_counts` on a Result-like object.

    Parameters
    ----------
    result : Result
        Anything with ``counts_matrix`` and ``columns`` (and optionally
        ``metrics`` and ``blanc_rule``), such as :class:`corefscore.Result`.
    n, confidence, seed, average, empty
        As in :func:`bootstrap_counts`.

    Returns
    -------
    Intervals
    """
    parts = _result_parts(result, "result")
    return bootstrap_counts(
        parts["counts"],
        parts["columns"],
        parts["metrics"],
        n=n,
        confidence=confidence,
        seed=seed,
        average=average,
        blanc_rule=parts["blanc_rule"],
        empty=empty,
    )
