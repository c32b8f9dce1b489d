"""Input conversion: clusters, arrays and label arrays to the engine's int64 ids.

This is the one place where mentions become int64 ids:

- a span ``(start, end)`` with ``0 <= start <= end < 2**31`` is packed as
  ``start << 32 | end`` (:data:`SPAN_SHIFT`): :func:`pack_spans` does it for
  arrays (vectorised, after :func:`bad_spans`), :func:`_span_side_fast` for
  Python integers (every list input goes through it), and
  :func:`unpack_span` reverses it;
- an integer mention is its own id;
- any other hashable is interned, per document, to ``0, 1, 2, ...`` in order
  of first appearance (key first), so equal mentions on the two sides get the
  same id.

All three rules are chosen per document: a document whose mentions are all
spans is packed, one whose mentions are all integers keeps them, any other
document is interned (so ``(0, 5)`` and ``5`` stay different mentions).
Cluster ids of list input are the clusters' positions in their list.
"""

from __future__ import annotations

import math
import operator
from array import array
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

#: Bits of the end position in a packed span id.
SPAN_SHIFT = 32
#: Exclusive bound of span positions: start << 32 | end must fit in a non-negative int64.
_SPAN_LIMIT = 1 << 31
_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1

#: Mention kinds of a converted document.
KIND_SPAN, KIND_INT, KIND_INTERN = "span", "int", "intern"

#: Mention type names of the engine's int8 codes (CS_TYPE_*).
TYPE_CODES = {"unknown": 0, "name": 1, "nominal": 2, "pronoun": 3}


def _describe(x: Any) -> str:
    """Short description of a value for error messages."""
    text = repr(x)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(x).__name__})"


def _where(side: str, doc: str) -> str:
    return f"`{side}` of document {doc}"


class _NotSpans(Exception):
    """Raised inside the span fast path: the mentions are not all spans."""


def _pack_span_list(mentions: Sequence[Any], side: str, doc: str) -> list[int]:
    """Pack flattened ``(start, end)`` pairs (tuples or lists, any integer type).

    Raises _NotSpans if a mention is not a pair of integers, TypeError or
    ValueError (naming the document) for float or NaN bounds and for spans
    out of range. The packing itself is :func:`_span_side_fast`'s.
    """
    pairs = []
    append = pairs.append
    for m in mentions:
        tm = type(m)
        if (tm is not tuple and tm is not list) or len(m) != 2:
            raise _NotSpans
        s, e = m
        if type(s) is not int or type(e) is not int:
            s, e = _span_bound(s, side, doc, m), _span_bound(e, side, doc, m)
        append((s, e))
    packed = _span_side_fast([pairs])
    if packed is None:
        bad = next(p for p in pairs if not 0 <= p[0] <= p[1] < _SPAN_LIMIT)
        raise ValueError(
            f"{_where(side, doc)} must have spans (start, end) with 0 <= start <= end < 2**31; got {bad!r} instead."
        )
    return packed[0]


def _span_bound(x: Any, side: str, doc: str, m: Any) -> int:
    if isinstance(x, (float, np.floating)):
        if math.isnan(x):
            raise ValueError(f"{_where(side, doc)} must have integer span bounds; got NaN in {m!r} instead.")
        raise TypeError(f"{_where(side, doc)} must have integer span bounds; got {_describe(x)} in {m!r} instead.")
    try:
        return operator.index(x)
    except TypeError:
        raise _NotSpans from None


def bad_spans(spans: np.ndarray) -> np.ndarray:
    """Rows of an ``(n, 2)`` span array that cannot be packed (negative, end < start, >= 2**31)."""
    return (spans[:, 0] < 0) | (spans[:, 1] < spans[:, 0]) | (spans[:, 1] >= _SPAN_LIMIT)


def pack_spans(spans: np.ndarray) -> np.ndarray:
    """Pack a valid ``(n, 2)`` integer span array into int64 ids ``start << 32 | end``.

    The caller checks :func:`bad_spans` first.
    """
    return (spans[:, 0].astype(np.int64) << SPAN_SHIFT) | spans[:, 1].astype(np.int64)


def unpack_span(mention_id: int) -> tuple[int, int]:
    """The ``(start, end)`` span of a packed id."""
    return (mention_id >> SPAN_SHIFT, mention_id & ((1 << SPAN_SHIFT) - 1))


