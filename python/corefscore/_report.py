"""The text output of the CoNLL reference scorer v8.01, printed from per-document counts.

``corefscore METRIC KEY RESPONSE [none|DOCNAME]`` prints what ``perl scorer.pl``
prints for the same files, line for line, so that scripts which read its output
keep working. Everything here is arithmetic and formatting on the engine's
additive counts; this module imports nothing beyond the standard library and
the NumPy-free ``_arith``, so that the drop-in command starts fast.
:class:`Totals` gives ``corefscore score``'s table from ``_arith``'s lines
(the scores of ``Result``, without NumPy).

What is printed, per metric (``all`` prints MUC, B-cubed, CEAF_m, CEAF_e and
BLANC, each after a ``METRIC name:`` line)::

    version: 8.01 PATH
    NAME:                                  one block per document, unless "none"
    Total key mentions: 10
    Total response mentions: 9
    Strictly correct identified mentions: 9
    Partially correct identified mentions: 0
    No identified: 1
    Invented: 0
    Recall: (3 / 6) 50%<TAB>Precision: (3 / 5) 60%<TAB>F1: 54.54%
    --------------------------------------------------------------------------

    ====== TOTALS =======
    Identification of Mentions: Recall: ... (the same layout)
    Coreference: Recall: ...

BLANC prints no per-document score line; its totals are ``Coreference
links:``, ``Non-coreference links:`` and ``BLANC:`` lines (the latter with
denominators 1, as the reference prints them).

Numbers are printed as Perl prints them: integral values without decimals,
others with 15 significant digits (Perl's ``%.15g``); percentages are
truncated, not rounded: ``int(100 * 100 * x) / 100``.

Differences from the reference, on purpose:

- documents come in key-file order (the reference follows Perl's hash order,
  which changes from run to run);
- the reference's VERBOSE entity dumps (``====> NAME:``, ``File NAME:``,
  ``Entity k: (s,e) ...``) are not printed: they list token spans, which the
  counts do not carry;
- repeated mentions are scored (first occurrence kept) and reported on
  standard error, instead of the reference's ``Repeated mention in the ...``
  lines on standard output and its refusal beyond ten (a process-wide count,
  so ``all`` refuses at the second metric of a response with six repeats);
- a mention repeated in the *key*: the engine keeps its first occurrence,
  while the reference leaves both occurrences in the key's chains, which
  changes its MUC, B-cubed, CEAF and BLANC counts (OntoGUM has six such
  documents); the identification lines still match (the reference counts the
  repeat as "Invented", and so do we);
- document names lose trailing blanks (the Go readers trim
  ``#begin document NAME``); a DOCNAME argument matches with or without them;
- non-integer numerators of large corpora may differ in the 15th significant
  digit (the same fractions summed in another order);
- the ``version:`` line names this file instead of ``CorScorer.pm``.

Kept on purpose: in per-document mode BLANC prints ``:`` where the document
name belongs (the reference prints an undefined variable there).
"""

from __future__ import annotations

import os

from ._arith import RP_COUNTS

# Control characters (a newline, CR, NUL, ...) and the Unicode line and paragraph separators, as the escapes
# repr() writes: a document name with one must not split a printed line (str.translate: no `re` at start-up).
_LINE_SAFE = {c: repr(chr(c))[1:-1] for c in (*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029)}


def display_name(name: str) -> str:
    """A document name as printed on one line of a table or of the drop-in form: control characters escaped."""
    return name.translate(_LINE_SAFE)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # collections.abc imports collections: ~4 ms of the command line's start-up
    from collections.abc import Sequence

#: The reference scorer version whose output is reproduced.
REFERENCE_VERSION = "8.01"
#: What ``all`` scores, in the reference's order.
REFERENCE_METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")
#: The rule printed after every score line.
RULE = "-" * 74
#: The four standard counts of a metric, in the order the reference prints them (the engine's column order).
RP = RP_COUNTS


def perl_number(x: float) -> str:
    """Format a number as Perl's ``print`` does.

    Integral values (below 1e15 in magnitude) print as integers, everything
    else with 15 significant digits (``%.15g``, Perl's default output format
    for floating-point values).

    Examples
    --------
    >>> perl_number(7.0), perl_number(13.366666666666667), perl_number(0.5)
    ('7', '13.3666666666667', '0.5')
    """
    x = float(x)
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.15g}"


