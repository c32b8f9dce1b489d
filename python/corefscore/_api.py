"""The public scoring functions and the streaming Scorer: inputs in, :class:`Result` out."""

from __future__ import annotations

import json
import threading
import warnings as _warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from . import _engine, _lib
from ._analysis import Analysis
from ._convert import ArraySide, convert
from ._engine import Options, Scores
from ._result import Result

_new = object.__new__


class DuplicateMentionWarning(UserWarning):
    """A mention occurs more than once on one side of a document."""


def metric_names() -> tuple[str, ...]:
    """Every metric the engine computes, in column order.

    Examples
    --------
    >>> from corefscore import metric_names
    >>> {"muc", "bcub", "ceafe", "blanc", "lea"} <= set(metric_names())
    True
    """
    return _lib.metric_names()


_default_options: Options | None = None


def _options(metrics: Any = None, singletons: str | None = None, duplicates: str = "warn", blanc_rule: str = "key",
             workers: int | None = None, link_weights: Any = None, da_weights: Any = None, da_greedy: bool = False,
             **more: Any) -> Options:
    if more.get("sums") == "reference-totals":
        # Under it a tied document's CEAF_e row may hold any of its optimal alignments' sums: only the
        # totals are the reference's. The command line's totals-only drop-in form asks for it, and prints
        # no row; a call that returns rows would show road-dependent numbers.
        raise ValueError(
            "sums='reference-totals' makes only the corpus totals the reference scorer's, not each document's "
            "counts, and is for `corefscore METRIC KEY RESPONSE none`; use sums='reference' (every document's "
            "counts as the reference scorer sums them) or sums='exact'."
        )
    return _engine.options(metrics=metrics, singletons=singletons, duplicates=duplicates, blanc_rule=blanc_rule,
                           workers=workers, link_weights=link_weights, da_weights=da_weights, da_greedy=da_greedy,
                           **more)


_by_value: dict[tuple, Options] = {}


def _options_by_value(options: dict[str, Any]) -> Options:
    """The Options of a call's keywords, cached by their types and values (lists as tuples): one dict lookup."""
    try:  # the type too: True == 1 == 1.0 as keys, but the engine reads them differently ("true", "1", "1.0")
        key = tuple([(k, type(v), tuple(v) if type(v) is list else v) for k, v in options.items()])
        found = _by_value.get(key)
    except TypeError:  # an unhashable value: no cache
        return _options(**options)
    if found is None:
        found = _options(**options)
        if len(_by_value) >= 256:
            _by_value.pop(next(iter(_by_value)))
        _by_value[key] = found
    return found


def _report(scores: Scores, opts: Options, stacklevel: int) -> list[str]:
    """Warning lines for the Result, and a DuplicateMentionWarning under duplicates='warn'."""
    if not (scores.n_duplicates or scores.warnings):
        return []
    lines = _engine.warning_lines(scores)
    if scores.n_duplicates and opts.duplicates == "warn":
        _warnings.warn(f"corefscore: {lines[-1]}", DuplicateMentionWarning, stacklevel=stacklevel + 1)
    return lines


def _is_mapping(x: Any) -> bool:
    """isinstance(x, Mapping), answered without the ABC check for the lists and tuples of the per-call path."""
    return type(x) is not list and type(x) is not tuple and isinstance(x, Mapping)


def _row_class(opts: Options, mask: int) -> type[Result]:
    """The class of the per-call road's Results of these options and applied metrics (made once)."""
    cls = opts.row_classes[mask] = Result._row_class(_lib._columns, _engine.applied(mask), opts.blanc_rule,
                                                     opts.values)
    return cls


def _result(scores: Scores, opts: Options, warnings: list[str], stacklevel: int) -> Result:
    if scores.n_duplicates or scores.warnings:
        warnings = warnings + _report(scores, opts, stacklevel + 1)
    return Result._of(scores.counts, _lib._columns, scores.names, scores.metrics, opts.blanc_rule,
                      scores.duplicates, warnings, opts.values, scores.n_duplicates)


