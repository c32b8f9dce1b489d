"""The public scoring functions and the streaming Scorer."""

from __future__ import annotations

import functools
import re
import threading
import types
import warnings as _warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from . import _arith, _lib
from ._convert import ArraySide, Batch, Decoder, convert_batch, single_doc
from ._lib import CorefScoreInputError
from ._result import Duplicate, Result

#: Singleton policies (cs_options.singletons).
SINGLETONS = ("keep", "exclude")
#: Duplicate-mention policies: report with a warning, report silently, refuse.
DUPLICATES = ("warn", "ignore", "raise")
#: Metrics that need mention types; left out of the default set when no types are given.
TYPED_METRICS = _lib.TYPED_METRICS


class DuplicateMentionWarning(UserWarning):
    """A mention occurs more than once on one side of a document."""


def metric_names() -> tuple[str, ...]:
    """Every metric the engine computes, in engine (column) order.

    Examples
    --------
    >>> from corefscore import metric_names
    >>> {"muc", "bcub", "ceafe", "blanc", "lea"} <= set(metric_names())
    True
    """
    return _lib.metric_names()


class _Settings:
    """Validated options of one scoring call, with the cs_options struct built once."""

    __slots__ = ("blanc_rule", "duplicates", "explicit", "options", "struct", "struct_arg", "untyped")

    def __init__(
        self,
        metrics: tuple[str, ...] | None,
        singletons: str,
        duplicates: str,
        blanc_rule: str,
        workers: int | None,
        link_weights: tuple[float, ...] | None,
        da_weights: tuple[float, ...] | None,
        da_greedy: bool,
    ) -> None:
        known = _lib.metric_names()
        mask = 0
        if metrics is not None:
            for name in metrics:
                if name not in known:
                    raise ValueError(f"`metrics` must be names from {list(known)}; got {name!r} instead.")
            # Engine order, no repeats.
            metrics = tuple(m for m in known if m in metrics)
            if not metrics:
                raise ValueError(f"`metrics` must name at least one of {list(known)}; got none instead.")
            for m in metrics:
                mask |= 1 << known.index(m)
        if singletons not in SINGLETONS:
            raise ValueError(f"`singletons` must be one of {SINGLETONS}; got {singletons!r} instead.")
        if duplicates not in DUPLICATES:
            raise ValueError(f"`duplicates` must be one of {DUPLICATES}; got {duplicates!r} instead.")
        if blanc_rule not in _arith.BLANC_RULES:
            raise ValueError(f"`blanc_rule` must be one of {_arith.BLANC_RULES}; got {blanc_rule!r} instead.")
        if workers is None:
            workers = 0
        elif isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
            raise ValueError(f"`workers` must be None or an integer >= 1; got {workers!r} instead.")
        link = _weights(link_weights, 4, "link_weights")
        da = _weights(da_weights, 3, "da_weights")
        self.explicit = metrics
        self.untyped = tuple(m for m in known if m not in TYPED_METRICS)
        self.duplicates = duplicates
        self.blanc_rule = blanc_rule
        self.struct = _lib.make_options(
            metrics=mask,
            singletons=SINGLETONS.index(singletons),
            duplicates=0,  # repeated mentions are always reported; "raise" is applied in Python
            workers=int(workers),
            da_greedy=bool(da_greedy),
            link_weights=link,
            da_weights=da,
        )
        self.struct_arg = _lib.options_arg(self.struct)
        # Read-only: the settings are cached and shared by every Result made with them.
        self.options = types.MappingProxyType(
            {
                "singletons": singletons,
                "duplicates": duplicates,
                "blanc_rule": blanc_rule,
                "link_weights": link,
                "da_weights": da,
                "da_greedy": bool(da_greedy),
            }
        )

    def metrics(self, has_types: bool) -> tuple[str, ...]:
        """The metrics a Result reports."""
        if self.explicit is not None:
            return self.explicit
        if has_types:
            return _lib.metric_names()
        return self.untyped