def percent(x: float) -> str:
    """A fraction as the reference prints it in percent: truncated to two decimals.

    ``int(x * 10000) / 100`` in Perl, where ``int`` truncates toward zero.

    Examples
    --------
    >>> percent(7 / 12), percent(0.95), percent(2 / 3)
    ('58.33', '95', '66.66')
    """
    return perl_number(int(x * 10000) / 100)  # Python's int() truncates toward zero too


def rpf(num_r: float, den_r: float, num_p: float, den_p: float, f1: float | None = None) -> str:
    """The reference's score line (``ShowRPF``) and the dashed rule after it.

    Recall ``num_r / den_r`` and precision ``num_p / den_p`` are 0 when the
    denominator is 0; F1 is ``2 P R / (P + R)`` (0 when ``P + R`` is 0) unless
    given: the lines of ``_arith``, which follow the reference's order of
    operations. Returns two lines joined by ``"\n"``, without a final newline.

    Examples
    --------
    >>> print(rpf(3, 6, 3, 5))  # doctest: +NORMALIZE_WHITESPACE
    Recall: (3 / 6) 50%	Precision: (3 / 5) 60%	F1: 54.54%
    --------------------------------------------------------------------------
    """
    from ._arith import scores_of

    counts = dict(zip(RP, (num_r, den_r, num_p, den_p)))
    s = scores_of("", counts.__getitem__)
    return (
        f"Recall: ({perl_number(num_r)} / {perl_number(den_r)}) {percent(s['recall'])}%"
        f"\tPrecision: ({perl_number(num_p)} / {perl_number(den_p)}) {percent(s['precision'])}%"
        f"\tF1: {percent(s['f1'] if f1 is None else f1)}%\n{RULE}"
    )


def blanc_scores(coref: Sequence[float], noncoref: Sequence[float], rule: str = "key") -> tuple[float, float, float]:
    """BLANC recall, precision and F1 from its two halves' summed counts (``_arith``'s BLANC, the reference's).

    Each half is ``(recall_num, recall_den, precision_num, precision_den)``.
    With ``rule="key"`` (the reference) a half counts when the key has links
    of that kind; ``rule="either"`` also counts it when the response has.
    Recall and precision are the means of the counted halves', F1 the mean of
    their F1s; with no half counted all three are 0.

    Examples
    --------
    >>> r, p, f = blanc_scores((9, 20, 9, 14), (57, 70, 57, 67))
    >>> perl_number(r), perl_number(p)
    ('0.632142857142857', '0.74680170575693')
    """
    from ._arith import scores_of

    counts = {f"{half}.{c}": float(v) for half, side in (("coref", coref), ("noncoref", noncoref))
              for c, v in zip(RP, side)}
    s = scores_of("blanc", counts.__getitem__, rule)
    return s["recall"], s["precision"], s["f1"]


def identification_lines(key: float, response: float, exact: float, key_repeats: int = 0) -> list[str]:
    """The six mention-identification lines the reference prints per document.

    Parameters
    ----------
    key, response : float
        Distinct key and response mentions (``mentions.recall_den``,
        ``mentions.precision_den``).
    exact : float
        Response mentions that are key mentions (``mentions.recall_num``).
    key_repeats : int
        Repeated key mentions dropped: the reference counts them among the
        "Invented" ones (it numbers every key occurrence).
    """
    return [
        f"Total key mentions: {perl_number(key)}",
        f"Total response mentions: {perl_number(response)}",
        f"Strictly correct identified mentions: {perl_number(exact)}",
        "Partially correct identified mentions: 0",
        f"No identified: {perl_number(key - exact)}",
        f"Invented: {perl_number(response - exact + key_repeats)}",
    ]


def version_line() -> str:
    """The first line: the reference's version and the path of the file that prints it."""
    return f"version: {REFERENCE_VERSION} {os.path.realpath(__file__)}"