def score(key: Any, response: Any, *, mention_types: Mapping[Any, Any] | None = None, **options: Any) -> Result:
    """Score one document: a key and a response partition of mentions.

    Parameters
    ----------
    key, response : sequence of clusters, or ArraySide
        Each cluster is a sequence of mentions: ``(start, end)`` pairs, ints or
        any hashable compared by value (NumPy scalars and torch tensors are
        converted to ints). Or an :class:`ArraySide` of arrays or tensors.
    mention_types : mapping, optional
        Mention -> ``"name"``, ``"nominal"``, ``"pronoun"`` (or 1-3), for the
        metrics that read types; both sides share it.
    metrics : str or sequence of str, optional
        Metric names (:func:`metric_names`); by default every metric that
        applies (those that read types only when types are given).
    singletons : {"keep", "exclude"}
        One-mention clusters (default keep).
    match : {"exact", "partial", "head"}
        How key and response mentions are paired (default exact); partial and
        head need mention heads: CoNLL-U files, or CoNLL-2012 files with a POS
        column (``score_files``).
    zero_match : {"linear", "dependent", "dependent-strict"}
        How zero mentions (CoNLL-U empty nodes) are aligned (default linear).
        ``"dependent"`` pairs mentions as the CorefUD scorer's metrics look
        them up; ``"dependent-strict"`` follows its alignment alone (README,
        "CorefUD and the CRAC shared tasks").
    preset : {"crac", "conll"}
        Several options at once: ``"crac"`` is head matching, singletons
        excluded and dependent zeros (the CRAC 2023-2024 ranking). It applies
        first, so the other keywords override it.
    duplicates : {"warn", "ignore", "raise"}
        A mention listed twice on one side: the first occurrence is scored and
        the repetition reported (``Result.duplicates``, and a
        :class:`DuplicateMentionWarning` under ``"warn"``), or refused.
    blanc_rule : {"key", "either"}
    workers : int, optional
    link_weights, da_weights, da_greedy :
        Parameters of the linguistically aware metrics and DA (README).

    Raises
    ------
    CorefScoreInputError (a ValueError), TypeError
        Naming the document, the side and the mention as given.

    Examples
    --------
    The worked example of Pradhan et al. (2014, section 4): MUC recall and
    precision are both 2/5.

    >>> from corefscore import score
    >>> key = [["a", "b", "c"], ["d", "e", "f", "g"]]
    >>> response = [["a", "b"], ["c", "d"], ["f", "g", "h", "i"]]
    >>> r = score(key, response)
    >>> r["muc"].recall, r["muc"].precision
    (0.4, 0.4)
    """
    global _default_options
    if options:
        opts = _options_by_value(options)
    else:  # the per-call path of a validation loop: no option to look up
        opts = _default_options = _default_options or _options()
    if mention_types is None:
        found = _lib.score_marshal(key, response, opts.marshal_handle or opts.per_call_handle())  # (the per-call road)
        if found is not None:  # (row, applied mask): the per-call road's Result holds the row alone
            row, mask = found
            result = _new(opts.row_classes.get(mask) or _row_class(opts, mask))
            result._row = row.tobytes()
            return result
    return _result(_engine.score_docs([convert(key, response, "0", mention_types)], ["0"], opts, False), opts, [], 2)


def _empty_like(side: Any) -> Any:
    if isinstance(side, ArraySide):
        shape = (0,) if side.mentions is None or np.ndim(side.mentions) == 1 else (0, 2)
        return ArraySide(np.zeros(shape, np.int64), np.zeros(0, np.int64))
    return []


def _allows_disjoint(opts: Options) -> bool:
    return str(opts.values.get("allow_disjoint", "")).lower() in ("true", "1")


def _doc_names(names: list[str], which: list[int]) -> str:
    """The first three of the names ``which`` indexes, quoted, "and n more" after them (as the engine lists them)."""
    shown = ", ".join(json.dumps(names[i], ensure_ascii=False) for i in which[:3])
    return shown + (f" and {len(which) - 3} more" if len(which) > 3 else "")


def _unique_names(docs: Mapping, arg: str) -> list[str]:
    """The documents' names as strings, refusing two keys that print as one name (``1`` and ``"1"``)."""
    names = [str(n) for n in docs]
    if len(set(names)) < len(names):
        seen: dict[str, Any] = {}
        for n in docs:
            if str(n) in seen:
                raise ValueError(f"`{arg}` must name each document once; got the keys {seen[str(n)]!r} and {n!r}, "
                                 f"which are both the document {str(n)!r}.")
            seen[str(n)] = n
    return names