_CLUSTER_TYPES = (list, tuple, set, frozenset)


def _flatten(clusters: Any, side: str, doc: str) -> tuple[list[Any], list[int]]:
    """Mentions and cluster positions of one side given as a sequence of clusters."""
    mentions: list[Any] = []
    cids: list[int] = []
    if type(clusters) is list or type(clusters) is tuple:
        # Fast path for plain lists and tuples of lists, tuples and sets.
        for i, cluster in enumerate(clusters):
            if type(cluster) not in _CLUSTER_TYPES:
                return _flatten_any(clusters, side, doc)
            mentions.extend(cluster)
            cids.extend([i] * len(cluster))
        return mentions, cids
    return _flatten_any(clusters, side, doc)


def _flatten_any(clusters: Any, side: str, doc: str) -> tuple[list[Any], list[int]]:
    if isinstance(clusters, (str, bytes, Mapping)) or not isinstance(clusters, Iterable):
        raise TypeError(
            f"{_where(side, doc)} must be a sequence of clusters (each a sequence of mentions); "
            f"got {_describe(clusters)} instead."
        )
    mentions: list[Any] = []
    cids: list[int] = []
    for i, cluster in enumerate(clusters):
        if isinstance(cluster, (str, bytes, Mapping)) or not isinstance(cluster, Iterable):
            raise TypeError(
                f"{_where(side, doc)} must be a sequence of clusters, each a sequence of mentions; "
                f"got cluster {i} = {_describe(cluster)} instead."
            )
        before = len(mentions)
        mentions.extend(cluster)
        cids.extend([i] * (len(mentions) - before))
    return mentions, cids


def _int_ids(mentions: list[Any]) -> list[int] | None:
    """The mentions as int64 ids when every one is an integer, else None."""
    for m in mentions:
        tm = type(m)
        if tm is int:
            if not _INT64_MIN <= m <= _INT64_MAX:
                return None
        elif tm is bool or not isinstance(m, np.integer):
            return None
    return [int(m) for m in mentions]


class Decoder:
    """Turns an engine mention id back into the mention the caller gave."""

    __slots__ = ("kind", "table")

    def __init__(self, kind: str, table: list[Any] | None = None) -> None:
        self.kind = kind
        self.table = table

    def __call__(self, mention_id: int) -> Any:
        if self.kind == KIND_SPAN:
            return unpack_span(mention_id)
        if self.kind == KIND_INTERN and self.table is not None:
            return self.table[mention_id]
        return mention_id


_SPAN_DECODER = Decoder(KIND_SPAN)
_INT_DECODER = Decoder(KIND_INT)


def _intern(mentions: list[Any], side: str, doc: str, index: dict, table: list) -> list[int]:
    out = []
    for m in mentions:
        if type(m) is list:
            m = tuple(m)
        elif isinstance(m, float) and math.isnan(m):
            raise ValueError(f"{_where(side, doc)} must not contain NaN mentions; got nan instead.")
        try:
            i = index.get(m)
        except TypeError:
            raise TypeError(
                f"{_where(side, doc)} must have hashable mentions ((start, end) tuples, ints or "
                f"any hashable); got {_describe(m)} instead."
            ) from None
        if i is None:
            i = len(table)
            index[m] = i
            table.append(m)
        out.append(i)
    return out


def doc_from_lists(
    key: Any, response: Any, doc: str, flat: tuple | None = None
) -> tuple[list[int], list[int], list[int], list[int], Decoder]:
    """Convert one document given as sequences of clusters on both sides.

    Returns key ids, key cluster ids, response ids, response cluster ids and
    the decoder of its mention ids. ``flat`` is the already flattened
    ``(kms, kcs, rms, rcs)`` when the caller has it.
    """
    if flat is None:
        k = _span_side_fast(key)
        r = _span_side_fast(response) if k is not None else None
        if k is not None and r is not None:
            return k[0], k[1], r[0], r[1], _SPAN_DECODER
        kms, kcs = _flatten(key, "key", doc)
        rms, rcs = _flatten(response, "response", doc)
    else:
        kms, kcs, rms, rcs = flat
    try:
        return _pack_span_list(kms, "key", doc), kcs, _pack_span_list(rms, "response", doc), rcs, _SPAN_DECODER
    except _NotSpans:
        pass
    kid, rid = _int_ids(kms), _int_ids(rms)
    if kid is not None and rid is not None:
        return kid, kcs, rid, rcs, _INT_DECODER
    index: dict = {}
    table: list = []
    kid = _intern(kms, "key", doc, index, table)
    rid = _intern(rms, "response", doc, index, table)
    return kid, kcs, rid, rcs, Decoder(KIND_INTERN, table)


