"""Result objects: scores computed on demand from the per-document counts matrix.

NumPy is imported where a Result is built or exported, not with the module:
the command line's ``score --json`` writes the JSON schema
(:func:`scores_json`) from the engine's counts without importing it.
"""

from __future__ import annotations

from . import _arith
from ._arith import RP_COUNTS
from ._engine import Duplicate

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the command line's start-up)
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from typing import Any

    import numpy as np

_new = object.__new__

#: BLANC's halves: (name in results, column prefix).
BLANC_HALVES = (("coref_links", "coref"), ("noncoref_links", "noncoref"))
#: Names of the score quantities.
QUANTITIES = ("recall", "precision", "f1")


def _num(x: float) -> float | int:
    """A count as an int when it is integral (for JSON), else the float."""
    x = float(x)
    return int(x) if x.is_integer() and abs(x) < 2**53 else x


class MetricScore:
    """Recall, precision and F1 of one metric, with the counts behind them.

    Attributes
    ----------
    name : str
    recall, precision, f1 : float
        The reference scorer's values (0 over 0).
    counted : bool
        False when the metric had nothing to count (its recall and precision
        denominators all 0): then it is not a score, and ``to_dict()``, tables
        and ``to_pandas()`` show ``None``, ``n/a`` and NaN.
    recall_num, recall_den, precision_num, precision_den : float
        The summed counts (absent for metrics with other counts).
    coref_links, noncoref_links : MetricScore
        BLANC only: its coreference-link and non-coreference-link halves.

    Other quantities a metric defines (e.g. DA's error ratios) are attributes
    too, listed in :attr:`extra`.
    """

    __slots__ = ("_parts", "counted", "counts", "extra", "f1", "name", "precision", "recall")

    def __init__(
        self,
        name: str,
        recall: float,
        precision: float,
        f1: float,
        counts: dict[str, float],
        extra: dict[str, float] | None = None,
        parts: dict[str, MetricScore] | None = None,
        counted: bool = True,
    ) -> None:
        self.name = name
        self.recall = float(recall)
        self.precision = float(precision)
        self.f1 = float(f1)
        self.counts = counts
        self.extra = extra or {}
        self._parts = parts or {}
        self.counted = bool(counted)

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        for table in (self._parts, self.counts, self.extra):
            if attr in table:
                return table[attr]
        raise AttributeError(f"metric {self.name!r} has no quantity {attr!r}")

    def __repr__(self) -> str:
        if not self.counted:
            return f"MetricScore({self.name!r}, n/a: nothing to count)"
        return f"MetricScore({self.name!r}, recall={self.recall:.4f}, precision={self.precision:.4f}, f1={self.f1:.4f})"

    def shown(self) -> tuple[float, float, float] | None:
        """``(recall, precision, f1)`` as views show them: None when there was nothing to count."""
        return (self.recall, self.precision, self.f1) if self.counted else None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MetricScore):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        """The metric as in the ``--json`` schema: scores (None with nothing to count), counts, BLANC halves, extras."""
        shown = self.shown() or (None, None, None)
        out: dict[str, Any] = dict(zip(QUANTITIES, shown))
        for key, value in self.counts.items():
            out[key] = _num(value)
        for key, part in self._parts.items():
            out[key] = part.to_dict()
        for key, value in self.extra.items():
            out[key] = float(value)
        return out


def _percents(scores: tuple[float, float, float] | None) -> tuple[str, str, str]:
    """Scores as tables print them: percentages with two decimals, or n/a when there was nothing to count."""
    return ("n/a",) * 3 if scores is None else tuple(f"{100 * x:.2f}" for x in scores)  # type: ignore[return-value]