def _weights(w: Any, n: int, name: str) -> tuple[float, ...] | None:
    if w is None:
        return None
    try:
        out = tuple(float(x) for x in w)
    except (TypeError, ValueError):
        raise TypeError(f"`{name}` must be a sequence of {n} numbers; got {w!r} instead.") from None
    if len(out) != n or any(x != x for x in out):
        raise ValueError(f"`{name}` must be {n} numbers (no NaN); got {w!r} instead.")
    return out


@functools.lru_cache(maxsize=64)
def _cached_settings(*args: Any) -> _Settings:
    return _Settings(*args)


def _settings(
    metrics: Any,
    singletons: str,
    duplicates: str,
    blanc_rule: str,
    workers: int | None,
    link_weights: Any = None,
    da_weights: Any = None,
    da_greedy: bool = False,
) -> _Settings:
    if metrics is not None:
        if isinstance(metrics, str):
            metrics = (metrics,)
        else:
            try:
                metrics = tuple(metrics)
            except TypeError:
                raise TypeError(
                    f"`metrics` must be a metric name or a sequence of names; got {metrics!r} instead."
                ) from None
        for m in metrics:
            if not isinstance(m, str):
                raise TypeError(f"`metrics` must contain metric names (str); got {m!r} instead.")
    if link_weights is not None:
        link_weights = _weights(link_weights, 4, "link_weights")
    if da_weights is not None:
        da_weights = _weights(da_weights, 3, "da_weights")
    try:
        return _cached_settings(
            metrics, singletons, duplicates, blanc_rule, workers, link_weights, da_weights, da_greedy
        )
    except TypeError:
        # An unhashable option value: validate without the cache (it raises the right error).
        return _Settings(metrics, singletons, duplicates, blanc_rule, workers, link_weights, da_weights, da_greedy)


def _records(
    recs: list[tuple[int, int, int, int, int]], decoders: Sequence[Decoder], names: Sequence[str]
) -> list[Duplicate]:
    return [
        Duplicate(names[d], "key" if s == 0 else "response", decoders[d](m), int(first), int(c))
        for d, s, m, first, c in recs
    ]


def _report(dups: list[Duplicate], policy: str, stacklevel: int) -> list[str]:
    """Apply the duplicate policy; return the warning lines."""
    if not dups:
        return []
    lines = [d.message() for d in dups]
    if policy == "raise":
        more = f" (and {len(dups) - 1} more)" if len(dups) > 1 else ""
        raise CorefScoreInputError(
            f"`key` and `response` must list each mention once per side; got {lines[0]}{more} "
            "instead. Pass duplicates='warn' to score the first occurrence."
        )
    if policy == "warn":
        more = f"; and {len(dups) - 1} more (see Result.duplicates)" if len(dups) > 1 else ""
        _warnings.warn(f"corefscore: {lines[0]}{more}", DuplicateMentionWarning, stacklevel=stacklevel + 1)
    return lines


_DOC_IN_MESSAGE = re.compile(r"^document (\d+)")
_MENTION_IN_MESSAGE = re.compile(r"\b(key|response) mention (-?\d+)")


def _in_callers_terms(exc: CorefScoreInputError, decoders: Sequence[Decoder]) -> CorefScoreInputError:
    """The engine's message with its mention ids replaced by the mentions as the caller gave them.

    The engine names a document by its index first (``document 3 ("name"): ...``)
    and a mention by its int64 id (``key mention 12 ...``); the document's
    decoder turns the id back into the caller's span, int or hashable.
    """
    msg = str(exc)
    found = _DOC_IN_MESSAGE.match(msg)
    if found is None or int(found.group(1)) >= len(decoders):
        return exc
    decode = decoders[int(found.group(1))]

    def mention(m: re.Match) -> str:
        try:
            return f"{m.group(1)} mention {decode(int(m.group(2)))!r}"
        except (IndexError, ValueError):
            return m.group(0)

    return CorefScoreInputError(_MENTION_IN_MESSAGE.sub(mention, msg))