class Report:
    """Per-document counts arranged for printing in the reference's layout.

    Parameters
    ----------
    doc_names : sequence of str
        Document names, in key-file order.
    rows : sequence of sequences of float
        One row of counts per document (NumPy rows or lists).
    columns : sequence of str
        The engine's column names (``"muc.recall_num"``, ...).
    key_repeats : sequence of int, optional
        Repeated key mentions per document (see :func:`identification_lines`).
    blanc_rule : {"key", "either"}
        How the ``BLANC:`` line combines the halves.
    """

    def __init__(
        self,
        doc_names: Sequence[str],
        rows: Sequence[Sequence[float]],
        columns: Sequence[str],
        key_repeats: Sequence[int] | None = None,
        blanc_rule: str = "key",
    ) -> None:
        if len(doc_names) != len(rows):
            raise ValueError(f"`rows` must have one row per document ({len(doc_names)}); got {len(rows)} instead.")
        self.doc_names = list(doc_names)
        self.rows = rows
        self.index = {name: i for i, name in enumerate(columns)}
        self.key_repeats = list(key_repeats) if key_repeats is not None else [0] * len(rows)
        self.blanc_rule = blanc_rule
        # Totals of the whole corpus per column prefix, and identification lines per
        # document: ``all`` prints each five times.
        self._totals: dict[str, list[float]] = {}
        self._ident: dict[int, list[str]] = {}

    def _counts(self, row: Sequence[float], prefix: str) -> list[float]:
        return [float(row[self.index[prefix + c]]) for c in RP]

    def _sum(self, rows: Sequence[int], prefix: str) -> list[float]:
        # Accumulated document by document, as the reference does (the same
        # additions in the same order, whichever way the loops are nested).
        every = len(rows) == len(self.rows)  # rows is sorted and distinct: every document
        if every and prefix in self._totals:
            return list(self._totals[prefix])
        total = []
        for c in RP:
            col = self.index[prefix + c]
            t = 0.0
            for i in rows:
                t += float(self.rows[i][col])
            total.append(t)
        if every:
            self._totals[prefix] = list(total)
        return total

    def _identification(self, i: int) -> list[str]:
        if i < 0:  # a document the key lacks: the reference scores it as empty
            return identification_lines(0, 0, 0)
        lines = self._ident.get(i)
        if lines is None:
            exact, key, _, response = self._counts(self.rows[i], "mentions.")
            lines = self._ident[i] = identification_lines(key, response, exact, self.key_repeats[i])
        return lines

    def metric(self, metric: str, mode: str | None = None) -> list[str]:
        """The lines the reference prints for one metric.

        Parameters
        ----------
        metric : str
            A metric the counts have (``"muc"``, ``"blanc"``, ``"lea"``, ...).
        mode : str or None
            ``None``: a block per document, then the totals; ``"none"``: the
            totals only; any other string: that document alone (a document
            the key lacks scores as empty, as in the reference).
        """
        if metric != "blanc" and metric + ".recall_num" not in self.index:
            raise ValueError(f"`metric` must be one of the scored metrics; got {metric!r} instead.")
        out: list[str] = []
        if mode is None:
            selected = list(range(len(self.rows)))
        elif mode == "none":
            selected = list(range(len(self.rows)))
        else:
            selected = [i for i, n in enumerate(self.doc_names) if n == mode][:1]
        verbose = mode != "none"
        if mode is not None and mode != "none":
            out.append(f"{display_name(mode)}:")
            docs = selected or [-1]
        else:
            docs = selected if verbose else []
        for i in docs:
            if mode is None:
                # The reference prints an undefined variable for BLANC's document name.
                out.append(":" if metric == "blanc" else f"{display_name(self.doc_names[i])}:")
            out.extend(self._identification(i))
            if metric != "blanc":
                row = self._counts(self.rows[i], metric + ".") if i >= 0 else [0.0] * 4
                out.append(rpf(*row))
        out.append("")
        out.append("====== TOTALS =======")
        out.append("Identification of Mentions: " + rpf(*self._sum(selected, "mentions.")))
        if metric == "blanc":
            coref = self._sum(selected, "blanc.coref.")
            noncoref = self._sum(selected, "blanc.noncoref.")
            out.append("")
            out.append("Coreference:")
            out.append("Coreference links: " + rpf(*coref))
            out.append("Non-coreference links: " + rpf(*noncoref))
            r, p, f = blanc_scores(coref, noncoref, self.blanc_rule)
            out.append("BLANC: " + rpf(r, 1, p, 1, f))
        else:
            out.append("Coreference: " + rpf(*self._sum(selected, metric + ".")))
        return out

    def render(self, metric: str, mode: str | None = None) -> str:
        """The whole output of ``scorer.pl METRIC KEY RESPONSE [mode]``, with a final newline.

        ``metric="all"`` prints MUC, B-cubed, CEAF_m, CEAF_e and BLANC, each
        after an empty line and ``METRIC name:``.
        """
        lines = [version_line()]
        if metric == "all":
            for m in REFERENCE_METRICS:
                lines.append("")
                lines.append(f"METRIC {m}:")
                lines.extend(self.metric(m, mode))
        else:
            lines.extend(self.metric(metric, mode))
        return "\n".join(lines) + "\n"