def _type_code(value: Any, mention: Any, doc: str) -> int:
    if isinstance(value, str):
        code = TYPE_CODES.get(value.lower())
        if code is not None:
            return code
    elif isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= value <= 3:
        return int(value)
    raise ValueError(
        f"`mention_types` of document {doc} must map mentions to 'name', 'nominal' or 'pronoun' "
        f"(or codes 0..3); got {value!r} for mention {mention!r} instead."
    )


def types_from_mapping(mentions: list[Any], mention_types: Any, doc: str) -> np.ndarray:
    """Type codes of ``mentions`` from a mapping mention -> type (absent: 0, unknown)."""
    if not isinstance(mention_types, Mapping):
        raise TypeError(
            f"`mention_types` of document {doc} must be a mapping mention -> type; got "
            f"{_describe(mention_types)} instead."
        )
    out = np.zeros(len(mentions), dtype=np.int8)
    get = mention_types.get
    for i, m in enumerate(mentions):
        if type(m) is list:
            m = tuple(m)
        try:
            value = get(m)
        except TypeError:
            continue  # unhashable: reported by the mention conversion
        if value is not None:
            out[i] = _type_code(value, m, doc)
    return out


def to_numpy(x: Any) -> Any:
    """A NumPy view of a PyTorch tensor (detached, on the CPU); anything else unchanged.

    Torch is never imported: a tensor is recognised by its methods.
    """
    if not isinstance(x, np.ndarray) and hasattr(x, "detach") and hasattr(x, "cpu") and hasattr(x, "numpy"):
        return x.detach().cpu().numpy()
    return x


def _int_array(x: Any, what: str, side: str, doc: str, ndim: tuple[int, ...]) -> np.ndarray:
    if type(x) is np.ndarray and x.ndim in ndim:
        # Fast path: a signed integer array, or an unsigned one narrower than 64 bits.
        dt = x.dtype
        if dt.kind == "i" or (dt.kind == "u" and dt.itemsize < 8):
            return x
    x = to_numpy(x)
    try:
        arr = np.asarray(x)
    except ValueError as exc:
        raise ValueError(
            f"{_where(side, doc)} {what} must be a rectangular integer array; got a ragged sequence instead ({exc})."
        ) from None
    if arr.dtype == object:
        raise ValueError(
            f"{_where(side, doc)} {what} must be a rectangular integer array; got a ragged or "
            "mixed-type sequence instead."
        )
    if arr.dtype.kind == "f":
        if arr.size and np.isnan(arr).any():
            raise ValueError(f"{_where(side, doc)} {what} must be integers; got NaN instead.")
        raise TypeError(f"{_where(side, doc)} {what} must have an integer dtype; got {arr.dtype} instead.")
    if arr.dtype.kind not in "iu":
        if arr.size == 0 and arr.dtype.kind in "fbU":
            arr = arr.astype(np.int64)
        else:
            raise TypeError(f"{_where(side, doc)} {what} must have an integer dtype; got {arr.dtype} instead.")
    if arr.ndim == 1 and arr.size == 0 and 2 in ndim:
        arr = arr.reshape(0, 2) if 1 not in ndim else arr
    if arr.ndim not in ndim:
        shapes = " or ".join("(n,)" if d == 1 else "(n, 2)" for d in ndim)
        raise ValueError(f"{_where(side, doc)} {what} must have shape {shapes}; got shape {arr.shape} instead.")
    if arr.dtype.kind == "u" and arr.size and int(arr.max()) > _INT64_MAX:
        raise ValueError(f"{_where(side, doc)} {what} must fit in int64; got {int(arr.max())} instead.")
    return arr