def _metric_scores(row: Sequence[float], lay: dict[str, dict[str, int]], metrics: Sequence[str],
                   blanc_rule: str) -> dict[str, MetricScore]:
    """MetricScore objects from one row of counts (Python floats), by ``_arith.scores_of``: the scalar lines."""
    out = {}
    for metric in metrics:
        counts = {k: row[i] for k, i in lay[metric].items()}
        s = _arith.scores_of(metric, counts.__getitem__, blanc_rule)
        parts = None
        if metric == "blanc":
            parts = {half: MetricScore(f"blanc.{half}", *(s[prefix][q] for q in QUANTITIES),
                                       {c: counts[f"{prefix}.{c}"] for c in RP_COUNTS}, counted=s[prefix]["counted"])
                     for half, prefix in BLANC_HALVES}
            counts = {}
        out[metric] = MetricScore(metric, *(s[q] for q in QUANTITIES), counts,
                                  _arith.extras(metric, counts.__getitem__), parts, s["counted"])
    return out


def conll_f1_of(scores: dict[str, MetricScore]) -> float | None:
    """Mean F1 of MUC, B-cubed and CEAF_e (the CoNLL score), or None if one is absent or had nothing to count."""
    if not all(m in scores and scores[m].counted for m in _arith.CONLL_METRICS):
        return None
    return float(sum(scores[m].f1 for m in _arith.CONLL_METRICS) / len(_arith.CONLL_METRICS))


def scores_json(sums: Sequence[float], rows: Sequence[Sequence[float]] | None, names: Sequence[str],
                columns: Sequence[str], metrics: Sequence[str], analyses: Sequence[str], blanc_rule: str, *,
                key: str | None, response: str | None, warnings: Sequence[str]) -> dict[str, Any]:
    """The JSON schema of ``corefscore --json`` (:meth:`Result.to_dict`) from counts as Python floats.

    ``sums`` are the column sums; ``rows``, when not None, the per-document
    rows (``"documents"`` is then added), ``names`` their documents' names.
    """
    from ._version import __version__

    lay = _arith.layout(columns)
    scores = _metric_scores(sums, lay, metrics, blanc_rule)
    out: dict[str, Any] = {
        "version": __version__,
        "key": key,
        "response": response,
        "metrics": {name: s.to_dict() for name, s in scores.items()},
        "conll_f1": conll_f1_of(scores),
        "warnings": [*warnings, *_arith.na_warnings(scores.items())],
    }

    def analysis_counts(row: Sequence[float]) -> dict[str, dict[str, float | int]]:
        return {a: {k: _num(row[i]) for k, i in lay[a].items()} for a in analyses}

    if analyses:
        out["analyses"] = analysis_counts(sums)
    if rows is not None:
        out["documents"] = [
            {"name": name,
             "metrics": {n: s.to_dict() for n, s in _metric_scores(row, lay, metrics, blanc_rule).items()},
             **({"analyses": analysis_counts(row)} if analyses else {})}
            for name, row in zip(names, rows)
        ]
    return out