def _engine(
    batch_key: tuple, batch_resp: tuple, settings: _Settings, names: bytes | None, decoders: Sequence[Decoder]
) -> tuple:
    try:
        return _lib.score_batch(batch_key, batch_resp, settings.struct, names)
    except CorefScoreInputError as exc:
        raise _in_callers_terms(exc, decoders) from None


def _engine_single(key: Any, response: Any, settings: _Settings) -> tuple:
    """Convert and score one document of list input: counts, duplicate records, decoder."""
    kid, kcl, rid, rcl, decoder = single_doc(key, response)
    try:
        return (*_lib.score_single(kid, kcl, rid, rcl, settings.struct_arg), decoder)
    except CorefScoreInputError as exc:
        raise _in_callers_terms(exc, [decoder]) from None


def _names_bytes(names: Sequence[str]) -> bytes:
    return "\n".join(n.replace("\n", " ") for n in names).encode("utf-8")


def score(
    key: Any,
    response: Any,
    *,
    metrics: str | Sequence[str] | None = None,
    singletons: str = "keep",
    duplicates: str = "warn",
    blanc_rule: str = "key",
    workers: int | None = None,
    link_weights: Sequence[float] | None = None,
    da_weights: Sequence[float] | None = None,
    da_greedy: bool = False,
    mention_types: Mapping[Any, Any] | None = None,
) -> Result:
    """Score one document: a key and a response partition of mentions.

    Parameters
    ----------
    key, response : sequence of clusters, or ArraySide
        Each cluster is a sequence of mentions: ``(start, end)`` tuples,
        ints, or any hashable (equal mentions on the two sides are the same
        mention). Or an :class:`ArraySide` (NumPy arrays or PyTorch tensors).
    metrics : str or sequence of str, optional
        Metric names (see :func:`metric_names`); all metrics by default (the
        mention-type metrics only when types are given).
    singletons : {"keep", "exclude"}
        ``"exclude"`` drops one-mention clusters on both sides (CorefUD).
    duplicates : {"warn", "ignore", "raise"}
        A mention listed twice on one side: its first occurrence is scored
        and the repetition reported in ``Result.duplicates`` (with a
        :class:`DuplicateMentionWarning` under ``"warn"``), or refused with
        :class:`CorefScoreInputError` under ``"raise"``.
    blanc_rule : {"key", "either"}
        How BLANC treats a side without links (``"key"``: the reference scorer).
    workers : int, optional
        Worker threads of the engine (default: one per CPU).
    link_weights, da_weights, da_greedy
        Parameters of the linguistically aware metrics and DA.
    mention_types : mapping, optional
        Mention -> type (``"name"``, ``"nominal"``, ``"pronoun"`` or the
        codes 1-3) for list input, used by the mention-type metrics; both
        sides share it. ArraySide input gives ``types=`` arrays instead.

    Returns
    -------
    Result

    Raises
    ------
    TypeError, ValueError
        On malformed input; the message names the side and the document.

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
    >>> r["ceafm"].counts["recall_num"], r["ceafm"].counts["recall_den"]
    (4.0, 7.0)
    """
    settings = _settings(metrics, singletons, duplicates, blanc_rule, workers, link_weights, da_weights, da_greedy)
    if mention_types is None and type(key) is not ArraySide and type(response) is not ArraySide:
        counts, recs, dec = _engine_single(key, response, settings)
        decoders = [dec]
        has_types = False
    else:
        batch = convert_batch([(key, response)], ["0"], None if mention_types is None else [mention_types])
        decoders = batch.decoders
        has_types = batch.key[3] is not None or batch.response[3] is not None
        counts, recs = _engine(batch.key, batch.response, settings, None, decoders)
    dups = _records(recs, decoders, ["0"]) if recs else []
    lines = _report(dups, settings.duplicates, 2) if dups else []
    return Result._trusted(
        counts,
        _lib._columns or _lib.columns(),
        ["0"],
        settings.metrics(has_types),
        settings.blanc_rule,
        dups,
        lines,
        settings.options,
    )


