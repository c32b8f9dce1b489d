"""The conversion layer: user inputs (clusters, arrays, labels, tensors) to the engine's CSR arrays.

Mentions compare by value. Per document, one of three encodings is chosen:

- every mention a span ``(start, end)`` of ints with ``0 <= start <= end < 2**31``:
  the id is ``start << 32 | end`` (packed by the library: ``_lib.pack_spans``,
  ``_lib.spans_from_lists``; :func:`unpack_span`);
- every mention an int: the id is the int;
- otherwise each distinct mention (any hashable) is numbered in order of
  first appearance, key first, so equal mentions on both sides share an id.

NumPy scalars, PyTorch tensors and 0-d/1-d arrays inside nested lists are
converted to ints and tuples first, never hashed by identity (a tensor's hash
is its ``id``). Only types and shapes are checked here; what the values mean
(cluster ids, type codes, duplicates) is the engine's to judge.
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Mapping
from typing import Any

import numpy as np

from . import _lib

SPAN_SHIFT = 32
_SPAN_LIMIT = 1 << 31
TYPE_CODES = {"unknown": 0, "name": 1, "nominal": 2, "pronoun": 3}
SPAN, INT, INTERN = "span", "int", "intern"


def unpack_span(mention_id: int) -> tuple[int, int]:
    return (mention_id >> SPAN_SHIFT, mention_id & ((1 << SPAN_SHIFT) - 1))


def _describe(x: Any) -> str:
    text = repr(x)
    return f"{text[:57] + '...' if len(text) > 60 else text} ({type(x).__name__})"


def to_numpy(x: Any) -> Any:
    """A NumPy view of a PyTorch tensor (detached, copied to the CPU); anything else unchanged."""
    if not isinstance(x, np.ndarray) and hasattr(x, "detach") and hasattr(x, "cpu") and hasattr(x, "numpy"):
        return x.detach().cpu().numpy()
    return x


class InputTypeError(TypeError):
    """A mention or container of the wrong type, located by side, document and position."""


def _value(m: Any, where: str) -> Any:
    """A mention as a plain value: ints, str and tuples as they are; tensors and arrays through tolist()."""
    t = type(m)
    if t is int or t is str:
        return m
    if t is tuple or t is list:
        v = tuple(_value(x, where) for x in m)
        if len(v) == 2 and any(isinstance(x, float) for x in v):
            bad = next(x for x in v if isinstance(x, float))
            if bad != bad:
                raise ValueError(f"{where} must have integer span bounds; got NaN in {v!r}.")
            raise InputTypeError(f"{where} must have integer span bounds; got {bad!r} in {v!r}.")
        return v
    if t is bool:
        raise InputTypeError(f"{where} must be an int, a (start, end) pair or a label; got {_describe(m)} instead.")
    if hasattr(m, "tolist") and hasattr(m, "shape"):  # NumPy scalars and arrays, torch tensors
        if len(m.shape) > 1:
            raise InputTypeError(f"{where} must be a scalar or a (start, end) pair; got shape {tuple(m.shape)}.")
        v = to_numpy(m).tolist() if hasattr(m, "detach") else m.tolist()
        if isinstance(v, float) and not float(v).is_integer():
            raise InputTypeError(f"{where} must hold integers; got {v!r} instead.")
        return _value(int(v) if isinstance(v, float) else v, where)
    if isinstance(m, float) and m != m:
        raise ValueError(f"{where} must not be NaN.")
    try:
        return operator.index(m)
    except TypeError:
        pass
    try:
        hash(m)
    except TypeError:
        raise InputTypeError(f"{where} must be hashable ((start, end), an int or a label); got {_describe(m)}.") \
            from None
    return m


def _flatten(clusters: Any, side: str, doc: str) -> tuple[list, list[int]]:
    """Mentions (as plain values) and cluster positions of one side given as a sequence of clusters."""
    if isinstance(clusters, (str, bytes, Mapping)) or not hasattr(clusters, "__iter__"):
        raise InputTypeError(f"`{side}` of document {doc} must be a sequence of clusters; got {_describe(clusters)}.")
    mentions: list = []
    cids: list[int] = []
    for i, cluster in enumerate(clusters):
        if isinstance(cluster, (str, bytes, Mapping)) or not hasattr(cluster, "__iter__"):
            raise InputTypeError(f"`{side}` of document {doc} must be a sequence of clusters, each a sequence "
                                 f"of mentions; got cluster {i} = {_describe(cluster)}.")
        for j, m in enumerate(cluster):
            mentions.append(_value(m, f"`{side}` of document {doc}, cluster {i}, mention {j}"))
            cids.append(i)
    return mentions, cids


def _is_span(m: Any) -> bool:
    return type(m) is tuple and len(m) == 2 and type(m[0]) is int and type(m[1]) is int and \
        0 <= m[0] <= m[1] < _SPAN_LIMIT


class Doc:
    """One converted document: per side (ids, clusters, types) and how ids map back to mentions.

    ``packed`` is ``(ids_then_clusters, n_key)`` when the per-call path made
    the document (:class:`_PackedDoc`), else None.
    """

    __slots__ = ("key", "kind", "packed", "response", "table")

    def __init__(self, key: tuple, response: tuple, kind: str, table: list | None = None) -> None:
        self.key, self.response, self.kind, self.table, self.packed = key, response, kind, table, None

    def mention(self, mention_id: int) -> Any:
        if self.kind == SPAN:
            return unpack_span(mention_id)
        return self.table[mention_id] if self.kind == INTERN else mention_id


class _PackedDoc(Doc):
    """A Doc of the per-call path: ``packed`` holds both sides' ids (packed spans, or ints), then their cluster
    positions, key first each (:func:`_lib.spans_from_lists`, :func:`from_arrays`); ``key`` and ``response``
    are sliced from it on demand."""

    __slots__ = ()

    def __init__(self, packed: tuple[array, int], kind: str = SPAN) -> None:
        self.packed, self.kind, self.table = packed, kind, None

    @property  # type: ignore[override]
    def key(self) -> tuple:
        both, nk = self.packed
        n = len(both) >> 1
        return both[:nk], both[n:n + nk], None

    @property  # type: ignore[override]
    def response(self) -> tuple:
        both, nk = self.packed
        n = len(both) >> 1
        return both[nk:n], both[n + nk:], None


def _type_codes(mentions: list, mention_types: Any, doc: str) -> np.ndarray:
    if not isinstance(mention_types, Mapping):
        raise InputTypeError(f"`mention_types` of document {doc} must be a mapping mention -> type; "
                             f"got {_describe(mention_types)}.")
    out = np.zeros(len(mentions), dtype=np.int8)
    for i, m in enumerate(mentions):
        value = mention_types.get(m)
        if value is None:
            continue  # unknown: the engine refuses it when a typed metric needs it
        code = TYPE_CODES.get(value.lower()) if isinstance(value, str) else \
            (int(value) if isinstance(value, (int, np.integer)) and not isinstance(value, bool) else None)
        if code is None or not 0 <= code <= 3:
            raise ValueError(f"`mention_types` of document {doc} must map mentions to 'name', 'nominal' or "
                             f"'pronoun' (or codes 0..3); got {value!r} for mention {m!r}.")
        out[i] = code
    return out


def from_lists(key: Any, response: Any, doc: str, mention_types: Any = None) -> Doc:
    """One document given as sequences of clusters on both sides."""
    if mention_types is None:
        packed = _lib.spans_from_lists(key, response)
        if packed is not None:
            return _PackedDoc(packed)
    return _from_lists(key, response, doc, mention_types)


def _from_lists(key: Any, response: Any, doc: str, mention_types: Any = None) -> Doc:
    """The general path of :func:`from_lists`: every mention checked and converted on its own."""
    kms, kcs = _flatten(key, "key", doc)
    rms, rcs = _flatten(response, "response", doc)
    kty = rty = None
    if mention_types is not None:
        kty, rty = _type_codes(kms, mention_types, doc), _type_codes(rms, mention_types, doc)
    pairs = [m for m in kms + rms if type(m) is tuple and len(m) == 2 and type(m[0]) is int and type(m[1]) is int]
    if pairs and len(pairs) == len(kms) + len(rms):
        bad = next((m for m in pairs if not _is_span(m)), None)
        if bad is not None:
            side = "key" if bad in kms else "response"
            raise ValueError(f"`{side}` of document {doc} must have spans (start, end) with "
                             f"0 <= start <= end < 2**31; got {bad!r} instead.")
        return Doc(([s << SPAN_SHIFT | e for s, e in kms], kcs, kty), ([s << SPAN_SHIFT | e for s, e in rms], rcs, rty),
                   SPAN)
    if all(type(m) is int and -(1 << 63) <= m < 1 << 63 for m in kms + rms):
        return Doc((kms, kcs, kty), (rms, rcs, rty), INT)
    index: dict = {}
    for m in kms + rms:
        index.setdefault(m, len(index))
    return Doc(([index[m] for m in kms], kcs, kty), ([index[m] for m in rms], rcs, rty), INTERN, list(index))


def _int_array(x: Any, what: str, ndims: tuple[int, ...]) -> np.ndarray:
    if type(x) is np.ndarray and x.dtype.kind == "i" and x.ndim in ndims and (x.ndim == 1 or x.shape[1] == 2):
        return x  # the common case, checked without copying
    try:
        arr = np.asarray(to_numpy(x))
    except ValueError:
        raise ValueError(f"{what} must be a rectangular integer array; got a ragged sequence instead.") from None
    if arr.size == 0 and arr.dtype.kind not in "iu":
        arr = arr.astype(np.int64).reshape((0, 2) if 1 not in ndims else (0,))
    if arr.dtype.kind not in "iu" or (arr.dtype.kind == "u" and arr.dtype.itemsize == 8):
        raise InputTypeError(f"{what} must be an integer array; got dtype {arr.dtype} instead.")
    if arr.ndim not in ndims or (arr.ndim == 2 and arr.shape[1] != 2):
        raise ValueError(f"{what} must have shape {' or '.join('(n,)' if d == 1 else '(n, 2)' for d in ndims)}; "
                         f"got {arr.shape} instead.")
    return arr


class ArraySide:
    """One side of a document as arrays: mentions, their cluster ids and optional types.

    Parameters
    ----------
    mentions : array of shape (n, 2) or (n,)
        Spans ``(start, end)`` or integer mention ids (NumPy, PyTorch or nested sequences).
    clusters : array of shape (n,)
        Cluster id (>= 0) of each mention.
    types : array of shape (n,), optional
        Mention type codes (0 unknown, 1 name, 2 nominal, 3 pronoun).

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
        self.mentions, self.clusters, self.types = mentions, clusters, types

    @classmethod
    def from_labels(cls, labels: Any, types: Any = None) -> ArraySide:
        """One side from labels over a shared mention list (``-1`` = absent): mention i is in cluster labels[i]."""
        return cls(None, labels, types)

    def __repr__(self) -> str:
        return f"ArraySide({self.mentions!r}, {self.clusters!r}, types={self.types!r})"

    def arrays(self, where: str) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, bool]:
        """(mentions, clusters, types, spans?): mentions as given, (n, 2) spans or (n,) ids."""
        if self.mentions is None:
            labels = _int_array(self.clusters, f"{where} labels", (1,))
            if labels.size and int(labels.min()) < -1:
                raise ValueError(f"{where} labels must be cluster ids >= 0 or -1 (absent); got {int(labels.min())}.")
            present = labels >= 0
            types = self._types(len(labels), where)
            return np.flatnonzero(present), labels[present], None if types is None else types[present], False
        ms = _int_array(self.mentions, f"{where} mentions", (1, 2))
        cs = _int_array(self.clusters, f"{where} clusters", (1,))
        if len(cs) != len(ms):
            raise ValueError(f"{where} clusters must have one entry per mention ({len(ms)}); got {len(cs)}.")
        return ms, cs, self._types(len(cs), where), ms.ndim == 2

    def _types(self, n: int, where: str) -> np.ndarray | None:
        if self.types is None:
            return None
        types = _int_array(self.types, f"{where} types", (1,))
        if len(types) != n:
            raise ValueError(f"{where} types must have one entry per mention ({n}); got {len(types)}.")
        return types