def _pair(key_docs: Any, response_docs: Any, names: Sequence[str] | None, mention_types: Any = None,
          first: int = 0, allow_disjoint: bool = False) -> tuple[list, list[str], bool, list[str], list]:
    """(pairs, names, named?, warnings, per-document mention_types): mappings by name, sequences by position.

    Mappings pair as files do (``conll.Pair``): no name in common is refused unless ``allow_disjoint``; key
    documents without a response and response-only documents are one summary warning each.
    """
    if isinstance(key_docs, Mapping) or isinstance(response_docs, Mapping):
        if not (isinstance(key_docs, Mapping) and isinstance(response_docs, Mapping)):
            raise TypeError("`key_docs` and `response_docs` must both be mappings (paired by name) or both "
                            f"sequences; got {type(key_docs).__name__} and {type(response_docs).__name__}.")
        if mention_types is not None and not isinstance(mention_types, Mapping):
            raise TypeError("`mention_types` must be a mapping document name -> mapping when documents are "
                            f"mappings; got {type(mention_types).__name__}.")
        key_names = _unique_names(key_docs, "key_docs")
        resp_names = _unique_names(response_docs, "response_docs")
        missing = [i for i, n in enumerate(key_docs) if n not in response_docs]
        extra = [j for j, n in enumerate(response_docs) if n not in key_docs]
        if key_docs and response_docs and len(missing) == len(key_docs) and not allow_disjoint:
            raise ValueError(f"`key_docs` and `response_docs` have no document name in common (key: "
                             f"{_doc_names(key_names, missing)}; response: {_doc_names(resp_names, extra)}); "
                             "check that they belong together; allow_disjoint=True scores every key document "
                             "against an empty response.")
        warns = []
        if missing:
            warns.append(f"{len(missing)} of {len(key_names)} key documents {'is' if len(missing) == 1 else 'are'} "
                         f"not in the response ({_doc_names(key_names, missing)}): scored against an empty response")
        if extra:
            warns.append(f"{len(extra)} of {len(resp_names)} response documents {'is' if len(extra) == 1 else 'are'} "
                         f"not in the key ({_doc_names(resp_names, extra)}): ignored")
        pairs = [(k, response_docs[n] if n in response_docs else _empty_like(k)) for n, k in key_docs.items()]
        types = [mention_types.get(n) for n in key_docs] if mention_types is not None else [None] * len(pairs)
        return pairs, key_names, True, warns, types
    for arg, docs in (("key_docs", key_docs), ("response_docs", response_docs)):
        if isinstance(docs, (str, bytes, ArraySide)) or not isinstance(docs, Sequence):
            raise TypeError(f"`{arg}` must be a sequence of documents or a mapping name -> document; "
                            f"got {type(docs).__name__}.")
    if len(key_docs) != len(response_docs):
        raise ValueError(f"`response_docs` must have one document per key document ({len(key_docs)}); "
                         f"got {len(response_docs)}.")
    if mention_types is None:
        types = [None] * len(key_docs)
    elif isinstance(mention_types, Mapping) or not isinstance(mention_types, Sequence) or \
            len(mention_types) != len(key_docs):
        raise ValueError(f"`mention_types` must be a sequence of one mapping (or None) per document "
                         f"({len(key_docs)}); got {type(mention_types).__name__}.")
    else:
        types = list(mention_types)
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(key_docs):
            raise ValueError(f"`names` must have one name per document ({len(key_docs)}); got {len(names)}.")
        return list(zip(key_docs, response_docs)), names, True, [], types
    return list(zip(key_docs, response_docs)), [str(first + i) for i in range(len(key_docs))], False, [], types


def _score_pairs(pairs: list, names: list[str], named: bool, types: list, opts: Options) -> Scores:
    label = (lambda i: f"{i} ({names[i]!r})") if named else str
    docs = [convert(k, r, label(i), t) for i, ((k, r), t) in enumerate(zip(pairs, types))]
    return _engine.score_docs(docs, names, opts, named)


