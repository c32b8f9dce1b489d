"""Error analysis results: :class:`Analysis` and its records (:class:`ErrorRecord`).

The engine finds the errors (Kummerfeld & Klein 2013: seven categories;
Martschat & Strube 2014: recall and precision link errors); this layer holds
them in the caller's terms: document names, mentions as the caller gave them
(token spans ``(start, end)`` for files), the key's and the response's
cluster ids (the index of the entity in its document, for files).
"""

from __future__ import annotations

import html as _html
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np

#: The seven Kummerfeld-Klein categories, then the two Martschat-Strube link errors.
KK_CATEGORIES = ("span_error", "conflated_entities", "extra_mention", "extra_entity", "divided_entity",
                 "missing_mention", "missing_entity")
MS_CATEGORIES = ("recall_error", "precision_error")
CATEGORIES = KK_CATEGORIES + MS_CATEGORIES
_TYPES = (None, "name", "nominal", "pronoun")


class ErrorRecord(NamedTuple):
    """One error: its document, category, the mentions involved and the entities they belong to.

    ``mentions`` follow the engine's order per category (a span error is
    ``(response mention, key mention)``; a link error ``(anaphor,
    antecedent)``). ``key_entities`` and ``response_entities`` are cluster
    ids (``-1`` in a link error for a mention absent from that side);
    ``types`` are the link ends' mention types when known.
    """

    document: str
    category: str
    mentions: tuple
    key_entities: tuple
    response_entities: tuple
    types: tuple = ()


class Analysis:
    """The errors of a response against a key, from :func:`corefscore.analyze` or :func:`analyze_files`.

    Attributes
    ----------
    counts : dict
        Category -> number of errors, summed over documents (every category,
        zeros included); they equal the ``kk`` and ``ms`` counts columns of
        :func:`corefscore.score` with ``metrics=["kk", "ms"]``.
    errors : list of ErrorRecord
        One record per error, in document order.
    documents : list of str
        The document names, in the key's order.
    name : str
        A label for plots and tables (the response file's name for files).
    """

    def __init__(self, errors: list[ErrorRecord], documents: list[str], name: str = "response",
                 warnings: list[str] | None = None) -> None:
        self._errors: list[ErrorRecord] | None = errors
        self._raw: dict | None = None
        self.documents, self.name = documents, name
        self.warnings = warnings or []
        counts = dict.fromkeys(CATEGORIES, 0)
        for e in errors:
            counts[e.category] = counts.get(e.category, 0) + 1
        self.counts = counts

    @classmethod
    def _of(cls, raw: dict, name: str) -> Analysis:
        """From the engine's arrays; the records are built on first use of :attr:`errors`."""
        a = cls([], list(raw["names"]), name, raw.get("warnings") or [])
        per = raw["category"].astype(np.int64)
        for code, n in enumerate(np.bincount(per, minlength=len(CATEGORIES) + 1)[1:], 1):
            a.counts[CATEGORIES[code - 1]] = int(n)
        a._errors, a._raw = None, raw
        return a

    def _engine_arrays(self) -> dict | None:
        """The engine's arrays behind the records while :attr:`errors` has not built them, else None.

        For readers that want every error without a Python object each (the
        report): the keys of :func:`corefscore._lib.analyze_files`'s result.
        """
        return self._raw

    @property
    def errors(self) -> list[ErrorRecord]:
        """One :class:`ErrorRecord` per error, in document order."""
        if self._errors is None:
            self._errors = self._records(self._raw)
            self._raw = None
        return self._errors

    def _records(self, raw: dict) -> list[ErrorRecord]:
        names, mention_of = raw["names"], raw["mention_of"]
        doc, cat = raw["doc"].tolist(), raw["category"].tolist()
        mo, ko, ro = (raw[k].tolist() for k in ("mention_offsets", "key_offsets", "response_offsets"))
        ms, ks, rs = raw["mentions"].tolist(), raw["key_entities"].tolist(), raw["response_entities"].tolist()
        types = raw["types"].tolist()
        errors = []
        for i, d in enumerate(doc):
            c = CATEGORIES[cat[i] - 1]
            t = tuple(_TYPES[x] for x in types[i]) if c in MS_CATEGORIES and all(types[i]) else ()
            errors.append(ErrorRecord(names[d], c, tuple(mention_of(d, m) for m in ms[mo[i]:mo[i + 1]]),
                                      tuple(ks[ko[i]:ko[i + 1]]), tuple(rs[ro[i]:ro[i + 1]]), t))
        return errors

    def __iter__(self) -> Iterator[ErrorRecord]:
        return iter(self.errors)

    def __len__(self) -> int:
        return sum(self.counts.values())

    def by_document(self) -> dict[str, list[ErrorRecord]]:
        """The records grouped by document name (every document, empty lists included)."""
        out: dict[str, list[ErrorRecord]] = {d: [] for d in self.documents}
        for e in self.errors:
            out.setdefault(e.document, []).append(e)
        return out

    def to_pandas(self) -> Any:
        """The records as a pandas DataFrame, one row each (columns as :class:`ErrorRecord`'s fields)."""
        import pandas as pd

        return pd.DataFrame.from_records([e._asdict() for e in self.errors], columns=list(ErrorRecord._fields))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in self.counts.items() if v)
        n = sum(self.counts.values())
        return f"Analysis({self.name!r}, {len(self.documents)} documents, {n} errors: {shown or 'none'})"

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{_html.escape(k)}</td><td style='text-align:right'>{v}</td></tr>"
                       for k, v in self.counts.items())
        return (f"<table><caption>{_html.escape(self.name)}: errors by category "
                f"({len(self.documents)} documents)</caption><thead><tr><th>category</th><th>errors</th></tr>"
                f"</thead><tbody>{rows}</tbody></table>")
