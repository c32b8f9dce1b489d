"""Statistics, part 2 of 4 (see :mod:`corefscore.stats`): corpus, macro and per-document score tables.

Also the helpers the result views of :mod:`corefscore._intervals` and
:mod:`corefscore._compare` share (percentages, seeds as JSON, pandas).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ._resample import QUANTITIES, _check_counts, _check_metrics, _check_names, _Statistic

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