def from_arrays(key: ArraySide, response: ArraySide, doc: str) -> Doc:
    """One document of two ArraySides: spans packed by the library; untyped documents made per-call (packed)."""
    if not (isinstance(key, ArraySide) and isinstance(response, ArraySide)):
        raise InputTypeError(f"document {doc}: both sides must be ArraySide when one is; got "
                             f"{type(key).__name__} and {type(response).__name__}.")
    where = (f"`key` of document {doc}", f"`response` of document {doc}")
    kms, kcl, kty, kspan = key.arrays(where[0])
    rms, rcl, rty, rspan = response.arrays(where[1])
    if kspan != rspan:
        raise ValueError(f"`response` of document {doc} must give mentions like the key (spans or ids).")
    nk, n = len(kcl), len(kcl) + len(rcl)
    both = _lib.int64s(2 * n)  # ids, key first, then clusters
    view = np.frombuffer(both, dtype=np.int64)
    if kspan:
        base = both.buffer_info()[0]
        for side, spans, at in ((0, kms, 0), (1, rms, nk)):
            spans = np.ascontiguousarray(spans, dtype=np.int64)
            try:
                _lib.pack_spans(spans.ctypes.data, len(spans), base + 8 * at)
            except _lib.EngineError as exc:
                if exc.kind != "mention":
                    raise
                raise ValueError(f"{where[side]} mentions must be spans (start, end) with 0 <= start <= end < "
                                 f"2**31; got {(exc.start, exc.end)} at row {exc.mention}.") from None
    else:
        view[:nk], view[nk:n] = kms, rms
    view[n:n + nk], view[n + nk:] = kcl, rcl
    kind = SPAN if kspan else INT
    if kty is None and rty is None:
        return _PackedDoc((both, nk), kind)
    return Doc((view[:nk], view[n:n + nk], kty), (view[nk:n], view[n + nk:], rty), kind)


