"""Scores from additive counts: the one place where counts become scores.

The engine returns, per document, a row of named counts ("muc.recall_num",
...); corpus scores come from the sums of those rows (the micro average of
the CoNLL reference scorer). The arithmetic is written with operators only,
so the same lines score a row of Python floats (``Result``, and the NumPy-free
table of the command line) and arrays of shape ``(..., n_columns)`` (ten
thousand bootstrap resamples at once). A metric with nothing to count (its
recall and precision denominators all 0) is no score: ``counted`` says so,
while the numbers stay the reference scorer's 0. No NumPy at import.
"""

from __future__ import annotations

TYPE_CHECKING = False  # on the command line's path: no typing or collections at import
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import Any

#: The four standard counts of a metric, in column order.
RP_COUNTS = ("recall_num", "recall_den", "precision_num", "precision_den")
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


def ratio(num: Any, den: Any) -> Any:
    """``num / den``, 0 where ``den`` is 0 (as the reference scorer); floats or arrays alike."""
    return num / (den + (den == 0)) * (den != 0)


def f1(recall: Any, precision: Any) -> Any:
    """Harmonic mean, 0 where both are 0; the reference scorer's order of operations, ``((2 P) R) / (P + R)``."""
    return ratio(2 * precision * recall, precision + recall)


def _rp(get: Callable[[str], Any], prefix: str = "") -> dict[str, Any]:
    rd, pd = get(prefix + "recall_den"), get(prefix + "precision_den")
    recall, precision = ratio(get(prefix + "recall_num"), rd), ratio(get(prefix + "precision_num"), pd)
    return {"recall": recall, "precision": precision, "f1": f1(recall, precision), "counted": (rd != 0) | (pd != 0)}


def _blanc(get: Callable[[str], Any], rule: str) -> dict[str, Any]:
    """BLANC (Luo et al. 2014) from its link counts.

    ``rule="key"`` is the reference scorer's: a half (coreference or
    non-coreference links) is used when the key has links of that kind; with
    neither, BLANC is 0. ``rule="either"`` uses a half when the key or the
    response has links of that kind, so a response that invents links where
    the key has none is penalised. Recall, precision and F1 are the means of
    the used halves'.
    """
    coref, noncoref = _rp(get, "coref."), _rp(get, "noncoref.")
    if rule == "key":
        has_c, has_n = get("coref.recall_den") != 0, get("noncoref.recall_den") != 0
    elif rule == "either":
        has_c, has_n = coref["counted"], noncoref["counted"]
    else:
        raise ValueError(f"`blanc_rule` must be one of {BLANC_RULES}; got {rule!r} instead.")
    halves = 1 * has_c + 1 * has_n  # ints, also for NumPy booleans (whose + is a logical or)
    out = {q: ratio(has_c * coref[q] + has_n * noncoref[q], halves) for q in ("recall", "precision", "f1")}
    out.update(counted=coref["counted"] | noncoref["counted"], coref=coref, noncoref=noncoref)
    return out


def scores_of(metric: str, get: Callable[[str], Any], blanc_rule: str = "key") -> dict[str, Any]:
    """Recall, precision, F1 and ``counted`` of one metric; ``get(suffix)`` gives its summed count column.

    ``counted`` is false where the metric had nothing to count (every
    recall and precision denominator 0): not a score, whatever the ratios.
    BLANC also has ``"coref"`` and ``"noncoref"`` (its halves, the same keys).
    """
    return _blanc(get, blanc_rule) if metric == "blanc" else _rp(get)


#: Why a metric can have nothing to count, by metric (else NOTHING_TO_COUNT).
_NOTHING_TO_COUNT = {
    "muc": "no coreference links in the key or the response (every entity is a singleton)",
    "lmuc": "no coreference links in the key or the response (every entity is a singleton)",
    "blanc": "no pair of mentions in any document of the key or the response",
    "zero": "no zero mentions in the key or the response",
}
NOTHING_TO_COUNT = "no mentions in the key or the response"


def na_warning(metric: str) -> str:
    """The warning line of a metric with nothing to count: what is shown and why."""
    return f"{metric}: n/a, nothing to count: {_NOTHING_TO_COUNT.get(metric, NOTHING_TO_COUNT)}"


def na_warnings(scores: Iterable[tuple[str, Any]]) -> list[str]:
    """:func:`na_warning` for each ``(name, score)`` whose ``counted`` is false."""
    return [na_warning(m) for m, s in scores if not s.counted]


def count_text(counts: dict[str, Any]) -> str:
    """A count-only analysis's counts as tables print them: ``"name value, ..."`` (integral values as ints)."""
    return ", ".join(f"{k} {int(v) if float(v).is_integer() else v}" for k, v in counts.items())


def metric_scores(
    counts: Any,
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
        ``{metric: {"recall": array, "precision": array, "f1": array,
        "counted": array, ...}}`` (see :func:`scores_of`); BLANC also has
        ``"coref"`` and ``"noncoref"`` sub-dictionaries.
    """
    import numpy as np

    counts = np.asarray(counts, dtype=np.float64)
    lay = layout(columns)
    out: dict[str, dict] = {}
    for metric in metrics:
        idx = lay[metric]
        out[metric] = scores_of(metric, lambda suffix, idx=idx: counts[..., idx[suffix]], blanc_rule)
        out[metric].update(extras(metric, lambda suffix, idx=idx: counts[..., idx[suffix]]))
    return out


def conll_f1(scores: dict[str, dict]) -> Any:
    """Mean F1 of MUC, B-cubed and CEAF_e, or None when one is missing."""
    if not all(m in scores for m in CONLL_METRICS):
        return None
    return sum(scores[m]["f1"] for m in CONLL_METRICS) / len(CONLL_METRICS)
    return sum(scores[m]["f1"] for m in CONLL_METRICS) / len(CONLL_METRICS)


def extras(metric: str, get: Callable[[str], Any]) -> dict[str, Any]:
    """A metric's quantities beyond its counts, recall, precision and F1 (``get`` as in :func:`scores_of`).

    Only DA has some: its error analysis (Trouilleux et al. 2000, §5), the
    shares of incorrect (substitution), spurious (overgeneration) and
    missing (undergeneration) denotation assignments among all its errors.
    """
    if metric != "da":
        return {}
    shares = (("substitution", "incorrect"), ("overgeneration", "spurious"), ("undergeneration", "missing"))
    return {share: ratio(get(count), get("errors")) for share, count in shares}