def score_corpus(key_docs: Any, response_docs: Any, *, names: Sequence[str] | None = None,
                 mention_types: Any = None, **options: Any) -> Result:
    """Score many documents in one engine call; corpus scores are sums of counts (micro averages).

    Parameters
    ----------
    key_docs, response_docs : sequence or mapping of documents
        Each document in any form :func:`score` accepts. Sequences pair by
        position; mappings by name (a key document with no response is scored
        against an empty one, as the reference scorer does; a response-only
        document is reported in ``Result.warnings``).
    names : sequence of str, optional
        Document names for sequences.
    mention_types : sequence or mapping, optional
        One mapping per document (None for an untyped one), paired like the documents.
    **options
        As in :func:`score`.

    Examples
    --------
    >>> from corefscore import score_corpus
    >>> keys = {"d1": [[1, 2, 3]], "d2": [[1, 2], [3]]}
    >>> responses = {"d1": [[1, 2], [3]], "d2": [[1, 2], [3]]}
    >>> r = score_corpus(keys, responses, metrics="muc")
    >>> r.counts["muc"]["recall_num"], r.counts["muc"]["recall_den"]
    (2.0, 3.0)
    >>> [round(d["muc"].recall, 2) for d in r.per_document()]
    [0.5, 1.0]
    """
    opts = _options(**options)
    pairs, doc_names, named, warns, types = _pair(key_docs, response_docs, names, mention_types,
                                                  allow_disjoint=_allows_disjoint(opts))
    if not pairs:
        raise ValueError("`key_docs` must hold at least one document; got an empty collection instead.")
    return _result(_score_pairs(pairs, doc_names, named, types, opts), opts, warns, 2)


def score_arrays(key_mentions: Any, key_clusters: Any, response_mentions: Any, response_clusters: Any, *,
                 key_types: Any = None, response_types: Any = None, **options: Any) -> Result:
    """Score one document given as arrays: ``(n, 2)`` spans or ``(n,)`` ids, and ``(n,)`` cluster ids.

    Examples
    --------
    >>> import numpy as np
    >>> from corefscore import score_arrays
    >>> spans = np.array([[0, 0], [2, 3], [5, 5]])
    >>> r = score_arrays(spans, np.array([0, 0, 1]), spans, np.array([0, 0, 0]), metrics="muc")
    >>> r["muc"].recall, r["muc"].precision
    (1.0, 0.5)
    """
    return score(ArraySide(key_mentions, key_clusters, key_types),
                 ArraySide(response_mentions, response_clusters, response_types), **options)


def score_labels(labels_true: Any, labels_pred: Any, **options: Any) -> Result:
    """Score label arrays over one shared mention list (scikit-learn style; ``-1`` = absent on that side).

    Both arrays must have one entry per mention of the shared list.

    Examples
    --------
    >>> from corefscore import score_labels
    >>> score_labels([0, 0, 1, 1], [5, 5, 2, 2])["bcub"].f1
    1.0
    """
    n_true, n_pred = (len(_convert_labels(x)) for x in (labels_true, labels_pred))
    if n_true != n_pred:
        raise ValueError(f"`labels_pred` must have one label per mention of `labels_true` ({n_true}); "
                         f"got {n_pred} instead. Mark a mention absent from one side with -1.")
    return score(ArraySide.from_labels(labels_true), ArraySide.from_labels(labels_pred), **options)


def _convert_labels(x: Any) -> np.ndarray:
    from ._convert import to_numpy

    return np.atleast_1d(np.asarray(to_numpy(x)))


def score_files(key_path: Any, response_path: Any, *, format: str | None = None, clusters_field: str | None = None,
                **options: Any) -> Result:
    """Read and score a key and a response file (CoNLL-2012, CorefUD CoNLL-U, jsonlines or CoNLL-UA), parsed in Go.

    Documents pair by name. ``format`` is detected when None. CoNLL-UA files
    (``format="ua"``, or a ``# global.columns`` header naming IDENTITY) take
    the Universal Anaphora modes ``split_antecedents="keep"|"exclude"|"only"``,
    ``non_referring``, ``bridging``, ``discourse_deixis`` and ``min_span``
    (README, "Universal Anaphora"). For jsonlines,
    responses are read from ``"clusters"``, else ``"predicted_clusters"``; a
    document with both is refused unless ``clusters_field`` names the field.

    Raises
    ------
    FileNotFoundError, CorefScoreInputError
        The latter naming the file, the line and the document.
    """
    opts = _options(format=format, clusters_field=clusters_field, **options)
    result = _result(_engine.score_files(key_path, response_path, opts), opts, [], 2)
    result.key, result.response = str(key_path), str(response_path)
    return result


