"""Notebook plots of scores, intervals, per-document distributions and comparisons.

matplotlib is optional (``pip install corefscore[notebook]``) and imported only
when a plot is drawn. When no ``ax`` is given, each function draws on a new
``matplotlib.figure.Figure`` that is not registered with ``pyplot``: nothing
needs a display (it works headless, with any backend, including Agg), and
loops that draw many plots do not accumulate open figures. The functions
return the ``Axes``; its ``figure`` saves to a file (``ax.figure.savefig``)
and displays in Jupyter. Scores are drawn in percent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from . import _resample, stats

_EXTRA = "pip install corefscore[notebook]"


def _figure_module() -> Any:
    """``matplotlib.figure``, or an ImportError naming the extra to install."""
    try:
        import matplotlib.figure
    except ImportError as exc:
        raise ImportError(f"corefscore plotting needs matplotlib; install it with `{_EXTRA}`") from exc
    return matplotlib.figure


def _axes(ax: Any, figsize: tuple[float, float]) -> Any:
    if ax is not None:
        return ax
    # Quarter inches, so that common dpi values give whole pixels.
    w, h = (max(0.25, round(4 * x) / 4) for x in figsize)
    fig = _figure_module().Figure(figsize=(w, h), layout="constrained")
    return fig.add_subplot()


def _scores_of(scores: Any, blanc_rule: str) -> tuple[dict[str, dict[str, float]], Any]:
    """Point scores ``{metric: {quantity: float}}`` and the intervals, if any."""
    if isinstance(scores, stats.Intervals):
        return {m: {q: iv.estimate for q, iv in row.items()} for m, row in scores.table.items()}, (scores)
    if hasattr(scores, "counts_matrix") and hasattr(scores, "columns"):
        parts = _resample._result_parts(scores, "scores")
        return (
            stats.corpus_scores(
                parts["counts"],
                parts["columns"],
                parts["metrics"],
                blanc_rule=parts["blanc_rule"],
            ),
            None,
        )
    if isinstance(scores, Mapping):
        return {str(m): dict(v) for m, v in scores.items()}, None
    raise TypeError(
        "`scores` must be a mapping {metric: {quantity: score}}, an Intervals or a Result; "
        f"got {type(scores).__name__} instead."
    )


def _score_limits(values: np.ndarray, zero_baseline: bool) -> tuple[float, float]:
    """The score axis: 0-100, or the span of ``values`` with a margin (room above for the value labels)."""
    finite = values[np.isfinite(values)]
    if zero_baseline or finite.size == 0:
        return 0.0, 100.0
    low, high = float(finite.min()), float(finite.max())
    margin = max(2.0, 0.15 * (high - low))
    return max(0.0, low - margin), min(100.0 + margin, high + 1.5 * margin)


def plot_scores(
    scores: Any,
    *,
    intervals: stats.Intervals | None = None,
    quantities: Sequence[str] | str = "f1",
    metrics: Sequence[str] | None = None,
    ax: Any = None,
    title: str | None = None,
    blanc_rule: str = "key",
    zero_baseline: bool = False,
    labels: bool = True,
) -> Any:
    """Per-metric bars, zoomed to the data, labelled with their values, with interval whiskers when known.

    Parameters
    ----------
    scores : Mapping, Intervals or Result
        ``{metric: {quantity: score}}`` (fractions in [0, 1], e.g. from
        :func:`corefscore.stats.corpus_scores`), an
        :class:`~corefscore.stats.Intervals` (its point estimates, with its
        intervals as whiskers), or a Result-like object with
        ``counts_matrix`` and ``columns`` (its micro scores).
    intervals : Intervals, optional
        Whiskers from ``low`` to ``high``; overrides those of ``scores``.
    quantities : str or sequence of str, default "f1"
        Which of "recall", "precision", "f1" to draw: one bar per metric and
        quantity, grouped by metric.
    metrics : sequence of str, optional
        Metrics to draw, in order; default all in ``scores``.
    ax : matplotlib Axes, optional
        Where to draw; a new headless figure when omitted.
    title : str, optional
        Axes title.
    blanc_rule : {"key", "either"}
        Used only when ``scores`` is a Result-like object without its own rule.
    zero_baseline : bool, default False
        False: the score axis spans the bars' tops and whiskers with a
        margin (the differences a reader compares; the axis does not start
        at 0, which its labels show). True: the axis runs from 0 to 100.
    labels : bool, default True
        Write each bar's value (one decimal) above it (above its whisker).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    Bars are drawn in percent:

    >>> ax = plot_scores({"muc": {"f1": 0.7}, "bcub": {"f1": 0.6}})
    >>> [round(float(bar.get_height()), 1) for bar in ax.patches]
    [70.0, 60.0]

    ``ax.figure.savefig("scores.png")`` writes the picture.
    """
    points, own = _scores_of(scores, blanc_rule)
    intervals = intervals if intervals is not None else own
    if isinstance(quantities, str):
        quantities = (quantities,)
    for q in quantities:
        _resample._check_choice(q, "quantities", stats.QUANTITIES)
    names = list(metrics) if metrics is not None else list(points)
    for m in names:
        if m not in points:
            raise ValueError(f"`metrics` must be among {list(points)}; got {m!r} instead.")
    ax = _axes(ax, (min(12.0, 1.5 + 0.8 * len(names) * (0.6 + 0.4 * len(quantities))), 3.5))
    width = 0.8 / len(quantities)
    x = np.arange(len(names))
    drawn: list[np.ndarray] = []  # every bar top and whisker end, for the zoom
    for k, q in enumerate(quantities):
        vals = np.array([100 * points[m].get(q, np.nan) for m in names], dtype=float)
        tops = vals.copy()
        err = None
        if intervals is not None:
            lo, hi = [], []
            for m, v in zip(names, vals):
                iv = intervals.table.get(m, {}).get(q)
                lo.append(v - 100 * iv.low if iv else np.nan)
                hi.append(100 * iv.high - v if iv else np.nan)
            err = np.array([lo, hi])
            drawn += [vals - err[0], vals + err[1]]
            tops = np.fmax(vals, vals + err[1])
        drawn.append(vals)
        xs = x + (k - (len(quantities) - 1) / 2) * width
        ax.bar(xs, vals, width, yerr=err, capsize=3 if err is not None else 0, label=q,
               color=f"C{k}", error_kw={"elinewidth": 1, "ecolor": "0.2"})
        if labels:
            for xi, v, top in zip(xs, vals, tops):
                if np.isfinite(v):
                    ax.annotate(f"{v:.1f}", (xi, top), xytext=(0, 2), textcoords="offset points", ha="center",
                                va="bottom", fontsize=8)
    ax.set_xticks(x, names)
    ax.set_ylabel("score (%)")
    ax.set_ylim(*_score_limits(np.concatenate(drawn) if drawn else np.array([]), zero_baseline))
    ax.grid(axis="y", color="0.9", linewidth=0.8)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if len(quantities) > 1:
        ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    if title is None and intervals is not None:
        title = f"{100 * intervals.confidence:g}% bootstrap intervals ({intervals.n} resamples)"
    if title:
        ax.set_title(title)
    return ax


def plot_distribution(
    counts_matrix: Any,
    columns: Sequence[str] | None = None,
    metric: str = "muc",
    *,
    quantity: str = "f1",
    bins: int = 20,
    ax: Any = None,
    title: str | None = None,
    blanc_rule: str = "key",
) -> Any:
    """Histogram of one metric's per-document scores, with the micro and macro averages.

    Documents in which every denominator of the metric is zero have no score
    and are left out (as in the default macro average).

    Parameters
    ----------
    counts_matrix : array of shape (n_docs, n_columns) or Result
        Per-document counts, or a Result-like object (then ``columns`` is
        taken from it).
    columns : sequence of str, optional
        The engine's column names; required with an array.
    metric : str, default "muc"
        The metric to draw.
    quantity : {"f1", "recall", "precision"}
        Which score of the metric.
    bins : int, default 20
        Histogram bins over [0, 100].
    ax : matplotlib Axes, optional
        Where to draw; a new headless figure when omitted.
    title : str, optional
        Axes title; default names the metric and the number of documents.
    blanc_rule : {"key", "either"}
        See :func:`corefscore._arith.metric_scores`.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if hasattr(counts_matrix, "counts_matrix"):
        parts = _resample._result_parts(counts_matrix, "counts_matrix")
        counts_matrix, columns, blanc_rule = (
            parts["counts"],
            parts["columns"],
            parts["blanc_rule"],
        )
    if columns is None:
        raise TypeError("`columns` must be given with a counts array; got None instead.")
    _resample._check_choice(quantity, "quantity", stats.QUANTITIES)
    per_doc = stats.per_document_scores(counts_matrix, columns, [metric], blanc_rule=blanc_rule)
    defined = per_doc[metric]["defined"]
    values = 100 * per_doc[metric][quantity][defined]
    micro = stats.corpus_scores(counts_matrix, columns, [metric], blanc_rule=blanc_rule)
    macro = stats.corpus_scores(counts_matrix, columns, [metric], average="macro", blanc_rule=blanc_rule)
    ax = _axes(ax, (5.0, 3.5))
    ax.hist(values, bins=bins, range=(0, 100), color="0.7", edgecolor="0.3")
    ax.axvline(100 * micro[metric][quantity], color="C0", label="micro average")
    ax.axvline(100 * macro[metric][quantity], color="C1", linestyle="--", label="macro average")
    ax.set_xlim(0, 100)
    ax.set_xlabel(f"{metric} {quantity} per document (%)")
    ax.set_ylabel("documents")
    ax.legend()
    ax.set_title(title or f"{metric} {quantity}: {int(defined.sum())} documents")
    return ax