def convert(key: Any, response: Any, doc: str, mention_types: Any = None) -> Doc:
    """One document in any accepted form."""
    if isinstance(key, ArraySide) or isinstance(response, ArraySide):
        if mention_types is not None:
            raise InputTypeError(f"`mention_types` of document {doc} must be None for ArraySide input "
                                 "(give ArraySide(..., types=...)).")
        return from_arrays(key, response, doc)
    return from_lists(key, response, doc, mention_types)


def csr(docs: list[Doc], side: str) -> tuple:
    """(offsets, ids, clusters, types) of one side of a batch, as int64/int8 buffers."""
    parts = [getattr(d, side) for d in docs]
    if len(parts) == 1 and type(parts[0][0]) in (list, array) and parts[0][2] is None:  # one document of list input
        ids, cls, _ = parts[0]
        return array("q", (0, len(cls))), array("q", ids), array("q", cls), None
    lengths = [len(p[1]) for p in parts]
    offsets = np.zeros(len(parts) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    if all(type(p[0]) is list for p in parts):
        ids: Any = array("q", [x for p in parts for x in p[0]])
        cls: Any = array("q", [x for p in parts for x in p[1]])
    else:
        ids = np.concatenate([np.asarray(p[0], dtype=np.int64) for p in parts]) if parts else np.zeros(0, np.int64)
        cls = np.concatenate([np.asarray(p[1], dtype=np.int64) for p in parts]) if parts else np.zeros(0, np.int64)
    types = None
    if any(p[2] is not None for p in parts):
        types = np.zeros(int(offsets[-1]), dtype=np.int8)
        for d, p in enumerate(parts):
            if p[2] is not None:
                t = np.asarray(p[2])
                if t.size and (int(t.min()) < -128 or int(t.max()) > 127):
                    raise ValueError(f"`{side}` types of document {d} must be codes 0..3; got {int(t.max())}.")
                types[offsets[d]:offsets[d + 1]] = t
    return offsets, ids, cls, types
