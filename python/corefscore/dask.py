"""Score a corpus across Dask workers: each partition is scored where it lives, the count rows are concatenated.

Needs ``dask`` (``pip install corefscore[dask]``; ``dask[distributed]`` for a
cluster); ``import corefscore`` never imports it, this module does.

Corpus scores are sums of per-document counts, so a corpus too large for one
process can be scored piece by piece: every partition (or file pair) is scored
by one engine call on a worker, and only its counts matrix (one row of floats
per document, a few hundred bytes) travels back. The rows are concatenated in
order, so the result is an ordinary :class:`corefscore.Result`, identical to
:func:`corefscore.score_corpus` on the whole corpus: ``per_document()``,
``bootstrap`` and ``compare`` all work.

Workers need corefscore installed (or on their ``PYTHONPATH``), and, for
:func:`score_files_delayed`, the files at the same paths. Dask starts worker
processes with ``spawn`` (the default of ``distributed`` and of the
``processes`` scheduler); the engine cannot run in a process forked from one
that had loaded it.

Examples
--------
>>> import dask.bag as db
>>> from corefscore.dask import score_bag
>>> docs = [("d1", [[1, 2, 3]], [[1, 2], [3]]), ("d2", [[1, 2]], [[1, 2]])]
>>> r = score_bag(db.from_sequence(docs, npartitions=2), metrics="muc", scheduler="sync")
>>> r.doc_names, r["muc"].recall_num, r["muc"].recall_den
(['d1', 'd2'], 2.0, 3.0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

import numpy as np

from ._api import Scorer, score_corpus, score_files
from ._result import Result

try:
    import dask
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("corefscore.dask needs dask; install it with `pip install corefscore[dask]`") from exc


def concat(results: Iterable[Result | None]) -> Result:
    """One Result holding the documents of several, in order (None entries, e.g. empty partitions, are skipped).

    Rows, document names, duplicates and warnings are concatenated; a metric
    is kept if every part scored it. The parts must come from the same options.

    Raises
    ------
    ValueError
        With no Result, or parts of different columns, options or BLANC rule.
    """
    parts = [r for r in results if r is not None]
    if not parts:
        raise ValueError("`results` must hold at least one Result; got none (an empty corpus?).")
    first = parts[0]
    if len(parts) == 1:
        return first
    for r in parts[1:]:
        if r.columns != first.columns or r.blanc_rule != first.blanc_rule or r.options != first.options:
            raise ValueError("`results` must come from the same engine and options; got parts with different "
                             "columns, options or blanc_rule.")

    def same(attr: str) -> Any:
        value = getattr(first, attr)
        return value if all(getattr(r, attr) == value for r in parts) else None

    metrics = tuple(m for m in first.metrics if all(m in r.metrics for r in parts))
    return Result(np.concatenate([r.counts_matrix for r in parts], axis=0), first.columns,
                  [n for r in parts for n in r.doc_names], metrics, blanc_rule=first.blanc_rule,
                  duplicates=[d for r in parts for d in r.duplicates], warnings=[w for r in parts for w in r.warnings],
                  key=same("key"), response=same("response"), options=first.options,
                  n_duplicates=sum(r.n_duplicates for r in parts))


def _score_partition(items: Iterable[Sequence[Any]], options: dict[str, Any]) -> Result | None:
    """Score one partition of ``(name, key, response[, mention_types])`` items in one engine call."""
    names, keys, responses, types = [], [], [], []
    for item in items:
        if not isinstance(item, Sequence) or len(item) not in (3, 4):
            raise ValueError("every item of the bag must be (name, key, response) or (name, key, response, "
                             f"mention_types); got {type(item).__name__} "
                             f"{'of length ' + str(len(item)) if isinstance(item, Sequence) else ''}.")
        names.append(str(item[0]))
        keys.append(item[1])
        responses.append(item[2])
        types.append(item[3] if len(item) == 4 else None)
    if not names:
        return None
    mention_types = types if any(t is not None for t in types) else None
    return score_corpus(keys, responses, names=names, mention_types=mention_types, **options)


def _score_pair(paths: tuple[Any, Any], options: dict[str, Any]) -> Result:
    return score_files(paths[0], paths[1], **options)


def score_bag(bag: Any, *, scheduler: Any = None, split_every: int | None = None, **options: Any) -> Result:
    """Score a ``dask.bag.Bag`` of ``(name, key, response)`` (or ``(name, key, response, mention_types)``) items.

    Each partition is scored on a worker in one engine call; the count rows
    come back to this process in a tree reduction and form one Result, in the
    bag's order.

    Parameters
    ----------
    bag : dask.bag.Bag
        Documents in any form :func:`corefscore.score` accepts (lists of
        clusters, :class:`corefscore.ArraySide`, ...); names label the rows.
    scheduler : optional
        Passed to ``compute`` (default: Dask's current scheduler, e.g. the
        active ``distributed.Client``).
    split_every : int, optional
        Fan-in of the reduction tree (``Bag.reduction``).
    **options
        Scoring options as in :func:`corefscore.score`, checked here before
        anything is sent.

    Returns
    -------
    Result
        As :func:`corefscore.score_corpus` on the same documents.
    """
    Scorer(**options)  # bad options fail here, not on every worker
    if not hasattr(bag, "reduction"):
        raise TypeError(f"`bag` must be a dask.bag.Bag; got {type(bag).__name__} instead.")
    total = bag.reduction(partial(_score_partition, options=options), _concat_or_none, split_every=split_every)
    return concat([total.compute(scheduler=scheduler)])


def _concat_or_none(parts: Iterable[Result | None]) -> Result | None:
    parts = [p for p in parts if p is not None]
    return concat(parts) if parts else None


def score_files_delayed(pairs: Iterable[tuple[Any, Any]], *, format: str | None = None,
                        clusters_field: str | None = None, scheduler: Any = None, **options: Any) -> Result:
    """Score many ``(key_path, response_path)`` file pairs, one ``dask.delayed`` task each; one Result in order.

    Each pair is read and scored on a worker by :func:`corefscore.score_files`
    (files in any format it reads; ``format`` and ``clusters_field`` as
    there); the workers must see the files at these paths. Document names are
    those of the files (a name in two files appears twice).

    Returns
    -------
    Result
        Rows of every pair's documents, pair by pair.
    """
    pairs = [tuple(p) for p in pairs]
    if not pairs:
        raise ValueError("`pairs` must hold at least one (key_path, response_path) pair; got none.")
    if any(len(p) != 2 for p in pairs):
        raise ValueError("every item of `pairs` must be (key_path, response_path).")
    options = dict(options, format=format, clusters_field=clusters_field)
    Scorer(**options)
    score = dask.delayed(partial(_score_pair, options=options), pure=True)
    return concat(dask.compute(*[score(p) for p in pairs], scheduler=scheduler))