class ArraySide:
    """One side of a document as arrays: mentions, their cluster ids and optional types.

    Parameters
    ----------
    mentions : array of shape (n, 2) or (n,)
        Spans ``(start, end)`` (inclusive or exclusive, as long as key and
        response agree) or integer mention ids. NumPy arrays, PyTorch tensors
        and nested sequences are accepted.
    clusters : array of shape (n,)
        Cluster id (an integer >= 0) of each mention.
    types : array of shape (n,), optional
        Mention type codes (0 unknown, 1 name, 2 nominal, 3 pronoun).

    Notes
    -----
    Pass an ``ArraySide`` wherever a document side is expected (``score``,
    ``score_corpus``, ``Scorer.update``): it is converted with no Python loop
    per mention. :meth:`from_labels` builds one from a scikit-learn style
    label array.

    Examples
    --------
    >>> import numpy as np
    >>> from corefscore import ArraySide, score
    >>> key = ArraySide(np.array([[0, 1], [4, 4], [7, 9]]), np.array([0, 0, 1]))
    >>> score(key, key, metrics=["muc"])["muc"].f1
    1.0
    """

    __slots__ = ("clusters", "mentions", "types")

    def __init__(self, mentions: Any, clusters: Any, types: Any = None) -> None:
        self.mentions = mentions
        self.clusters = clusters
        self.types = types

    @classmethod
    def from_labels(cls, labels: Any, types: Any = None) -> ArraySide:
        """One side from labels over a shared mention list (``-1`` = mention absent).

        Mention ``i`` is the ``i``-th entry; its cluster is ``labels[i]``.
        ``types``, optional, has the type code of every entry of the shared
        list (the entries of absent mentions are ignored).

        Examples
        --------
        >>> from corefscore import ArraySide, score
        >>> key = ArraySide.from_labels([0, 0, 1, -1])
        >>> response = ArraySide.from_labels([0, 0, 0, -1])
        >>> round(score(key, response, metrics=["muc"])["muc"].precision, 2)
        0.5
        """
        return cls(None, labels, types)

    def __repr__(self) -> str:
        if self.mentions is None:
            extra = "" if self.types is None else f", types={self.types!r}"
            return f"ArraySide.from_labels({self.clusters!r}{extra})"
        return f"ArraySide({self.mentions!r}, {self.clusters!r}, types={self.types!r})"

    def _types(self, n: int, per: str, side: str, doc: str) -> np.ndarray | None:
        """The type codes as an int array with one entry per ``per`` (n of them), or None."""
        if self.types is None:
            return None
        types = _int_array(self.types, "types", side, doc, (1,))
        if types.shape[0] != n:
            raise ValueError(
                f"{_where(side, doc)} types must have one entry per {per} ({n}); got {types.shape[0]} instead."
            )
        return types

    def convert(self, side: str, doc: str) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, Decoder]:
        """Arrays checked for type and shape only: ``(mentions, clusters, types, decoder)``.

        ``mentions`` is ``(n, 2)`` spans (packed later, once per batch) or
        ``(n,)`` ids; values (negative spans, cluster ids, type codes) are
        checked once per batch by :func:`convert_batch`.
        """
        if self.mentions is None:
            labels = _int_array(self.clusters, "labels", side, doc, (1,))
            present = labels >= 0
            if labels.size and not present.all() and int(labels.min()) < -1:
                raise ValueError(
                    f"{_where(side, doc)} labels must be cluster ids >= 0 or -1 (absent); "
                    f"got {int(labels.min())} instead."
                )
            types = self._types(labels.shape[0], "label", side, doc)
            if types is not None:
                types = types[present]
            return np.flatnonzero(present), labels[present], types, _INT_DECODER
        ms = _int_array(self.mentions, "mentions", side, doc, (1, 2))
        cs = _int_array(self.clusters, "clusters", side, doc, (1,))
        if ms.ndim == 2 and ms.shape[1] != 2:
            raise ValueError(
                f"{_where(side, doc)} mentions must have shape (n, 2) or (n,); got shape {ms.shape} instead."
            )
        if cs.shape[0] != ms.shape[0]:
            raise ValueError(
                f"{_where(side, doc)} clusters must have one entry per mention ({ms.shape[0]}); "
                f"got {cs.shape[0]} instead."
            )
        types = self._types(ms.shape[0], "mention", side, doc)
        return ms, cs, types, (_SPAN_DECODER if ms.ndim == 2 else _INT_DECODER)


