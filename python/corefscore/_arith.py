"""Scores from additive counts: the one place where counts become scores.

The engine returns, per document, a row of named counts ("muc.recall_num",
"blanc.coref.precision_den", ...). Corpus scores are computed from the sums of
those rows (the micro average of the CoNLL reference scorer). Every function
here works on arrays of any leading shape ``(..., n_columns)``, so the same
code scores one document, a corpus, or ten thousand bootstrap resamples at
once.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: Metrics whose mean F1 is the CoNLL score (Pradhan et al. 2014).
CONLL_METRICS = ("muc", "bcub", "ceafe")

#: How BLANC combines its two halves when a side has no links.
BLANC_RULES = ("key", "either")


def layout(columns: Sequence[str]) -> dict[str, dict[str, int]]:
    """Map each metric to ``{suffix: column index}`` from the column names."""
    out: dict[str, dict[str, int]] = {}
    for i, name in enumerate(columns):
        metric, _, suffix = name.partition(".")
        out.setdefault(metric, {})[suffix] = i
    return out


_split_cache: dict = {}
_split_last: dict = {}  # metrics tuple -> (columns, answer): the per-call path hashes no 60-name columns tuple


def split_scored(columns: Sequence[str], metrics: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(metrics with recall and precision, count-only analyses such as ``kk``) among ``metrics``, in order."""
    last = _split_last.get(metrics) if type(metrics) is tuple else None
    if last is not None and last[0] is columns:
        return last[1]
    key = (columns if isinstance(columns, tuple) else tuple(columns), tuple(metrics))
    found = _split_cache.get(key)
    if found is None:
        lay = layout(columns)
        scored = tuple(m for m in metrics if "recall_num" in lay.get(m, ()) or m == "blanc")
        found = (scored, tuple(m for m in metrics if m not in scored))
        if len(_split_cache) < 1024:
            _split_cache[key] = found
    if type(metrics) is tuple and len(_split_last) < 1024:
        _split_last[metrics] = (columns, found)
    return found


def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` elementwise, 0 where ``den`` is 0 (as the reference scorer)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    shape = np.broadcast_shapes(num.shape, den.shape)
    return np.divide(num, den, out=np.zeros(shape), where=den != 0)


def f1(recall: np.ndarray, precision: np.ndarray) -> np.ndarray:
    """Harmonic mean, 0 where both are 0."""
    return ratio(2 * recall * precision, recall + precision)


def _rp(counts: np.ndarray, idx: dict[str, int], prefix: str = "") -> dict[str, np.ndarray]:
    recall = ratio(counts[..., idx[prefix + "recall_num"]], counts[..., idx[prefix + "recall_den"]])
    precision = ratio(counts[..., idx[prefix + "precision_num"]], counts[..., idx[prefix + "precision_den"]])
    return {"recall": recall, "precision": precision, "f1": f1(recall, precision)}


def _blanc(counts: np.ndarray, idx: dict[str, int], rule: str) -> dict[str, np.ndarray]:
    """BLANC (Luo et al. 2014) from its link counts.

    ``rule="key"`` is the reference scorer's: a half (coreference or
    non-coreference links) is used when the key has links of that kind; with
    neither, BLANC is 0. ``rule="either"`` uses a half when the key or the
    response has links of that kind, so a response that invents links where
    the key has none is penalised.
    """
    coref = _rp(counts, idx, "coref.")
    noncoref = _rp(counts, idx, "noncoref.")
    if rule == "key":
        has_c = counts[..., idx["coref.recall_den"]] != 0
        has_n = counts[..., idx["noncoref.recall_den"]] != 0
    elif rule == "either":
        has_c = (counts[..., idx["coref.recall_den"]] != 0) | (counts[..., idx["coref.precision_den"]] != 0)
        has_n = (counts[..., idx["noncoref.recall_den"]] != 0) | (counts[..., idx["noncoref.precision_den"]] != 0)
    else:
        raise ValueError(f"`blanc_rule` must be one of {BLANC_RULES}; got {rule!r} instead.")
    halves = has_c.astype(np.float64) + has_n.astype(np.float64)
    out = {}
    for key in ("recall", "precision", "f1"):
        total = np.where(has_c, coref[key], 0.0) + np.where(has_n, noncoref[key], 0.0)
        out[key] = ratio(total, halves)
    out["coref"] = coref
    out["noncoref"] = noncoref
    return out


def metric_scores(
    counts: np.ndarray,
    columns: Sequence[str],
    metrics: Sequence[str],
    *,
    blanc_rule: str = "key",
) -> dict[str, dict]:
    """Recall, precision and F1 of each metric from summed counts.

    Parameters
    ----------
    counts : ndarray of shape (..., n_columns)
        Summed counts; leading axes are kept (one score per row).
    columns : sequence of str
        The engine's column names.
    metrics : sequence of str
        Metrics to score.
    blanc_rule : {"key", "either"}
        See :func:`_blanc`.

    Returns
    -------
    dict
        ``{metric: {"recall": array, "precision": array, "f1": array, ...}}``;
        BLANC also has ``"coref"`` and ``"noncoref"`` sub-dictionaries.
    """
    counts = np.asarray(counts, dtype=np.float64)
    lay = layout(columns)
    out: dict[str, dict] = {}
    for metric in metrics:
        idx = lay[metric]
        if metric == "blanc":
            out[metric] = _blanc(counts, idx, blanc_rule)
        else:
            out[metric] = _rp(counts, idx)
        extra = _EXTRAS.get(metric)
        if extra is not None:
            out[metric].update(extra(counts, idx))
    return out


def conll_f1(scores: dict[str, dict]) -> np.ndarray | None:
    """Mean F1 of MUC, B-cubed and CEAF_e, or None when one is missing."""
    if not all(m in scores for m in CONLL_METRICS):
        return None
    return sum(scores[m]["f1"] for m in CONLL_METRICS) / len(CONLL_METRICS)


def _da_errors(counts: np.ndarray, idx: dict[str, int]) -> dict[str, np.ndarray]:
    """DA's error analysis (Trouilleux et al. 2000, §5).

    The counts of incorrect (substituted), spurious (overgenerated) and missing
    (undergenerated) denotation assignments, and each as a share of all errors.
    """
    incorrect = counts[..., idx["incorrect"]]
    spurious = counts[..., idx["spurious"]]
    missing = counts[..., idx["missing"]]
    errors = counts[..., idx["errors"]]
    return {
        "incorrect": incorrect,
        "spurious": spurious,
        "missing": missing,
        "substitution": ratio(incorrect, errors),
        "overgeneration": ratio(spurious, errors),
        "undergeneration": ratio(missing, errors),
    }


# Per-metric extra quantities beyond recall, precision and F1, keyed by metric.
_EXTRAS: dict = {"da": _da_errors}