class Result:
    """Scores of one or more documents, computed from the engine's counts.

    Attributes
    ----------
    counts_matrix : ndarray of shape (n_docs, n_columns)
        The raw per-document counts, one row per document (additive: corpus
        scores are computed from the column sums).
    columns : tuple of str
        Names of the counts columns (``"muc.recall_num"``, ...), from the engine.
    doc_names : list of str
        Document names (positions as strings for unnamed documents).
    metrics : tuple of str
        The metrics scored, in engine order.
    blanc_rule : str
        How BLANC combines its halves (``"key"`` as the reference scorer).
    duplicates : list of Duplicate
        Repeated mentions found (only the first occurrence of each is scored).
    warnings : list of str
        Everything worth telling the user: duplicates, unpaired documents.

    Examples
    --------
    >>> from corefscore import score
    >>> r = score([[(0, 0), (2, 3)], [(5, 5)]], [[(0, 0), (2, 3), (5, 5)]])
    >>> r["muc"].recall, r["muc"].precision
    (1.0, 0.5)
    >>> sorted(r.to_dict()["metrics"]["muc"])[:3]
    ['f1', 'precision', 'precision_den']
    """

    def __init__(
        self,
        counts_matrix: np.ndarray,
        columns: Sequence[str],
        doc_names: Sequence[str],
        metrics: Sequence[str],
        *,
        blanc_rule: str = "key",
        duplicates: Sequence[Duplicate] = (),
        warnings: Sequence[str] = (),
        key: str | None = None,
        response: str | None = None,
        options: dict[str, Any] | None = None,
        n_duplicates: int | None = None,
    ) -> None:
        import numpy as np

        counts_matrix = np.asarray(counts_matrix, dtype=np.float64)
        if counts_matrix.ndim != 2 or counts_matrix.shape[1] != len(columns):
            raise ValueError(
                f"`counts_matrix` must have shape (n_docs, {len(columns)}); got {counts_matrix.shape} instead."
            )
        if len(doc_names) != counts_matrix.shape[0]:
            raise ValueError(
                f"`doc_names` must have one name per row ({counts_matrix.shape[0]}); got {len(doc_names)} instead."
            )
        self.counts_matrix = counts_matrix
        self.columns = tuple(columns)
        self.doc_names = list(doc_names)
        self.metrics, self.analyses = _arith.split_scored(self.columns, metrics)
        self.blanc_rule = blanc_rule
        self.duplicates = list(duplicates)
        self.warnings = list(warnings)
        self.key = key
        self.response = response
        self.options = dict(options or {})
        self.n_duplicates = len(self.duplicates) if n_duplicates is None else int(n_duplicates)
        self._scores: dict[str, MetricScore] | None = None

    @classmethod
    def _of(cls, counts_matrix: np.ndarray, columns: tuple[str, ...], doc_names: list[str], metrics: tuple[str, ...],
            blanc_rule: str, duplicates: Sequence[Duplicate], warnings: list[str], options: dict[str, Any],
            n_duplicates: int) -> Result:
        """A Result from the engine's own outputs, without re-checking them (the per-call path)."""
        self = cls.__new__(cls)
        self.counts_matrix, self.columns, self.doc_names = counts_matrix, columns, doc_names
        self.metrics, self.analyses = _arith.split_scored(columns, metrics)
        self.blanc_rule, self.duplicates, self.warnings, self.options = blanc_rule, list(duplicates), warnings, options
        self.key = self.response = None
        self.n_duplicates, self._scores = n_duplicates, None
        return self

    @classmethod
    def _row_class(cls, columns: tuple[str, ...], metrics: tuple[str, ...], blanc_rule: str,
                   options: dict[str, Any]) -> type[Result]:
        """The class of the per-call road's one-document Results of a set of options and applied metrics.

        What those Results share is held once, as attributes of the class, so
        that a call makes only its row (see :class:`_RowResult`): ``cls(row)``.
        """
        scored, analyses = _arith.split_scored(columns, metrics)
        return type("_RowResult", (_RowResult,), {
            "columns": columns, "metrics": scored, "analyses": analyses, "blanc_rule": blanc_rule,
            "options": options, "key": None, "response": None, "n_duplicates": 0, "_scores": None,
            "_layout": _arith.layout(columns), "__module__": __name__, "__slots__": ()})

    # -- scores -------------------------------------------------------------

    @property
    def total_counts(self) -> np.ndarray:
        """Column sums of :attr:`counts_matrix`, shape (n_columns,)."""
        return self.counts_matrix.sum(axis=0)

    def _all(self) -> dict[str, MetricScore]:
        if self._scores is None:
            self._scores = _metric_scores(self.total_counts.tolist(), _arith.layout(self.columns), self.metrics,
                                          self.blanc_rule)
        return self._scores

    def __getitem__(self, metric: str) -> MetricScore:
        if metric not in self.metrics:
            if metric in ("conll", "conll_f1"):  # the CoNLL score is an average of F1s, not a metric of counts
                raise KeyError(f"`metric` must be one of the scored metrics {list(self.metrics)}; got {metric!r} "
                               "instead: the CoNLL score (mean F1 of muc, bcub and ceafe) is result.conll_f1.")
            hint = f" ({metric} has counts, not scores: result.counts[{metric!r}])" if metric in self.analyses else ""
            raise KeyError(f"`metric` must be one of the scored metrics {list(self.metrics)}; got {metric!r} instead."
                           + hint)
        return self._all()[metric]

    def __contains__(self, metric: object) -> bool:
        return metric in self.metrics

    def __iter__(self) -> Iterator[str]:
        return iter(self.metrics)

    def __len__(self) -> int:
        return len(self.metrics)

    def keys(self) -> tuple[str, ...]:
        """The scored metric names."""
        return self.metrics

    def items(self) -> list[tuple[str, MetricScore]]:
        """``(name, MetricScore)`` pairs in engine order."""
        return list(self._all().items())

    @property
    def n_documents(self) -> int:
        """Number of documents scored."""
        return self.counts_matrix.shape[0]

    @property
    def conll_f1(self) -> float | None:
        """Mean F1 of MUC, B-cubed and CEAF_e (the CoNLL score), or None if one is absent or had nothing to count."""
        if not all(m in self.metrics for m in _arith.CONLL_METRICS):
            return None
        return conll_f1_of(self._all())

    def na_warnings(self) -> list[str]:
        """A line for each metric with nothing to count over the whole batch (shown as n/a), saying why."""
        return _arith.na_warnings(self._all().items())

    @property
    def counts(self) -> dict[str, dict[str, float]]:
        """Summed counts per metric and analysis: ``{name: {suffix: value}}``, e.g. ``counts["muc"]["recall_num"]``.

        The error analyses (``kk``, ``ms``), which have counts but no scores, are here too.
        """
        sums = self.total_counts
        lay = _arith.layout(self.columns)
        return {m: {s: float(sums[i]) for s, i in lay[m].items()} for m in (*self.metrics, *self.analyses)}

    def per_document(self) -> list[Result]:
        """One single-document Result per document, in order (scores computed in one vectorised pass)."""
        lay = _arith.layout(self.columns)
        rows = [_metric_scores(row, lay, self.metrics, self.blanc_rule) for row in self.counts_matrix.tolist()]
        docs = []
        for i, scores in enumerate(rows):
            doc = self._subset([i])
            doc._scores = scores
            docs.append(doc)
        return docs

    def _subset(self, rows: Sequence[int]) -> Result:
        names = [self.doc_names[i] for i in rows]
        keep = set(names)
        return Result(self.counts_matrix[list(rows)], self.columns, names, (*self.metrics, *self.analyses),
                      blanc_rule=self.blanc_rule, duplicates=[d for d in self.duplicates if d.document in keep],
                      key=self.key, response=self.response, options=self.options)

    @classmethod
    def from_counts(cls, counts: Any, columns: Sequence[str], metrics: Sequence[str], *,
                    doc_names: Sequence[str] | None = None, blanc_rule: str = "key") -> Result:
        """A Result from counts summed or computed elsewhere (another process, a reduction).

        ``counts`` is one row of column sums, shape (n_columns,), or a matrix
        (n_docs, n_columns); ``columns`` and ``metrics`` are those of the Result
        or Scorer that produced them.
        """
        import numpy as np

        arr = np.asarray(counts, dtype=np.float64)
        arr = arr.reshape(1, -1) if arr.ndim == 1 else arr
        names = [str(i) for i in range(len(arr))] if doc_names is None else list(doc_names)
        unknown = [m for m in metrics if m not in _arith.layout(columns)]
        if unknown:
            raise ValueError(f"`metrics` must be metrics of `columns`; got {unknown} instead.")
        return cls(arr, columns, names, metrics, blanc_rule=blanc_rule)

    # -- export -------------------------------------------------------------

    def to_dict(self, per_doc: bool = False) -> dict[str, Any]:
        """The JSON schema of ``corefscore --json``.

        Returns
        -------
        dict
            ``{"version", "key", "response", "metrics": {NAME: {recall,
            precision, f1, recall_num, recall_den, precision_num,
            precision_den}}, "conll_f1", "warnings"}``; BLANC also has
            ``"coref_links"`` and ``"noncoref_links"`` objects with the same
            seven fields. Integral counts are ints. A metric with nothing to
            count has None scores (and a line in ``"warnings"``). Count-only
            analyses asked for (``kk``, ``ms``) are ``"analyses": {NAME:
            {count: value}}``. With ``per_doc=True``, ``"documents": [{"name",
            "metrics"}]`` is added (and ``"analyses"`` per document).
        """
        return scores_json(self.total_counts.tolist(), self.counts_matrix.tolist() if per_doc else None,
                           self.doc_names, self.columns, self.metrics, self.analyses, self.blanc_rule,
                           key=self.key, response=self.response, warnings=self.warnings)

    def to_pandas(self, per_document: bool = False) -> Any:
        """A pandas DataFrame: one row per metric (or per document and metric).

        Columns ``metric``, ``recall``, ``precision``, ``f1`` and the four
        counts (plus ``document`` first with ``per_document=True``).

        Raises
        ------
        ImportError
            When pandas is not installed (``pip install corefscore[notebook]``).
        """
        try:
            import pandas as pd
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError(
                "corefscore: to_pandas() needs pandas; install it with `pip install corefscore[notebook]`"
            ) from exc
        import numpy as np

        docs = self.per_document() if per_document else [self]
        rows = []
        for doc in docs:
            for name, s in doc._all().items():
                row: dict[str, Any] = {}
                if per_document:
                    row["document"] = doc.doc_names[0]
                row.update(zip(("metric", *QUANTITIES), (name, *(s.shown() or (np.nan,) * 3))))
                row.update({c: s.counts.get(c, np.nan) for c in RP_COUNTS})
                rows.append(row)
        return pd.DataFrame(rows)

    def _table_rows(self) -> list[tuple[str, str, str, str]]:
        """(name, recall, precision, F1) as printed: percentages, or n/a with nothing to count."""
        return [(n, *(_percents(s.shown()))) for n, s in self._all().items()]

    def _count_rows(self) -> list[tuple[str, str]]:
        """(analysis, its counts as "name value" pairs) for the count-only analyses asked for."""
        counts = self.counts
        return [(a, _arith.count_text(counts[a])) for a in self.analyses]

    def __repr__(self) -> str:
        n = self.n_documents
        head = f"Result({n} document{'s' if n != 1 else ''}"
        if self.duplicates:
            head += f", {len(self.duplicates)} repeated mentions"
        head += ")"
        lines = [head, f"  {'metric':<12}{'recall':>9}{'precision':>11}{'F1':>9}"]
        for name, r, p, f in self._table_rows():
            lines.append(f"  {name:<12}{r:>9}{p:>11}{f:>9}")
        conll = self.conll_f1
        if conll is not None:
            lines.append(f"  {'conll':<12}{'':>9}{'':>11}{100 * conll:>9.2f}")
        lines.extend(f"  {name:<12}{counts}" for name, counts in self._count_rows())
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        import html

        n = self.n_documents
        rows = "".join(
            f"<tr><th>{html.escape(name)}</th><td>{r}</td><td>{p}</td><td>{f}</td></tr>"
            for name, r, p, f in self._table_rows()
        ) + "".join(f"<tr><th>{html.escape(name)}</th><td colspan=\"3\">{html.escape(counts)}</td></tr>"
                    for name, counts in self._count_rows())
        conll = self.conll_f1
        foot = ""
        if conll is not None:
            foot = f"<tfoot><tr><th>CoNLL F1</th><td></td><td></td><td>{100 * conll:.2f}</td></tr></tfoot>"
        caption = f"corefscore: {n} document{'s' if n != 1 else ''}"
        if self.duplicates:
            caption += f", {len(self.duplicates)} repeated mentions"
        return (
            f"<table><caption>{html.escape(caption)}</caption>"
            "<thead><tr><th>metric</th><th>recall</th><th>precision</th><th>F1</th></tr></thead>"
            f"<tbody>{rows}</tbody>{foot}</table>"
        )