class MetricTotal:
    """Recall, precision, F1 and ``counted`` of one metric over a whole batch (the attributes of a ``MetricScore``)."""

    __slots__ = ("counted", "f1", "precision", "recall")

    def __init__(self, recall: float, precision: float, f1: float, counted: bool = True) -> None:
        self.recall, self.precision, self.f1, self.counted = recall, precision, f1, counted

    def __repr__(self) -> str:
        return (f"MetricTotal(recall={self.recall!r}, precision={self.precision!r}, f1={self.f1!r}, "
                f"counted={self.counted!r})")

    def shown(self) -> tuple[float, float, float] | None:
        """``(recall, precision, f1)`` as views show them: None when there was nothing to count."""
        return (self.recall, self.precision, self.f1) if self.counted else None


class Totals:
    """Micro-averaged scores of a batch from the engine's per-document counts, in plain Python.

    What ``corefscore score`` prints without ``--json``, ``--ci``, ``--per-doc``
    or a macro average, without importing NumPy (whose import takes longer
    than reading and scoring a 30 MB corpus). The numbers are those of
    ``Result``: each column is summed document by document, in key order (the
    order of NumPy's sum over the documents' axis), and the scores are those
    of the same lines, ``_arith.scores_of``, on floats instead of arrays.

    Parameters
    ----------
    counts : sequence of float
        ``n_documents`` rows of ``len(columns)`` counts, flat and row-major
        (the engine's ctypes array, or a list).
    n_documents : int
    columns : sequence of str
        The engine's column names.
    metrics : sequence of str
        The metrics the engine applied; those without recall and precision
        (count-only analyses) are in ``analyses``, as in ``Result``.
    blanc_rule : {"key", "either"}
    """

    def __init__(self, counts: Sequence[float], n_documents: int, columns: Sequence[str], metrics: Sequence[str],
                 blanc_rule: str = "key") -> None:
        from . import _arith

        width = len(columns)
        if len(counts) != n_documents * width:
            raise ValueError(f"`counts` must hold {n_documents} rows of {width} columns; got {len(counts)} values.")
        flat = counts[:] if not isinstance(counts, list) else counts  # a ctypes array's items as one list
        sums = [0.0] * width
        for start in range(0, n_documents * width, width):
            sums = [s + c for s, c in zip(sums, flat[start:start + width])]
        self.sums = sums
        self.n_documents = n_documents
        self.metrics, self.analyses = _arith.split_scored(tuple(columns), tuple(metrics))
        lay = _arith.layout(columns)
        self._scores: dict[str, MetricTotal] = {}
        for m in self.metrics:
            s = _arith.scores_of(m, lambda suffix, idx=lay[m]: sums[idx[suffix]], blanc_rule)
            self._scores[m] = MetricTotal(s["recall"], s["precision"], s["f1"], s["counted"])
        self.counts = {a: {k: sums[i] for k, i in lay[a].items()} for a in self.analyses}

    def __getitem__(self, metric: str) -> MetricTotal:
        return self._scores[metric]

    def __contains__(self, metric: object) -> bool:
        return metric in self._scores

    def items(self) -> list[tuple[str, MetricTotal]]:
        """``(name, MetricTotal)`` pairs in engine order."""
        return list(self._scores.items())

    @property
    def conll_f1(self) -> float | None:
        """Mean F1 of MUC, B-cubed and CEAF_e, or None if one was not scored or had nothing to count."""
        from ._arith import CONLL_METRICS

        if not all(m in self._scores and self._scores[m].counted for m in CONLL_METRICS):
            return None
        return sum(self._scores[m].f1 for m in CONLL_METRICS) / len(CONLL_METRICS)

    def na_warnings(self) -> list[str]:
        """A line for each metric with nothing to count (shown as n/a), saying why."""
        from ._arith import na_warnings

        return na_warnings(self._scores.items())
