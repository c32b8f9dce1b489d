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

The module is the public face of four private ones, split by job and
importing one way: ``_resample`` (names, input checks, the resampling
arithmetic and the random draws) -> ``_tables`` (corpus, macro and
per-document scores) -> ``_intervals`` (bootstrap intervals) and
``_compare`` (paired comparison). Import from here: ``from corefscore.stats
import bootstrap, compare, Intervals, ...``.
"""

from __future__ import annotations

from ._compare import Comparison, MetricComparison, compare, compare_counts, compare_files, compare_results
from ._intervals import Interval, Intervals, bootstrap, bootstrap_counts
from ._resample import (
    AVERAGES,
    CONLL,
    CONLL_DEPRECATED,
    EMPTY_RULES,
    METHODS,
    QUANTITIES,
    draw_resamples,
    draw_swaps,
)
from ._tables import corpus_scores, macro_scores, per_document_frame, per_document_scores

__all__ = [
    "AVERAGES",
    "CONLL",
    "CONLL_DEPRECATED",
    "EMPTY_RULES",
    "METHODS",
    "QUANTITIES",
    "Comparison",
    "Interval",
    "Intervals",
    "MetricComparison",
    "bootstrap",
    "bootstrap_counts",
    "compare",
    "compare_counts",
    "compare_files",
    "compare_results",
    "corpus_scores",
    "draw_resamples",
    "draw_swaps",
    "macro_scores",
    "per_document_frame",
    "per_document_scores",
]
