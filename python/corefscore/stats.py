"""Research statistics on per-document counts: intervals, paired tests, averages.

Every metric reduces, per document, to counts that add up across documents
(see :mod:`corefscore._arith`). A corpus score is a function of the column
sums of the ``[n_docs, n_columns]`` counts matrix, so resampling documents is
arithmetic on that matrix:

- the bootstrap (Efron & Tibshirani 1993) draws ``n`` resamples of the
  documents as an ``(n, n_docs)`` index matrix, turns it into an
  ``(n, n_docs)`` matrix of multiplicities ``W`` and sums every resample at
  once with one matrix product ``W @ counts``;
- approximate randomisation (Noreen 1989) swaps the two systems' rows of a
  document with probability 1/2, drawn as an ``(n, n_docs)`` boolean matrix
  ``S``; the swapped sums are ``sum_a + S @ (B - A)`` and
  ``sum_b - S @ (B - A)``;
- every resample is then scored by :func:`corefscore._arith.metric_scores`,
  which is vectorised over leading axes.

There is no Python loop per resample, per document or per resample and
metric. The random draws are made by :func:`draw_resamples` and
:func:`draw_swaps` from ``numpy.random.default_rng(seed)``, in a documented
order, so that anyone can reproduce them.

Averages
--------
``average="micro"`` (the default) is the CoNLL reference scorer's corpus
score: the metric computed from the summed counts. ``average="macro"`` is the
mean of the per-document scores. A document in which every denominator of a
metric is zero (nothing to score on either side, e.g. an empty key and an
empty response for MUC) has no defined score for that metric. With
``empty="exclude"`` (the default) it is left out of that metric's mean; with
``empty="zero"`` it counts as 0, the reference scorer's convention for a
zero denominator. A document with one non-zero denominator is always
included, with 0 for the undefined quantity (as the reference scorer does).
The macro CoNLL score is the mean of the macro F1 of MUC, B-cubed and
CEAF_e. A macro average is itself a ratio of additive per-document columns
(``sum(valid * score) / sum(valid)``), so the bootstrap and the paired tests
apply to it unchanged.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import _arith
from ._api import score_corpus, score_files

#: The quantities reported per metric.
QUANTITIES = ("recall", "precision", "f1")
#: Name of the CoNLL average (mean F1 of MUC, B-cubed and CEAF_e) in results.
CONLL = "conll"
#: The old spelling of :data:`CONLL` as a metric key, still accepted with a DeprecationWarning.
CONLL_DEPRECATED = "conll_f1"


def _metric_key(metric: Any) -> Any:
    """``metric`` as a key of Intervals and Comparison: ``"conll_f1"`` is read as ``"conll"``, with a warning."""
    if metric == CONLL_DEPRECATED:
        import warnings

        warnings.warn(f"the CoNLL score's metric key is {CONLL!r}; {CONLL_DEPRECATED!r} is deprecated "
                      f"(Result.conll_f1 and the 'conll_f1' of to_dict() are its F1)", DeprecationWarning,
                      stacklevel=3)
        return CONLL
    return metric
#: Supported averages.
AVERAGES = ("micro", "macro")
#: How a macro average treats documents whose denominators of a metric are all zero.
EMPTY_RULES = ("exclude", "zero")
#: Supported paired tests.
METHODS = ("permutation", "bootstrap")

# Two statistics closer than this are treated as equal when counting the
# resamples at least as extreme as the observed one (scores lie in [0, 1];
# sums of floating-point counts in another order differ by about 1e-16).
_TOL = 1e-12
# Upper bound on the cells of one (resamples x documents) block, so memory
# stays bounded for long corpora; blocks only split the arithmetic, never the
# random draws.
_BLOCK_CELLS = 1 << 22


# ----------------------------------------------------------------------------
# Validation
# ----------------------------------------------------------------------------


def _check_counts(counts: Any, columns: Sequence[str], name: str) -> np.ndarray:
    arr = np.asarray(counts)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"`{name}` must be a numeric array; got dtype {arr.dtype} instead.")
    arr = arr.astype(np.float64, copy=False)
    if arr.ndim != 2 or arr.shape[1] != len(columns):
        raise ValueError(
            f"`{name}` must have shape (n_docs, {len(columns)}) to match `columns`; got shape {arr.shape} instead."
        )
    if not np.all(np.isfinite(arr)):
        row = int(np.argwhere(~np.isfinite(arr))[0, 0])
        raise ValueError(f"`{name}` must be finite; got NaN or infinity in row {row} instead.")
    return arr


def _check_metrics(metrics: Sequence[str] | str, columns: Sequence[str]) -> tuple[str, ...]:
    if isinstance(metrics, str):
        metrics = (metrics,)
    metrics = tuple(metrics)
    known = _arith.layout(columns)
    if not metrics:
        raise ValueError("`metrics` must name at least one metric; got an empty list instead.")
    for m in metrics:
        if m == CONLL or m not in known:
            raise ValueError(f"`metrics` must be metric names among {sorted(known)}; got {m!r} instead.")
    return metrics


def _check_choice(value: Any, name: str, choices: Sequence[str]) -> str:
    if value not in choices:
        raise ValueError(f"`{name}` must be one of {tuple(choices)}; got {value!r} instead.")
    return value


def _check_n(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"`n` must be a positive integer; got {n!r} instead.")
    return int(n)


def _check_confidence(confidence: Any) -> float:
    if not isinstance(confidence, (int, float, np.floating)) or not 0 < confidence < 1:
        raise ValueError(f"`confidence` must be a number in (0, 1); got {confidence!r} instead.")
    return float(confidence)


def _check_names(names: Sequence[str] | None, n_docs: int, name: str) -> list[str] | None:
    if names is None:
        return None
    names = [str(x) for x in names]
    if len(names) != n_docs:
        raise ValueError(f"`{name}` must have one name per counts row ({n_docs}); got {len(names)} names instead.")
    return names


def _result_parts(result: Any, name: str) -> dict[str, Any]:
    """Arrays of a Result-like object (``counts_matrix``, ``columns``, ``metrics``)."""
    try:
        counts = result.counts_matrix
        columns = list(result.columns)
    except AttributeError:
        raise TypeError(
            f"`{name}` must be a corefscore Result (with `counts_matrix` and `columns`); "
            f"got {type(result).__name__} instead."
        ) from None
    metrics = getattr(result, "metrics", None)
    if metrics is None:
        metrics = list(_arith.layout(columns))
    return {
        "counts": counts,
        "columns": columns,
        "metrics": [str(m) for m in metrics],
        "doc_names": getattr(result, "doc_names", None),
        "blanc_rule": getattr(result, "blanc_rule", "key"),
    }


# ----------------------------------------------------------------------------
# Statistics as ratios of additive columns
# ----------------------------------------------------------------------------


class _Statistic:
    """Per-document additive rows and the scores of their sums.

    ``rows(counts)`` maps the ``(n_docs, n_columns)`` counts to an
    ``(n_docs, k)`` matrix whose column sums determine the statistic, and
    ``scores(sums)`` maps sums of shape ``(..., k)`` to
    ``{metric: {quantity: array of shape (...)}}`` (``CONLL`` has ``"f1"``
    only, when MUC, B-cubed and CEAF_e are all scored).
    """

    def __init__(
        self,
        columns: Sequence[str],
        metrics: Sequence[str],
        average: str,
        blanc_rule: str,
        empty: str,
    ) -> None:
        self.columns = list(columns)
        self.metrics = tuple(metrics)
        self.average = _check_choice(average, "average", AVERAGES)
        self.empty = _check_choice(empty, "empty", EMPTY_RULES)
        self.blanc_rule = _check_choice(blanc_rule, "blanc_rule", _arith.BLANC_RULES)
        self.has_conll = all(m in self.metrics for m in _arith.CONLL_METRICS)
        lay = _arith.layout(self.columns)
        self._dens = {m: [i for s, i in lay[m].items() if s.endswith("_den")] for m in self.metrics}
        # Micro sums only need the columns of the chosen metrics.
        self._used = np.array(sorted(i for m in self.metrics for i in lay[m].values()), dtype=np.intp)
        self._used_columns = [self.columns[i] for i in self._used]

    @property
    def names(self) -> tuple[str, ...]:
        return self.metrics + ((CONLL,) if self.has_conll else ())

    def rows(self, counts: np.ndarray) -> np.ndarray:
        if self.average == "micro":
            return counts[:, self._used]
        per_doc = _arith.metric_scores(counts, self.columns, self.metrics, blanc_rule=self.blanc_rule)
        blocks = []
        for m in self.metrics:
            if self.empty == "exclude":
                valid = np.any(counts[:, self._dens[m]] != 0, axis=1).astype(np.float64)
            else:
                valid = np.ones(counts.shape[0])
            blocks.extend(valid * per_doc[m][q] for q in QUANTITIES)
            blocks.append(valid)
        return np.stack(blocks, axis=1)

    def scores(self, sums: np.ndarray) -> dict[str, dict[str, np.ndarray]]:
        if self.average == "micro":
            raw = _arith.metric_scores(sums, self._used_columns, self.metrics, blanc_rule=self.blanc_rule)
            out = {m: {q: raw[m][q] for q in QUANTITIES} for m in self.metrics}
        else:
            out = {}
            width = len(QUANTITIES) + 1
            for j, m in enumerate(self.metrics):
                den = sums[..., j * width + len(QUANTITIES)]
                out[m] = {q: _arith.ratio(sums[..., j * width + k], den) for k, q in enumerate(QUANTITIES)}
        if self.has_conll:
            out[CONLL] = {"f1": _arith.conll_f1(out)}
        return out


def _weights(indices: np.ndarray, n_docs: int) -> np.ndarray:
    """Multiplicity of each document in each resample: ``(n, n_docs)`` float64."""
    n = indices.shape[0]
    flat = indices + (np.arange(n, dtype=np.int64) * n_docs)[:, None]
    return np.bincount(flat.ravel(), minlength=n * n_docs).reshape(n, n_docs).astype(np.float64)


def _blocks(n: int, n_docs: int) -> list[slice]:
    step = max(1, _BLOCK_CELLS // max(n_docs, 1))
    return [slice(i, min(i + step, n)) for i in range(0, n, step)]


def _resample_sums(indices: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Column sums of ``rows`` for every resample: ``W @ rows`` in blocks."""
    n_docs = rows.shape[0]
    out = np.empty((indices.shape[0], rows.shape[1]))
    for s in _blocks(indices.shape[0], n_docs):
        out[s] = _weights(indices[s], n_docs) @ rows
    return out