class Batch:
    """A batch of documents converted to the engine's CSR arrays, one call's worth."""

    __slots__ = ("decoders", "key", "names", "response")

    def __init__(self, key: tuple, response: tuple, decoders: list[Decoder], names: list[str]) -> None:
        self.key = key
        self.response = response
        self.decoders = decoders
        self.names = names


def _first_bad(bad: np.ndarray, starts: np.ndarray) -> tuple[int, int, int]:
    """(row, part index, row within the part) of the first True of ``bad``."""
    row = int(np.flatnonzero(bad)[0])
    part = int(np.searchsorted(starts, row, side="right")) - 1
    return row, part, row - int(starts[part])


def _checked_pack(side: str, spans: np.ndarray, starts: np.ndarray, labels: Sequence[str]) -> np.ndarray:
    """Validate and pack concatenated span arrays; ``starts`` are the first rows of the documents."""
    bad = bad_spans(spans)
    if bad.any():
        row, d, at = _first_bad(bad, starts)
        raise ValueError(
            f"{_where(side, labels[d])} must have spans (start, end) with 0 <= start <= end < 2**31; "
            f"got ({int(spans[row, 0])}, {int(spans[row, 1])}) at row {at} instead."
        )
    return pack_spans(spans)


def _csr(side: str, parts: list[tuple[Any, Any, Any]], labels: Sequence[str]) -> tuple:
    """One side's CSR arrays from per-document parts, validated and packed once.

    Each part is ``(ids, clusters, types)``: Python lists of packed ids from
    list input, or arrays from :meth:`ArraySide.convert` (``(n, 2)`` spans
    are packed here, all documents at once).
    """
    lengths = [len(p[1]) for p in parts]
    offsets = np.zeros(len(parts) + 1, dtype=np.int64)
    if parts:
        np.cumsum(lengths, out=offsets[1:])
    total = int(offsets[-1])
    if all(type(p[0]) is list for p in parts):
        ids: Any = array("q", [x for p in parts for x in p[0]])
        cls: Any = array("q", [x for p in parts for x in p[1]])
        return offsets, ids, cls, _csr_types(side, parts, labels, offsets)
    if not parts:
        empty = np.empty(0, dtype=np.int64)
        return offsets, empty, empty, None
    # One C call per array kind: no Python loop per document.
    cls = np.concatenate([np.asarray(p[1], dtype=np.int64) for p in parts])
    is_spans = [type(p[0]) is not list and p[0].ndim == 2 for p in parts]
    if all(is_spans):
        ids = _checked_pack(side, np.concatenate([p[0] for p in parts]), offsets[:-1], labels)
    elif not any(is_spans):
        ids = np.concatenate([np.asarray(p[0], dtype=np.int64) for p in parts])
    else:  # a mix of span arrays and id lists or arrays: pack document by document
        ids = np.concatenate(
            [
                _checked_pack(side, p[0], np.zeros(1, dtype=np.int64), [labels[d]])
                if span
                else np.asarray(p[0], dtype=np.int64)
                for d, (p, span) in enumerate(zip(parts, is_spans))
            ]
        )
    if total and int(cls.min()) < 0:
        row, d, at = _first_bad(cls < 0, offsets[:-1])
        raise ValueError(
            f"{_where(side, labels[d])} clusters must be ids >= 0; got {int(cls[row])} at row {at} instead."
        )
    return offsets, ids, cls, _csr_types(side, parts, labels, offsets)


def _csr_types(side: str, parts: list, labels: Sequence[str], offsets: np.ndarray) -> np.ndarray | None:
    """The int8 type codes of a side, or None when no document has types."""
    if all(p[2] is None for p in parts):
        return None
    types = np.zeros(int(offsets[-1]), dtype=np.int8)
    for d, (_, _, pty) in enumerate(parts):
        if pty is not None:
            pty = np.asarray(pty)
            if pty.size and (int(pty.min()) < 0 or int(pty.max()) > 3):
                raise ValueError(
                    f"{_where(side, labels[d])} types must be codes 0..3 (unknown, name, nominal, "
                    f"pronoun); got {int(pty.min()) if int(pty.min()) < 0 else int(pty.max())} instead."
                )
            types[offsets[d] : offsets[d + 1]] = pty
    return types