def _empty_like(side: Any) -> Any:
    """An empty document side in the same form as ``side``."""
    if isinstance(side, ArraySide):
        if side.mentions is None:
            return ArraySide.from_labels(np.empty(0, dtype=np.int64))
        ms = np.asarray(side.mentions if not hasattr(side.mentions, "detach") else side.mentions.detach().cpu())
        shape = (0, 2) if ms.ndim == 2 else (0,)
        return ArraySide(np.empty(shape, dtype=np.int64), np.empty(0, dtype=np.int64))
    return []


def _pair(key_docs: Any, response_docs: Any, names: Sequence[str] | None) -> tuple[list, list[str], list[str], bool]:
    """Pair documents: by name for mappings, by position for sequences.

    Returns the (key, response) pairs, the document names, warnings and
    whether the names are the caller's.
    """
    if isinstance(key_docs, Mapping) or isinstance(response_docs, Mapping):
        if not (isinstance(key_docs, Mapping) and isinstance(response_docs, Mapping)):
            raise TypeError(
                "`key_docs` and `response_docs` must both be mappings (paired by name) or both "
                f"sequences (paired by position); got {type(key_docs).__name__} and "
                f"{type(response_docs).__name__} instead."
            )
        if names is not None:
            raise TypeError("`names` must be None when documents are given as mappings; got names instead.")
        pairs, doc_names, warns = [], [], []
        for name, key in key_docs.items():
            if name in response_docs:
                pairs.append((key, response_docs[name]))
            else:
                pairs.append((key, _empty_like(key)))
                warns.append(f"document {name}: no response document; scored as empty")
            doc_names.append(str(name))
        for name in response_docs:
            if name not in key_docs:
                warns.append(f"document {name}: in the response only; not scored")
        return pairs, doc_names, warns, True
    for arg, docs in (("key_docs", key_docs), ("response_docs", response_docs)):
        if isinstance(docs, (str, bytes, ArraySide)) or not isinstance(docs, Sequence):
            raise TypeError(
                f"`{arg}` must be a sequence of documents or a mapping name -> document; got "
                f"{type(docs).__name__} instead."
            )
    if len(key_docs) != len(response_docs):
        raise ValueError(
            f"`response_docs` must have one document per key document ({len(key_docs)}); got "
            f"{len(response_docs)} instead."
        )
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(key_docs):
            raise ValueError(f"`names` must have one name per document ({len(key_docs)}); got {len(names)} instead.")
        return list(zip(key_docs, response_docs)), names, [], True
    return list(zip(key_docs, response_docs)), [str(i) for i in range(len(key_docs))], [], False


def _labels(names: Sequence[str], named: bool) -> list[str]:
    """Document labels for error messages."""
    if not named:
        return list(names)
    return [f"{i} ({n!r})" for i, n in enumerate(names)]


def _doc_types(mention_types: Any, key_docs: Any, n: int) -> list | None:
    """Per-document mention_types, paired like the documents."""
    if mention_types is None:
        return None
    if isinstance(key_docs, Mapping):
        if not isinstance(mention_types, Mapping):
            raise TypeError(
                "`mention_types` must be a mapping document name -> mapping when documents are "
                f"mappings; got {type(mention_types).__name__} instead."
            )
        return [mention_types.get(name) for name in key_docs]
    if isinstance(mention_types, Mapping) or not isinstance(mention_types, Sequence) or len(mention_types) != n:
        raise ValueError(
            f"`mention_types` must be a sequence of one mapping (or None) per document ({n}); got "
            f"{type(mention_types).__name__} instead."
        )
    return list(mention_types)