def _swapped_shift(swaps: np.ndarray, diff: np.ndarray) -> np.ndarray:
    """``swaps @ diff`` in blocks: what moves from system A's sums to B's."""
    out = np.empty((swaps.shape[0], diff.shape[1]))
    for s in _blocks(swaps.shape[0], diff.shape[0]):
        out[s] = swaps[s].astype(np.float64) @ diff
    return out


# ----------------------------------------------------------------------------
# Random draws (public, so that the draws can be reproduced)
# ----------------------------------------------------------------------------


def draw_resamples(rng: np.random.Generator, n: int, n_docs: int) -> np.ndarray:
    """Document indices of ``n`` bootstrap resamples.

    Parameters
    ----------
    rng : numpy.random.Generator
        The generator; :func:`bootstrap_counts` and :func:`compare_counts` use
        ``numpy.random.default_rng(seed)``.
    n : int
        Number of resamples.
    n_docs : int
        Number of documents; every resample has ``n_docs`` documents drawn
        uniformly with replacement.

    Returns
    -------
    ndarray of shape (n, n_docs), dtype int64
        ``rng.integers(0, n_docs, size=(n, n_docs))``: row ``r`` lists the
        documents of resample ``r``.

    Examples
    --------
    >>> import numpy as np
    >>> draw_resamples(np.random.default_rng(0), 2, 3).shape
    (2, 3)
    """
    return rng.integers(0, n_docs, size=(n, n_docs), dtype=np.int64)