def convert_doc(key: Any, response: Any, doc: str, mention_types: Any = None) -> tuple:
    """One document (either side a sequence of clusters or an ArraySide) as parts.

    ``mention_types`` is a mapping mention -> type for list input (types of
    ArraySide input are given with the arrays).
    """
    if isinstance(key, ArraySide) or isinstance(response, ArraySide):
        if mention_types is not None:
            raise TypeError(
                f"`mention_types` of document {doc} must be None for ArraySide input (give "
                "ArraySide(..., types=...)); got a mapping instead."
            )
        if not (isinstance(key, ArraySide) and isinstance(response, ArraySide)):
            other, name = (response, "response") if isinstance(key, ArraySide) else (key, "key")
            raise TypeError(
                f"{_where(name, doc)} must be an ArraySide like the other side; got {_describe(other)} instead."
            )
        kid, kcl, kty, kdec = key.convert("key", doc)
        rid, rcl, rty, rdec = response.convert("response", doc)
        if kdec.kind != rdec.kind:
            raise ValueError(
                f"`response` of document {doc} must give mentions like the key (spans or ids); "
                f"got {rdec.kind} mentions against {kdec.kind} key mentions instead."
            )
        return (kid, kcl, kty), (rid, rcl, rty), kdec
    if mention_types is None:
        kid, kcl, rid, rcl, dec = doc_from_lists(key, response, doc)
        return (kid, kcl, None), (rid, rcl, None), dec
    kms, kcs = _flatten(key, "key", doc)
    rms, rcs = _flatten(response, "response", doc)
    kty = types_from_mapping(kms, mention_types, doc)
    rty = types_from_mapping(rms, mention_types, doc)
    kid, kcl, rid, rcl, dec = doc_from_lists(key, response, doc, (kms, kcs, rms, rcs))
    return (kid, kcl, kty), (rid, rcl, rty), dec


def convert_batch(
    pairs: Sequence[tuple[Any, Any]], labels: Sequence[str], mention_types: Sequence[Any] | None = None
) -> Batch:
    """Convert ``(key, response)`` document pairs into one batch of CSR arrays.

    ``mention_types``, when given, has one mapping (or None) per document.
    """
    kparts, rparts, decoders = [], [], []
    types = mention_types if mention_types is not None else [None] * len(pairs)
    for (key, response), label, mt in zip(pairs, labels, types):
        k, r, dec = convert_doc(key, response, label, mt)
        kparts.append(k)
        rparts.append(r)
        decoders.append(dec)
    return Batch(_csr("key", kparts, labels), _csr("response", rparts, labels), decoders, list(labels))


def _span_side_fast(clusters: Any) -> tuple[list[int], list[int]] | None:
    """Packed ids and cluster positions of a plain list of lists of valid ``(start, end)`` tuples.

    The per-call fast path: one pass, no intermediate lists. Returns None for
    anything else (other containers, other mentions, invalid spans), which
    then takes the general path and its error messages.
    """
    if type(clusters) is not list and type(clusters) is not tuple:
        return None
    ids: list[int] = []
    cids: list[int] = []
    append = ids.append
    limit = _SPAN_LIMIT
    for i, cluster in enumerate(clusters):
        if type(cluster) is not list and type(cluster) is not tuple:
            return None
        for m in cluster:
            if type(m) is not tuple or len(m) != 2:
                return None
            s, e = m
            if type(s) is not int or type(e) is not int or not 0 <= s <= e < limit:
                return None
            append(s << SPAN_SHIFT | e)
        cids.extend([i] * len(cluster))
    return ids, cids


def single_doc(key: Any, response: Any) -> tuple[list[int], list[int], list[int], list[int], Decoder]:
    """The fast path for one document of list input.

    Returns key ids, key cluster ids, response ids, response cluster ids (as
    lists, which :func:`corefscore._lib.score_single` packs) and the decoder.
    """
    k = _span_side_fast(key)
    if k is not None:
        r = _span_side_fast(response)
        if r is not None:
            return k[0], k[1], r[0], r[1], _SPAN_DECODER
    return doc_from_lists(key, response, "0")