#: A Result's attributes, all of which a _RowResult answers (some from its class, some made on first read).
_RESULT_ATTRIBUTES = ("counts_matrix", "columns", "doc_names", "metrics", "analyses", "blanc_rule", "duplicates",
                      "warnings", "key", "response", "options", "n_duplicates", "_scores")


class _RowResult(Result):
    """The Result of one document named "0" scored on the per-call road, without repeated mentions or warnings.

    ``score()`` of span lists makes one in a validation loop's every step, so
    it is made of its counts alone: an instance holds ``_row``, the engine's
    counts row as bytes, and its class (:meth:`Result._row_class`, one per
    options and applied metrics) the attributes those Results share.
    ``counts_matrix``, ``doc_names``, ``duplicates`` and ``warnings`` are
    made on first read, the scores from the row without NumPy (and with the
    columns' layout its class holds: parsing 111 column names took most of a
    first read's time). A copy or a
    pickle of one is a plain :class:`Result` with the same attributes.
    """

    __slots__ = ("_row",)

    def __init__(self, row: bytes) -> None:  # (not Result's: the class holds the rest)
        self._row = row

    def __getattr__(self, name: str) -> Any:
        """The attributes made on first read (then kept in the instance, where later reads find them)."""
        if name == "counts_matrix":
            import numpy as np

            value = np.frombuffer(self._row, dtype=np.float64).reshape(1, -1).copy()
        elif name == "doc_names":
            value = ["0"]
        elif name == "duplicates" or name == "warnings":
            value = []
        else:
            raise AttributeError(f"'Result' object has no attribute {name!r}")
        self.__dict__[name] = value
        return value

    @property
    def n_documents(self) -> int:
        return 1

    def _one(self, metric: str) -> MetricScore:
        """One scored metric's MetricScore, made on its first read (a validation loop reads one or three)."""
        own = self.__dict__
        made = own.get("_made")
        if made is None:
            made = own["_made"] = {}
        found = made.get(metric)
        if found is None:
            row = own.get("_counts_row") or own.setdefault("_counts_row", memoryview(self._row).cast("d").tolist())
            found = made[metric] = _metric_scores(row, self._layout, (metric,), self.blanc_rule)[metric]
        return found

    def _all(self) -> dict[str, MetricScore]:
        if self._scores is None:
            self._scores = {m: self._one(m) for m in self.metrics}
        return self._scores

    def __getitem__(self, metric: str) -> MetricScore:
        if metric not in self.metrics:
            return super().__getitem__(metric)  # (which says why not)
        return self._one(metric)

    @property
    def conll_f1(self) -> float | None:
        if not all(m in self.metrics for m in _arith.CONLL_METRICS):
            return None
        return conll_f1_of({m: self._one(m) for m in _arith.CONLL_METRICS})

    def __reduce__(self) -> tuple:
        state = {name: getattr(self, name) for name in _RESULT_ATTRIBUTES}
        # Attributes set on this Result since it was made, without the per-call caches of _one.
        state.update((k, v) for k, v in self.__dict__.items() if k not in ("_made", "_counts_row"))
        return _plain_result, (state,)


def _plain_result(state: dict[str, Any]) -> Result:
    """A plain Result with these attributes: what a copy or a pickle of a _RowResult gives."""
    result = _new(Result)
    result.__dict__.update(state)
    return result