def draw_swaps(rng: np.random.Generator, n: int, n_docs: int) -> np.ndarray:
    """Which documents swap systems in ``n`` rounds of approximate randomisation.

    Parameters
    ----------
    rng : numpy.random.Generator
        The generator.
    n : int
        Number of rounds.
    n_docs : int
        Number of documents.

    Returns
    -------
    ndarray of shape (n, n_docs), dtype bool
        ``rng.random((n, n_docs)) < 0.5``: ``True`` where round ``r`` swaps the
        two systems' counts of a document.

    Examples
    --------
    >>> import numpy as np
    >>> draw_swaps(np.random.default_rng(0), 4, 5).dtype
    dtype('bool')
    """
    return rng.random((n, n_docs)) < 0.5


# ----------------------------------------------------------------------------
# Scores and averages
# ----------------------------------------------------------------------------


def _floats(scores: Mapping[str, Mapping[str, np.ndarray]]) -> dict[str, dict[str, float]]:
    return {m: {q: float(v) for q, v in d.items()} for m, d in scores.items()}


def corpus_scores(
    counts_matrix: Any,
    columns: Sequence[str],
    metrics: Sequence[str],
    *,
    average: str = "micro",
    blanc_rule: str = "key",
    empty: str = "exclude",
) -> dict[str, dict[str, float]]:
    """Corpus recall, precision and F1 of each metric, micro or macro averaged.

    Parameters
    ----------
    counts_matrix : array of shape (n_docs, n_columns)
        Per-document additive counts from the engine.
    columns : sequence of str
        The engine's column names.
    metrics : sequence of str
        Metrics to report.
    average : {"micro", "macro"}
        ``"micro"``: scores of the summed counts (the reference scorer's
        corpus score). ``"macro"``: mean of the per-document scores.
    blanc_rule : {"key", "either"}
        See :func:`corefscore._arith.metric_scores`.
    empty : {"exclude", "zero"}
        Macro only: how a document whose denominators of a metric are all zero
        counts (see the module documentation).

    Returns
    -------
    dict
        ``{metric: {"recall": float, "precision": float, "f1": float}}`` and,
        when MUC, B-cubed and CEAF_e are all scored, ``{"conll": {"f1": float}}``.
        A macro average with no document to average is 0.

    Examples
    --------
    Micro and macro differ when documents differ in size:

    >>> cols = ["muc.recall_num", "muc.recall_den", "muc.precision_num", "muc.precision_den"]
    >>> m = [[1, 1, 1, 1], [0, 3, 0, 3]]
    >>> corpus_scores(m, cols, ["muc"])["muc"]["recall"]
    0.25
    >>> corpus_scores(m, cols, ["muc"], average="macro")["muc"]["recall"]
    0.5
    """
    metrics = _check_metrics(metrics, columns)
    counts = _check_counts(counts_matrix, columns, "counts_matrix")
    stat = _Statistic(columns, metrics, average, blanc_rule, empty)
    return _floats(stat.scores(stat.rows(counts).sum(axis=0)))