def _score_pairs(
    pairs: list,
    doc_names: list[str],
    named: bool,
    settings: _Settings,
    stacklevel: int,
    mention_types: list | None = None,
) -> tuple[np.ndarray, list[Duplicate], list[str], bool]:
    """Convert and score document pairs; apply the duplicate policy."""
    batch: Batch = convert_batch(pairs, _labels(doc_names, named), mention_types)
    has_types = batch.key[3] is not None or batch.response[3] is not None
    counts, recs = _engine(
        batch.key, batch.response, settings, _names_bytes(doc_names) if named else None, batch.decoders
    )
    dups = _records(recs, batch.decoders, doc_names) if recs else []
    lines = _report(dups, settings.duplicates, stacklevel + 1)
    return counts, dups, lines, has_types


def score_corpus(
    key_docs: Any,
    response_docs: Any,
    *,
    names: Sequence[str] | None = None,
    metrics: str | Sequence[str] | None = None,
    singletons: str = "keep",
    duplicates: str = "warn",
    blanc_rule: str = "key",
    workers: int | None = None,
    link_weights: Sequence[float] | None = None,
    da_weights: Sequence[float] | None = None,
    da_greedy: bool = False,
    mention_types: Any = None,
) -> Result:
    """Score many documents in one engine call; corpus scores are micro-averages.

    Parameters
    ----------
    key_docs, response_docs : sequence or mapping of documents
        Each document in any form :func:`score` accepts. Sequences are paired
        by position; mappings by document name (a key document with no
        response is scored against an empty response, as the reference
        scorer does; a response-only document is reported in
        ``Result.warnings``).
    names : sequence of str, optional
        Document names for sequences (default: positions ``"0"``, ``"1"``...).
    metrics, singletons, duplicates, blanc_rule, workers, link_weights, da_weights, da_greedy
        As in :func:`score`.
    mention_types : sequence or mapping, optional
        One ``mention_types`` mapping of :func:`score` per document (None for
        an untyped one), paired like the documents.

    Returns
    -------
    Result
        Corpus scores from the summed counts; ``per_document()`` and
        ``counts_matrix`` give the documents.

    Examples
    --------
    Scores add up over documents as counts, not as averages of scores:

    >>> from corefscore import score_corpus
    >>> keys = {"d1": [[1, 2, 3]], "d2": [[1, 2], [3]]}
    >>> responses = {"d1": [[1, 2], [3]], "d2": [[1, 2], [3]]}
    >>> r = score_corpus(keys, responses, metrics="muc")
    >>> r.counts["muc"]["recall_num"], r.counts["muc"]["recall_den"]
    (2.0, 3.0)
    >>> [round(d["muc"].recall, 2) for d in r.per_document()]
    [0.5, 1.0]
    """
    settings = _settings(metrics, singletons, duplicates, blanc_rule, workers, link_weights, da_weights, da_greedy)
    pairs, doc_names, warns, named = _pair(key_docs, response_docs, names)
    if not pairs:
        # An empty corpus has no score; zeros would hide an empty validation split.
        raise ValueError("`key_docs` must hold at least one document; got an empty collection instead.")
    types = _doc_types(mention_types, key_docs, len(pairs))
    counts, dups, lines, has_types = _score_pairs(pairs, doc_names, named, settings, 2, types)
    return Result(
        counts,
        _lib.columns(),
        doc_names,
        settings.metrics(has_types),
        blanc_rule=settings.blanc_rule,
        duplicates=dups,
        warnings=warns + lines,
        options=settings.options,
    )


def score_arrays(
    key_mentions: Any,
    key_clusters: Any,
    response_mentions: Any,
    response_clusters: Any,
    *,
    key_types: Any = None,
    response_types: Any = None,
    **options: Any,
) -> Result:
    """Score one document given as arrays (no Python loop per mention).

    Parameters
    ----------
    key_mentions, response_mentions : array of shape (n, 2) or (n,)
        Spans ``(start, end)`` or integer mention ids (NumPy arrays, PyTorch
        tensors or nested sequences).
    key_clusters, response_clusters : array of shape (n,)
        Cluster id (>= 0) of each mention.
    key_types, response_types : array of shape (n,), optional
        Mention type codes (0 unknown, 1 name, 2 nominal, 3 pronoun).
    **options
        Keyword options of :func:`score`.

    Examples
    --------
    >>> import numpy as np
    >>> from corefscore import score_arrays
    >>> spans = np.array([[0, 0], [2, 3], [5, 5]])
    >>> r = score_arrays(spans, np.array([0, 0, 1]), spans, np.array([0, 0, 0]), metrics="muc")
    >>> r["muc"].recall, r["muc"].precision
    (1.0, 0.5)
    """
    return score(
        ArraySide(key_mentions, key_clusters, key_types),
        ArraySide(response_mentions, response_clusters, response_types),
        **options,
    )


