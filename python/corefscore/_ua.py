"""Universal Anaphora documents held in memory: split antecedents, non-referring markables, bridging.

They reach the engine through the file road: each side is written as UA JSON lines
(the format ``gocore/conll`` reads as format ``ua``) into a temporary folder and scored
with :func:`corefscore.score_files`, so that a document scores the same in memory and
in a CoNLL-UA file.
"""
from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from typing import Any

from ._engine import CorefScoreInputError
from ._result import Result

_FIELDS = ("clusters", "non_referring", "bridging", "min_spans", "discourse_deixis")


def _span(x: Any, what: str) -> list[int]:
    try:
        start, end = x
        return [int(start), int(end)]
    except (TypeError, ValueError):
        raise TypeError(f"`{what}` must hold (start, end) token spans; got {x!r} instead.") from None


def _document(doc: Any, name: str) -> dict:
    """One UA document (a mapping) as a UA JSON object."""
    if not isinstance(doc, Mapping):
        raise TypeError(f"a UA document must be a mapping with 'clusters'; got {type(doc).__name__} instead.")
    unknown = set(doc) - set(_FIELDS)
    if unknown or "clusters" not in doc:
        raise ValueError(f"a UA document has the keys {', '.join(_FIELDS)} ('clusters' required); "
                         f"got {sorted(map(str, doc))} instead.")
    clusters, splits = [], []
    for ci, cluster in enumerate(doc["clusters"]):
        spans = []
        for m in cluster:
            if isinstance(m, (set, frozenset)):  # the split antecedent: the indices of its antecedent clusters
                splits.append({"plural": ci, "antecedents": sorted(int(a) for a in m)})
            else:
                spans.append(_span(m, "clusters"))
        clusters.append(spans)
    return {
        "doc_key": name,
        "clusters": clusters,
        "split_antecedents": splits,
        "non_referring": [_span(m, "non_referring") for m in doc.get("non_referring", ())],
        "bridging": [[_span(a, "bridging"), _span(b, "bridging")] for a, b in doc.get("bridging", ())],
        "min_spans": [[_span(m, "min_spans"), _span(s, "min_spans")]
                      for m, s in dict(doc.get("min_spans", {})).items()],
        "discourse_deixis": [[_span(m, "discourse_deixis") for m in c] for c in doc.get("discourse_deixis", ())],
    }


def _documents(docs: Any) -> list[dict]:
    """One document, a sequence of documents (named 0, 1, ...) or a mapping name -> document."""
    if isinstance(docs, Mapping) and "clusters" in docs:
        return [_document(docs, "0")]
    if isinstance(docs, Mapping):
        return [_document(d, str(name)) for name, d in docs.items()]
    if isinstance(docs, Sequence) and not isinstance(docs, (str, bytes)):
        return [_document(d, str(i)) for i, d in enumerate(docs)]
    raise TypeError(f"`key` and `response` must be a UA document, a list of them or a mapping name -> document; "
                    f"got {type(docs).__name__} instead.")


def score_ua(key: Any, response: Any, **options: Any) -> Result:
    """Score Universal Anaphora documents held in memory, in the UA scorer's modes.

    A document is a mapping: ``clusters`` (a list of clusters of ``(start, end)``
    token spans, inclusive; a plural's cluster may hold one ``set`` of cluster
    indices, its split antecedent), ``non_referring`` (spans), ``bridging``
    ((anaphor, antecedent) span pairs), ``min_spans`` (span -> minimum span, read
    on the key) and ``discourse_deixis`` (clusters). ``key`` and ``response`` are
    one document, a list of documents or a mapping name -> document. Options are
    those of :func:`score_files` for UA files (``split_antecedents``,
    ``non_referring``, ``bridging``, ``discourse_deixis``, ``min_span``, ...).

    Examples
    --------
    >>> import corefscore
    >>> key = {"clusters": [[(0, 0), (4, 4)], [(1, 1)], [(6, 7), {0, 1}]]}
    >>> response = {"clusters": [[(0, 0), (4, 4)], [(1, 1)], [(6, 7), {0}]]}
    >>> round(corefscore.score_ua(key, response, split_antecedents="only")["muc"].recall, 2)
    0.5
    """
    from ._api import score_files

    key_docs, resp_docs = _documents(key), _documents(response)
    with tempfile.TemporaryDirectory(prefix="corefscore-ua") as tmp:
        paths = []
        for side, docs in (("key", key_docs), ("response", resp_docs)):
            path = os.path.join(tmp, side + ".jsonl")
            with open(path, "w", encoding="utf-8") as f:
                for d in docs:
                    f.write(json.dumps(d) + "\n")
            paths.append(path)
        try:
            result = score_files(paths[0], paths[1], format="ua", **options)
        except CorefScoreInputError as exc:
            raise _in_memory(exc, paths) from None
    result.key = result.response = None
    return result


def _in_memory(exc: CorefScoreInputError, paths: list[str]) -> CorefScoreInputError:
    """The error without the temporary files: the side and the document say where."""
    message = str(exc)
    for path in paths:
        message = message.replace(f"{path}, line 1: ", "").replace(f"{path}: ", "")
    return CorefScoreInputError(message, reason=exc.reason, kind=exc.kind, document=exc.document, side=exc.side,
                                mention=exc.mention, option=exc.option)