def macro_scores(
    counts_matrix: Any,
    columns: Sequence[str],
    metrics: Sequence[str],
    *,
    blanc_rule: str = "key",
    empty: str = "exclude",
) -> dict[str, dict[str, float]]:
    """Mean of the per-document scores: ``corpus_scores(..., average="macro")``.

    Parameters
    ----------
    counts_matrix : array of shape (n_docs, n_columns)
        Per-document additive counts.
    columns : sequence of str
        The engine's column names.
    metrics : sequence of str
        Metrics to report.
    blanc_rule : {"key", "either"}
        See :func:`corefscore._arith.metric_scores`.
    empty : {"exclude", "zero"}
        ``"exclude"`` (default) leaves out of a metric's mean the documents
        whose denominators of that metric are all zero; ``"zero"`` counts them
        as 0.

    Returns
    -------
    dict
        As :func:`corpus_scores`.

    Examples
    --------
    An empty document (all denominators 0) does not pull the mean down unless
    asked to:

    >>> cols = ["muc.recall_num", "muc.recall_den", "muc.precision_num", "muc.precision_den"]
    >>> m = [[1, 2, 1, 1], [0, 0, 0, 0]]
    >>> macro_scores(m, cols, ["muc"])["muc"]["recall"]
    0.5
    >>> macro_scores(m, cols, ["muc"], empty="zero")["muc"]["recall"]
    0.25
    """
    return corpus_scores(counts_matrix, columns, metrics, average="macro", blanc_rule=blanc_rule, empty=empty)