def score_labels(labels_true: Any, labels_pred: Any, **options: Any) -> Result:
    """Score one document given as label arrays over a shared mention list (scikit-learn style).

    Parameters
    ----------
    labels_true, labels_pred : array of shape (n_mentions,)
        Cluster id of mention ``i`` in the key and in the response; ``-1``
        when the mention is absent from that side.
    **options
        Keyword options of :func:`score`.

    Examples
    --------
    Relabelling the clusters does not change any score:

    >>> from corefscore import score_labels
    >>> score_labels([0, 0, 1, 1], [5, 5, 2, 2])["bcub"].f1
    1.0
    """
    return score(ArraySide.from_labels(labels_true), ArraySide.from_labels(labels_pred), **options)


class Scorer:
    """A streaming accumulator of per-document counts, for validation loops.

    ``update`` scores documents as they come (one engine call per update)
    and keeps their counts rows; ``compute`` returns the :class:`Result` of
    everything seen since the last ``reset``. Counts add up, so workers of
    a distributed job can each keep a Scorer and ``merge`` them (or sum
    their ``counts``).

    Parameters
    ----------
    metrics, singletons, duplicates, blanc_rule, workers, link_weights, da_weights, da_greedy
        As in :func:`score`.

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

    def __init__(
        self,
        *,
        metrics: str | Sequence[str] | None = None,
        singletons: str = "keep",
        duplicates: str = "warn",
        blanc_rule: str = "key",
        workers: int | None = None,
        link_weights: Sequence[float] | None = None,
        da_weights: Sequence[float] | None = None,
        da_greedy: bool = False,
    ) -> None:
        self._settings_args = (
            metrics,
            singletons,
            duplicates,
            blanc_rule,
            workers,
            link_weights,
            da_weights,
            da_greedy,
        )
        self._settings = _settings(*self._settings_args)
        self._lock = threading.Lock()
        self.reset()

    def __getstate__(self) -> dict[str, Any]:
        with self._lock:
            state = {k: v for k, v in self.__dict__.items() if k not in ("_lock", "_settings")}
        state["_settings_args"] = self._settings_args
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._settings = _settings(*self._settings_args)
        self._lock = threading.Lock()

    def reset(self) -> None:
        """Forget every document seen."""
        with self._lock:
            self._rows: list[np.ndarray] = []
            self._names: list[str] = []
            self._dups: list[Duplicate] = []
            self._warnings: list[str] = []
            self._has_types = False

    @property
    def columns(self) -> tuple[str, ...]:
        """The engine's counts columns."""
        return _lib.columns()

    @property
    def n_documents(self) -> int:
        """Number of documents accumulated."""
        return len(self._names)

    @property
    def counts_matrix(self) -> np.ndarray:
        """Per-document counts so far, shape (n_documents, n_columns)."""
        with self._lock:
            rows = list(self._rows)
        if not rows:
            return np.zeros((0, len(_lib.columns())))
        return np.concatenate(rows, axis=0)

    @property
    def counts(self) -> np.ndarray:
        """Summed counts so far, shape (n_columns,): what distributed workers add up."""
        return self.counts_matrix.sum(axis=0)

    def update(
        self, key: Any, response: Any, *, batch: bool = False, name: str | None = None, mention_types: Any = None
    ) -> None:
        """Score one document, or a batch of documents (``batch=True`` or mappings).

        Parameters
        ----------
        key, response
            One document in any form :func:`score` accepts; with
            ``batch=True``, sequences of documents paired by position; two
            mappings are always a batch paired by name.
        batch : bool
            Whether ``key`` and ``response`` are batches of documents.
        name : str, optional
            Name of a single document (default: its running position).
        mention_types : mapping or sequence of mappings, optional
            As in :func:`score` (one document) or :func:`score_corpus` (a batch).
        """
        s = self._settings
        if batch or isinstance(key, Mapping) or isinstance(response, Mapping):
            pairs, names, warns, named = _pair(key, response, None)
            if not named:
                start = self.n_documents
                names = [str(start + i) for i in range(len(names))]
            types = _doc_types(mention_types, key, len(pairs))
            counts, dups, lines, has_types = _score_pairs(pairs, names, named, s, 2, types)
        else:
            label = str(self.n_documents) if name is None else str(name)
            if mention_types is None and type(key) is not ArraySide and type(response) is not ArraySide:
                counts, recs, dec = _engine_single(key, response, s)
                decoders = [dec]
                has_types = False
            else:
                b = convert_batch([(key, response)], [label], None if mention_types is None else [mention_types])
                decoders = b.decoders
                has_types = b.key[3] is not None or b.response[3] is not None
                counts, recs = _engine(b.key, b.response, s, None, decoders)
            dups = _records(recs, decoders, [label]) if recs else []
            lines = _report(dups, s.duplicates, 2) if dups else []
            names, warns = [label], []
        with self._lock:
            self._rows.append(counts)
            self._names.extend(names)
            self._dups.extend(dups)
            self._warnings.extend(warns + lines)
            self._has_types = self._has_types or has_types

    def merge(self, other: Scorer) -> Scorer:
        """Add another Scorer's documents (same options) to this one; returns self."""
        if not isinstance(other, Scorer):
            raise TypeError(f"`other` must be a Scorer; got {type(other).__name__} instead.")
        if other._settings.options != self._settings.options or other._settings.explicit != self._settings.explicit:
            raise ValueError("`other` must have the same options as this Scorer; got different options instead.")
        with other._lock:
            rows, names = list(other._rows), list(other._names)
            dups, warns, typed = list(other._dups), list(other._warnings), other._has_types
        with self._lock:
            self._rows.extend(rows)
            self._names.extend(names)
            self._dups.extend(dups)
            self._warnings.extend(warns)
            self._has_types = self._has_types or typed
        return self

    def add_counts(self, counts_matrix: Any, names: Sequence[str] | None = None) -> None:
        """Add rows of counts computed elsewhere (e.g. another process's ``counts_matrix``)."""
        arr = np.asarray(counts_matrix, dtype=np.float64)
        ncol = len(_lib.columns())
        if arr.ndim == 1:
            arr = arr.reshape(1, -1)
        if arr.ndim != 2 or arr.shape[1] != ncol:
            raise ValueError(f"`counts_matrix` must have shape (n, {ncol}); got {arr.shape} instead.")
        if np.isnan(arr).any():
            raise ValueError("`counts_matrix` must not contain NaN; got NaN instead.")
        start = self.n_documents
        labels = [str(start + i) for i in range(arr.shape[0])] if names is None else [str(n) for n in names]
        if len(labels) != arr.shape[0]:
            raise ValueError(f"`names` must have one name per row ({arr.shape[0]}); got {len(labels)} instead.")
        with self._lock:
            self._rows.append(arr)
            self._names.extend(labels)

    def compute(self) -> Result:
        """The Result of every document since the last reset."""
        s = self._settings
        with self._lock:
            names, dups, warns, typed = list(self._names), list(self._dups), list(self._warnings), self._has_types
        return Result(
            self.counts_matrix,
            _lib.columns(),
            names,
            s.metrics(typed),
            blanc_rule=s.blanc_rule,
            duplicates=dups,
            warnings=warns,
            options=s.options,
        )

    def __repr__(self) -> str:
        return f"Scorer({self.n_documents} documents)"
