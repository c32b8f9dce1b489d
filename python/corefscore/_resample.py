"""Statistics, part 1 of 4 (see :mod:`corefscore.stats`): names, input checks, and resampling arithmetic.

The statistic of a resample is a ratio of additive columns of the counts
matrix (:class:`_Statistic`); resamples are multiplicity matrices
(:func:`draw_resamples`) or swap masks (:func:`draw_swaps`) summed with one
matrix product per block of resamples.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _arith

#: The quantities reported per metric.
QUANTITIES = ("recall", "precision", "f1")
#: Name of the CoNLL average (mean F1 of MUC, B-cubed and CEAF_e) in results.
CONLL = "conll"
#: The old spelling of :data:`CONLL` as a metric key, still accepted with a DeprecationWarning.
CONLL_DEPRECATED = "conll_f1"

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


def _metric_key(metric: Any) -> Any:
    """``metric`` as a key of Intervals and Comparison: ``"conll_f1"`` is read as ``"conll"``, with a warning."""
    if metric == CONLL_DEPRECATED:
        import warnings

        warnings.warn(f"the CoNLL score's metric key is {CONLL!r}; {CONLL_DEPRECATED!r} is deprecated "
                      f"(Result.conll_f1 and the 'conll_f1' of to_dict() are its F1)", DeprecationWarning,
                      stacklevel=3)
        return CONLL
    return metric


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


def _quantiles(values: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    alpha = 1 - confidence
    low, high = np.quantile(values, [alpha / 2, 1 - alpha / 2], axis=0)
    return low, high