def per_document_scores(
    counts_matrix: Any,
    columns: Sequence[str],
    metrics: Sequence[str],
    *,
    blanc_rule: str = "key",
) -> dict[str, dict[str, np.ndarray]]:
    """Recall, precision and F1 of every document.

    Parameters
    ----------
    counts_matrix : array of shape (n_docs, n_columns)
        Per-document additive counts.
    columns : sequence of str
        The engine's column names.
    metrics : sequence of str
        Metrics to report.
    blanc_rule : {"key", "either"}
        See :func:`corefscore._arith.metric_scores`.

    Returns
    -------
    dict
        ``{metric: {quantity: ndarray of shape (n_docs,)}}``, plus ``"defined"``
        per metric: a boolean array, False where all the metric's denominators
        are zero (the score is then the reference's 0 by convention), and
        ``{"conll": {"f1": ...}}`` when MUC, B-cubed and CEAF_e are scored.

    Examples
    --------
    >>> cols = ["muc.recall_num", "muc.recall_den", "muc.precision_num", "muc.precision_den"]
    >>> s = per_document_scores([[1, 2, 1, 1], [0, 0, 0, 0]], cols, ["muc"])
    >>> s["muc"]["recall"].tolist(), s["muc"]["defined"].tolist()
    ([0.5, 0.0], [True, False])
    """
    metrics = _check_metrics(metrics, columns)
    counts = _check_counts(counts_matrix, columns, "counts_matrix")
    stat = _Statistic(columns, metrics, "micro", blanc_rule, "exclude")
    out: dict[str, dict[str, np.ndarray]] = stat.scores(stat.rows(counts))
    for m in metrics:
        out[m]["defined"] = np.any(counts[:, stat._dens[m]] != 0, axis=1)
    return out


def per_document_frame(
    counts_matrix: Any,
    columns: Sequence[str],
    metrics: Sequence[str],
    doc_names: Sequence[str] | None = None,
    *,
    blanc_rule: str = "key",
) -> Any:
    """Per-document scores as a long pandas DataFrame.

    Parameters
    ----------
    counts_matrix : array of shape (n_docs, n_columns)
        Per-document additive counts.
    columns : sequence of str
        The engine's column names.
    metrics : sequence of str
        Metrics to report.
    doc_names : sequence of str, optional
        Document names; positions ``"0"``, ``"1"``, ... when omitted.
    blanc_rule : {"key", "either"}
        See :func:`corefscore._arith.metric_scores`.

    Returns
    -------
    pandas.DataFrame
        One row per document and metric, columns ``document``, ``metric``,
        ``recall``, ``precision``, ``f1``, ``defined`` (documents in order,
        then metrics in order). The CoNLL average is not included.
    """
    pd = _pandas()
    counts = _check_counts(counts_matrix, columns, "counts_matrix")
    names = _check_names(doc_names, counts.shape[0], "doc_names")
    if names is None:
        names = [str(i) for i in range(counts.shape[0])]
    scores = per_document_scores(counts, columns, metrics, blanc_rule=blanc_rule)
    metrics = _check_metrics(metrics, columns)
    n_docs, n_m = counts.shape[0], len(metrics)
    data: dict[str, Any] = {
        "document": np.repeat(np.asarray(names, dtype=object), n_m),
        "metric": np.tile(np.asarray(metrics, dtype=object), n_docs),
    }
    for q in (*QUANTITIES, "defined"):
        data[q] = np.stack([scores[m][q] for m in metrics], axis=1).ravel()
    return pd.DataFrame(data)


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


def _plain_seed(seed: Any) -> Any:
    """The seed as JSON-friendly Python: an int, None, or its repr (e.g. a Generator)."""
    if seed is None or isinstance(seed, bool):
        return seed
    if isinstance(seed, (int, np.integer)):
        return int(seed)
    return repr(seed)


def _pct(x: float) -> str:
    return f"{100 * x:6.2f}"


def _pandas() -> Any:
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "corefscore needs pandas for DataFrames; install it with `pip install corefscore[notebook]`"
        ) from exc
    return pd


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


def _quantiles(values: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    alpha = 1 - confidence
    low, high = np.quantile(values, [alpha / 2, 1 - alpha / 2], axis=0)
    return low, high


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