class Scorer:
    """A streaming accumulator of per-document counts, for validation loops.

    ``update`` scores documents as they come; ``compute`` returns the
    :class:`Result` of everything since the last ``reset``. Counts add up,
    so workers of a distributed job can ``merge`` Scorers or sum ``counts``.

    Examples
    --------
    >>> from corefscore import Scorer
    >>> scorer = Scorer(metrics=["muc", "bcub", "ceafe"])
    >>> for key, response in [([[1, 2, 3]], [[1, 2], [3]]), ([[1, 2]], [[1, 2]])]:
    ...     scorer.update(key, response)
    >>> scorer.compute()["muc"].recall
    0.6666666666666666
    >>> scorer.reset(); scorer.n_documents
    0
    """

    def __init__(self, **options: Any) -> None:
        self._kwargs = options
        self._opts = _options(**options)
        self._lock = threading.Lock()
        self.reset()

    def __getstate__(self) -> dict[str, Any]:
        with self._lock:
            self._flush()
            return {k: v for k, v in self.__dict__.items() if k not in ("_lock", "_opts")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._pending, self._n_pending, self._mask = bytearray(), 0, None  # (absent from older pickles)
        self.__dict__.update(state)
        self._opts = _options(**self._kwargs)
        self._lock = threading.Lock()

    def reset(self) -> None:
        """Forget every document seen."""
        with self._lock:
            self._rows: list[np.ndarray] = []
            self._names: list[str] = []
            # The rows of the per-call road's documents since the last _flush, as the engine's bytes (a bytearray
            # grows geometrically: no array or list entry per document), and their number.
            self._pending = bytearray()
            self._n_pending = 0
            self._mask: int | None = None  # the last applied-metrics mask taken into _metrics by update()
            self._dups: list = []
            self._n_dups = 0
            self._warnings: list[str] = []
            self._metrics: tuple[str, ...] | None = None
            self._reduced: Result | None = None  # what all_reduce computed, until the next change

    @property
    def columns(self) -> tuple[str, ...]:
        """The engine's counts columns."""
        return _lib.columns()

    @property
    def n_documents(self) -> int:
        return len(self._names) + self._n_pending

    def _flush(self) -> None:
        """Move the pending rows into ``_rows``, named by their positions (the lock held)."""
        n = self._n_pending
        if n:
            self._rows.append(np.frombuffer(self._pending, dtype=np.float64).reshape(n, -1))
            self._names.extend(map(str, range(len(self._names), len(self._names) + n)))
            self._pending, self._n_pending = bytearray(), 0  # the array keeps the old bytes

    @property
    def counts_matrix(self) -> np.ndarray:
        """Per-document counts so far, shape (n_documents, n_columns)."""
        with self._lock:
            self._flush()
            rows = list(self._rows)
        return np.concatenate(rows, axis=0) if rows else np.zeros((0, len(_lib.columns())))

    @property
    def counts(self) -> np.ndarray:
        """Summed counts, shape (n_columns,): what distributed workers add up."""
        return self.counts_matrix.sum(axis=0)

    def _state(self) -> tuple:
        """(rows, names, duplicates, n_duplicates, warnings, metrics): what merging Scorers adds up."""
        with self._lock:
            self._flush()
            return (list(self._rows), list(self._names), list(self._dups), self._n_dups, list(self._warnings),
                    self._metrics)

    def _absorb(self, rows: list, names: list, dups: list, n_dups: int, warns: list,
                metrics: tuple[str, ...] | None, positional: bool = False) -> None:
        """Add documents; a metric is reported only if it applied to every batch (None: nothing scored).

        ``positional``: the documents are unnamed and take their positions as names, counted here, under the
        lock, so that threads sharing a Scorer never give two documents one name.
        """
        with self._lock:
            self._flush()
            self._reduced = None
            self._rows.extend(rows)
            if positional:
                names = [str(len(self._names) + i) for i in range(len(names))]
            self._names.extend(names)
            self._dups.extend(dups)
            self._n_dups += n_dups
            self._warnings.extend(warns)
            if metrics is not None and self._metrics is not metrics:
                self._metrics = metrics if self._metrics is None else tuple(m for m in self._metrics if m in metrics)

    def update(self, key: Any, response: Any, *, batch: bool = False, name: str | None = None,
               mention_types: Any = None) -> None:
        """Score one document, or a batch (``batch=True``, or two mappings paired by name)."""
        if name is None and mention_types is None and not batch:
            opts = self._opts  # the per-call road (_engine.score_marshal); None for mappings: not lists
            found = _lib.score_marshal(key, response, opts.marshal_handle or opts.per_call_handle())
            if found is not None:
                row, mask = found
                with self._lock:
                    self._reduced = None
                    self._pending += row
                    self._n_pending += 1
                    if mask != self._mask:  # (a mask seen last changes nothing: the intersection is kept)
                        self._mask, metrics = mask, _engine.applied(mask)
                        if self._metrics is not metrics:
                            self._metrics = metrics if self._metrics is None else \
                                tuple(m for m in self._metrics if m in metrics)
                return
        if batch or _is_mapping(key) or _is_mapping(response):
            pairs, names, named, warns, types = _pair(key, response, None, mention_types, self.n_documents,
                                                      _allows_disjoint(self._opts))
            scores = _score_pairs(pairs, names, named, types, self._opts)
        else:
            named = name is not None
            label = str(name) if named else str(self.n_documents)  # in messages; the name is given in _absorb
            doc = convert(key, response, label, mention_types)
            scores, warns = _engine.score_docs([doc], [label], self._opts, named), []
        if scores.n_duplicates or scores.warnings:
            warns = warns + _report(scores, self._opts, 2)
        self._absorb([scores.counts], scores.names, scores.duplicates, scores.n_duplicates, warns, scores.metrics,
                     positional=not named)

    def merge(self, other: Scorer) -> Scorer:
        """Add another Scorer's documents (same options) to this one; returns self."""
        if not isinstance(other, Scorer):
            raise TypeError(f"`other` must be a Scorer; got {type(other).__name__} instead.")
        if other._opts != self._opts:
            raise ValueError("`other` must have the same options as this Scorer; got different options instead.")
        self._absorb(*other._state())
        return self

    def add_counts(self, counts_matrix: Any, names: Sequence[str] | None = None) -> None:
        """Add rows of counts computed elsewhere (another process's ``counts_matrix``)."""
        arr = np.asarray(counts_matrix, dtype=np.float64)
        arr = arr.reshape(1, -1) if arr.ndim == 1 else arr
        ncol = len(_lib.columns())
        if arr.ndim != 2 or arr.shape[1] != ncol:
            raise ValueError(f"`counts_matrix` must have shape (n, {ncol}); got {arr.shape} instead.")
        if not np.isfinite(arr).all():
            raise ValueError("`counts_matrix` must be finite; got NaN or infinity instead.")
        labels = [str(self.n_documents + i) for i in range(len(arr))] if names is None else [str(n) for n in names]
        if len(labels) != len(arr):
            raise ValueError(f"`names` must have one name per row ({len(arr)}); got {len(labels)} instead.")
        with self._lock:
            self._flush()
            self._reduced = None
            self._rows.append(arr)
            self._names.extend(labels)

    def all_reduce(self, group: Any = None, *, rows: bool = False) -> Scorer:
        """Sum the counts of this Scorer on every process of a ``torch.distributed`` group; returns self.

        A collective call: every process of ``group`` (default: the whole
        world) must call it. Afterwards :meth:`compute` returns, on every
        process, the Result of all their documents, until this Scorer changes
        (``update``, ``merge``, ``add_counts``, ``reset``: compute() is local
        again, and another all_reduce sums afresh; nothing is counted twice).
        The Scorer's own rows, ``counts_matrix`` and ``n_documents`` stay local.

        Parameters
        ----------
        group : torch.distributed.ProcessGroup, optional
        rows : bool
            False (default): one ``all_reduce`` of a float64 vector (the column
            sums, the document and duplicate counts, which metrics applied);
            compute() returns a :class:`SummedResult`: corpus scores, counts
            and ``n_documents``, but no per-document rows (``per_document``,
            ``bootstrap`` and ``compare`` raise). True: every process's rows,
            document names, duplicates and warnings are gathered
            (``all_gather_object``; memory of the whole corpus's rows on every
            process) and compute() returns a full :class:`Result`, rows in
            rank order.

        A metric is reported only if it applied on every process that scored
        something (as :meth:`update` does across batches); with no document
        anywhere, the engine's default set for these options. Works with the
        gloo (CPU) and NCCL (the current CUDA device) backends.

        Raises
        ------
        ImportError
            Without torch (``pip install corefscore[torch]``).
        RuntimeError
            When no process group is initialised.
        """
        from ._distributed import all_reduce  # torch.distributed is not the core's business

        return all_reduce(self, group, rows=rows)

    def compute(self) -> Result:
        """The Result of every document since the last reset (of every process, after :meth:`all_reduce`)."""
        with self._lock:
            if self._reduced is not None:
                return self._reduced
            self._flush()
            names, dups, warns, n_dups = list(self._names), list(self._dups), list(self._warnings), self._n_dups
            metrics = self._metrics
        if metrics is None:  # nothing scored here (only add_counts): the engine's default set for these options
            metrics = _engine.score_docs([], [], self._opts, False).metrics
        return Result(self.counts_matrix, _lib.columns(), names, metrics, blanc_rule=self._opts.blanc_rule,
                      duplicates=dups, warnings=warns, options=self._opts.values, n_duplicates=n_dups)

    def __repr__(self) -> str:
        return f"Scorer({self.n_documents} documents)"


def _analysis_options(metrics: Any, options: dict) -> Options:
    """Options of an analysis: the analyses named by ``metrics`` (kk, ms; both by default) as the only output."""
    chosen = ["kk", "ms"] if metrics is None else [metrics] if isinstance(metrics, str) else list(metrics)
    if not chosen or any(m not in ("kk", "ms") for m in chosen):
        raise ValueError(f"`metrics` of an analysis names 'kk' and/or 'ms'; got {metrics!r}")
    return _options(outputs="analysis", analysis=chosen, **options)


def analyze(key: Any, response: Any, *, mention_types: Mapping[Any, Any] | None = None, metrics: Any = None,
            name: str = "response", **options: Any) -> Analysis:
    """The errors of a response against a key, one document (clusters as for :func:`score`).

    Kummerfeld & Klein (2013) categories (``metrics="kk"``) and Martschat &
    Strube (2014) recall and precision link errors (``"ms"``); both by
    default. Mentions in the records are the caller's mentions.

    >>> from corefscore import analyze
    >>> a = analyze([[(0, 0), (2, 2)], [(4, 4)]], [[(0, 0)], [(2, 2), (4, 4)]])
    >>> a.counts["conflated_entities"], a.counts["divided_entity"]
    (1, 1)
    """
    opts = _analysis_options(metrics, options)
    doc = convert(key, response, "0", mention_types)
    return Analysis._of(_engine.score_docs([doc], ["0"], opts, False), name)


def analyze_files(key_path: Any, response_path: Any, *, format: str | None = None, clusters_field: str | None = None,
                  metrics: Any = None, name: str | None = None, **options: Any) -> Analysis:
    """The errors of a response file against a key file (read and paired as by :func:`score_files`).

    Mentions in the records are ``(start, end)`` token spans (inclusive end,
    tokens counted across the document); entities are the documents' entity
    indices in order of first sight.
    """
    import os

    opts = _analysis_options(metrics, dict(format=format, clusters_field=clusters_field, **options))
    raw = _engine.analyze_files(key_path, response_path, opts)
    return Analysis._of(raw, name or os.path.basename(os.fspath(response_path)))


def _report_files(key_path: Any, response_path: Any, *, format: str | None = None,
                  clusters_field: str | None = None, name: str | None = None, words_limit: int | None = None,
                  **options: Any) -> tuple:
    """One read of each file for a report: ``(Result, Analysis, key documents, response documents)``.

    The Result is :func:`score_files`'s with ``options``; the Analysis is
    :func:`analyze_files`'s, the files read, paired and compared as for
    scoring; the documents are the raw arrays of
    :func:`corefscore._engine.report_files` (the key's with words; with
    ``words_limit``, only the first words of the file, at most that many
    bytes of them, while each document's ``sentence_ends`` still cover it
    whole).
    """
    import os

    opts = _options(format=format, clusters_field=clusters_field, **options, words_limit=words_limit,
                    outputs=["scores", "analysis", "key_documents", "response_documents"], analysis=["kk", "ms"])
    scores, raw, key_docs, resp_docs = _engine.report_files(key_path, response_path, opts)
    result = _result(scores, opts, [], 2)
    result.key, result.response = str(key_path), str(response_path)
    found = Analysis._of(raw, name or os.path.basename(os.fspath(response_path)))
    return result, found, key_docs, resp_docs