def plot_comparison(
    comparison: stats.Comparison,
    *,
    ax: Any = None,
    title: str | None = None,
) -> Any:
    """Per-metric difference B - A with its confidence interval and p-value.

    One horizontal bar per metric (the CoNLL average last), whiskers from the
    interval's low to high end, the p-value written beside each bar; bars
    with p < 0.05 are green, the others grey.

    Parameters
    ----------
    comparison : Comparison
        From :func:`corefscore.stats.compare_counts` or :func:`corefscore.stats.compare`.
    ax : matplotlib Axes, optional
        Where to draw; a new headless figure when omitted.
    title : str, optional
        Axes title; default names the test.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if not isinstance(comparison, stats.Comparison):
        raise TypeError(f"`comparison` must be a corefscore Comparison; got {type(comparison).__name__} instead.")
    names = comparison.metrics
    rows = [comparison[m] for m in names]
    diff = np.array([100 * r.difference for r in rows])
    err = np.array(
        [
            [d - 100 * r.low for d, r in zip(diff, rows)],
            [100 * r.high - d for d, r in zip(diff, rows)],
        ]
    )
    y = np.arange(len(names))[::-1]
    ax = _axes(ax, (6.0, 0.45 * len(names) + 1.5))
    colors = ["C2" if r.p_value < 0.05 else "0.6" for r in rows]
    ax.barh(y, diff, xerr=np.maximum(err, 0), color=colors, capsize=3)
    ax.axvline(0, color="0.2", linewidth=0.8)
    ax.set_yticks(y, names)
    for yi, r, d, hi in zip(y, rows, diff, err[1]):
        ax.annotate(
            f"p={r.p_value:.3g}",
            (d + max(hi, 0), yi),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )
    ax.set_xlabel(f"{comparison.quantity} difference B - A (points)")
    method = "permutation" if comparison.method == "permutation" else "paired bootstrap"
    ax.set_title(title or f"B - A, {100 * comparison.confidence:g}% CI, {method} p ({comparison.n_docs} documents)")
    ax.margins(x=0.25)
    return ax


__all__ = ["plot_comparison", "plot_distribution", "plot_scores"]


def plot_errors(*analyses: Any, categories: Sequence[str] | None = None, ax: Any = None,
                figsize: tuple[float, float] = (7.0, 3.5)) -> Any:
    """Errors by category: one bar per category and analysis (two systems side by side when given two).

    Parameters
    ----------
    *analyses : Analysis
        From :func:`corefscore.analyze` or :func:`corefscore.analyze_files`;
        bars are labelled with each one's ``name``.
    categories : sequence of str, optional
        The categories shown, in order (default: every category of the first
        analysis' ``counts``, the seven Kummerfeld-Klein ones and the two
        Martschat-Strube link errors, most frequent first, counted over all
        the analyses).
    ax : matplotlib Axes, optional
        Where to draw; a new headless figure when omitted.
    figsize : (float, float)
        The new figure's size in inches.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if not analyses:
        raise ValueError("plot_errors needs at least one Analysis")
    if categories is None:  # the most frequent first, summed over the analyses; ties in the engine's order
        totals = {c: sum(a.counts.get(c, 0) for a in analyses) for c in analyses[0].counts}
        cats = sorted(totals, key=lambda c: -totals[c])
    else:
        cats = list(categories)
    ax = _axes(ax, figsize)
    k = len(analyses)
    width = 0.8 / k
    x = np.arange(len(cats))
    for i, a in enumerate(analyses):
        bars = ax.bar(x + (i - (k - 1) / 2) * width, [a.counts.get(c, 0) for c in cats], width, label=a.name)
        ax.bar_label(bars, fontsize=8, padding=2)
    ax.set_xticks(x, [c.replace("_", " ") for c in cats], rotation=30, ha="right")
    ax.set_ylabel("errors")
    ax.margins(y=0.12)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if k > 1:
        ax.legend(frameon=False)
    return ax
