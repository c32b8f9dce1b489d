"""The conversion layer: user inputs (clusters, arrays, labels, tensors) to one packed document form.

Every input becomes one form, :class:`Doc`: one int64 buffer holding both
sides' mention ids (key first), then both sides' cluster positions, with the
key's mention count and optional int8 types. Mentions compare by value. Per
document, one of three encodings is chosen, by an O(1) look at the first
mention (a span goes to the library's packing, anything else is converted
here):

- every mention a span ``(start, end)`` of ints (any tuple, named tuples
  included) with ``0 <= start <= end < 2**31``: the id is
  ``start << 32 | end``, always packed by the library (``_lib.pack_spans``,
  ``_lib.spans_from_lists``); :func:`unpack_span` is its inverse;
- every mention an int: the id is the int;
- otherwise each distinct mention (any hashable) is numbered in order of
  first appearance, key first, so equal mentions on both sides share an id.

In a batch that mixes span documents with others, the others are packed as
one-token spans ``(i, i)`` of their numbered mentions, so that the engine
reads every document of the batch as spans (an error analysis then sees the
span documents' spans) and no two distinct mentions overlap.

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
    """The ``(start, end)`` of a span id: the inverse of the library's packing (:func:`_pack`)."""
    return (mention_id >> SPAN_SHIFT, mention_id & ((1 << SPAN_SHIFT) - 1))


def _pack(spans: list) -> array:
    """The span ids of ``(start, end)`` pairs, packed by the library: the packing rule lives there alone."""
    rows = np.array(spans, dtype=np.int64).reshape(-1, 2)
    out = _lib.int64s(2 * len(rows))[:len(rows)]
    if len(rows):
        _lib.pack_spans(rows.ctypes.data, len(rows), out.buffer_info()[0])
    return out


def _describe(x: Any) -> str:
    """A short description of a value for a message: its repr, cut short, without reading all of a huge value."""
    if _short_repr is None:
        _make_short_repr()
    text = _short_repr.repr(x)
    return f"{text[:57] + '...' if len(text) > 60 else text} ({type(x).__name__})"


_short_repr: Any = None


def _make_short_repr() -> None:
    # reprlib reads only what it shows: a 100 MB string given as a cluster costs a slice, not a copy of it.
    import reprlib

    global _short_repr
    r = reprlib.Repr()
    r.maxstring = r.maxother = r.maxlong = 64
    r.maxlist = r.maxtuple = r.maxset = r.maxfrozenset = r.maxdeque = r.maxarray = r.maxdict = 8
    r.maxlevel = 4
    _short_repr = r


def to_numpy(x: Any) -> Any:
    """A NumPy view of a PyTorch tensor (detached, copied to the CPU); anything else unchanged."""
    if not isinstance(x, np.ndarray) and hasattr(x, "detach") and hasattr(x, "cpu") and hasattr(x, "numpy"):
        return x.detach().cpu().numpy()
    return x


class InputTypeError(TypeError):
    """A mention or container of the wrong type, located by side, document and position."""


def _is_sequence(x: Any) -> bool:
    return type(x) is list or type(x) is tuple


def _value(m: Any, where: str) -> Any:
    """A mention as a plain value: ints, str and tuples as they are; tensors and arrays through tolist()."""
    t = type(m)
    if t is int or t is str:
        return m
    if isinstance(m, (tuple, list)):  # named tuples too: a span is a span however it is spelled
        if m and (all(_is_sequence(x) and len(x) and _is_sequence(x[0]) for x in m) or
                  (t is list and all(_is_sequence(x) for x in m))):
            raise InputTypeError(f"{where} must be a (start, end) pair, an int or a hashable label; got a sequence "
                                 f"of spans {_describe(m)} instead: a batch of documents goes to score_corpus, "
                                 "one document is a list of clusters, each a list of mentions (a mention made of "
                                 "several spans is a tuple of them).")
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


def _check_sides(clusters: Any, side: str, doc: str) -> None:
    """Refuses a side that is not a sequence of clusters, by an O(1) look: before any mention is read."""
    if isinstance(clusters, (str, bytes, Mapping)) or not hasattr(clusters, "__iter__"):
        raise InputTypeError(f"`{side}` of document {doc} must be a sequence of clusters; got {_describe(clusters)}.")


def _flatten(clusters: Any, side: str, doc: str) -> tuple[list, list[int]]:
    """Mentions (as plain values) and cluster positions of one side given as a sequence of clusters."""
    _check_sides(clusters, side, doc)
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


def _is_pair(c: Any) -> bool:
    return type(c) is tuple and len(c) == 2 and type(c[0]) is int and type(c[1]) is int


class Doc:
    """One converted document: the packed form every road hands to the engine.

    ``both`` is one int64 buffer (array("q") or ndarray) of 2n values: both
    sides' mention ids, key first, then both sides' cluster positions, key
    first; ``nk`` is the key's mention count; ``types`` is None or an int8
    array of n type codes, key first. ``kind`` says how ids map back to the
    caller's mentions (``table`` holds the numbered ones).
    """

    __slots__ = ("both", "kind", "nk", "table", "types")

    def __init__(self, both: Any, nk: int, kind: str, types: Any = None, table: list | None = None) -> None:
        self.both, self.nk, self.kind, self.types, self.table = both, nk, kind, types, table

    def side(self, which: str) -> tuple:
        """(ids, clusters, types) of ``"key"`` or ``"response"``, as slices of the packed buffer."""
        n, nk, t = len(self.both) >> 1, self.nk, self.types
        if which == "key":
            return self.both[:nk], self.both[n:n + nk], None if t is None else t[:nk]
        return self.both[nk:n], self.both[n + nk:], None if t is None else t[nk:]

    key = property(lambda self: self.side("key"))
    response = property(lambda self: self.side("response"))

    def mention(self, mention_id: int) -> Any:
        if self.kind == SPAN:
            return unpack_span(mention_id)
        return self.table[mention_id] if self.kind == INTERN else mention_id

    def as_spans(self) -> Doc:
        """This document with every mention packed as a one-token span (i, i) of its number (see the module)."""
        if self.kind == SPAN:
            return self
        n = len(self.both) >> 1
        ids = self.both[:n].tolist() if hasattr(self.both, "tolist") else list(self.both[:n])
        table = self.table if self.kind == INTERN else list(dict.fromkeys(ids))
        number = range(len(table)) if self.kind == INTERN else {m: i for i, m in enumerate(table)}
        both = _pack([(number[m], number[m]) for m in ids]) + array("q", self.both[n:])
        return _Points(both, self.nk, INTERN, self.types, table)


class _Points(Doc):
    """A document packed as one-token spans (i, i): mention i of ``table``."""

    __slots__ = ()

    def mention(self, mention_id: int) -> Any:
        return self.table[unpack_span(mention_id)[1]]


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
    """One document given as sequences of clusters on both sides.

    An O(1) look at the first mention chooses the road: a ``(start, end)``
    pair of ints goes to the library's packing (:func:`_lib.spans_from_lists`),
    anything else (or a span the library refuses) to :func:`_from_lists`.
    """
    if mention_types is None:
        try:
            first = (key[0] if len(key) else response[0])[0]
        except Exception:  # no first mention to look at (empty, not indexable): the general path
            first = None
        if type(first) is tuple and len(first) == 2 and type(first[0]) is int and type(first[1]) is int:
            packed = _lib.spans_from_lists(key, response)
            if packed is not None:
                return Doc(packed[0], packed[1], SPAN)
    return _from_lists(key, response, doc, mention_types)


def _refuse_bare_cluster(side: Any, name: str, doc: str) -> None:
    """A side whose "clusters" are all (int, int) pairs is one cluster of spans given unwrapped."""
    if isinstance(side, (list, tuple)) and side and all(_is_pair(c) for c in side):
        raise InputTypeError(f"`{name}` of document {doc} must be a sequence of clusters, each a sequence of "
                             f"mentions; got {_describe(side)}, a sequence of (int, int) pairs: if it is one "
                             f"cluster of spans, wrap it in a list ([{side!r}]).")


def _from_lists(key: Any, response: Any, doc: str, mention_types: Any = None) -> Doc:
    """The general path of :func:`from_lists`: every mention checked and converted on its own."""
    for name, side in (("key", key), ("response", response)):  # both refused before either is read
        _check_sides(side, name, doc)
    _refuse_bare_cluster(key, "key", doc)
    _refuse_bare_cluster(response, "response", doc)
    kms, kcs = _flatten(key, "key", doc)
    rms, rcs = _flatten(response, "response", doc)
    types = None
    if mention_types is not None:
        types = np.concatenate([_type_codes(kms, mention_types, doc), _type_codes(rms, mention_types, doc)])
    ms, nk = kms + rms, len(kms)
    if ms and all(_is_pair(m) for m in ms):
        bad = next((m for m in ms if not _is_span(m)), None)
        if bad is not None:
            side = "key" if bad in kms else "response"
            raise ValueError(f"`{side}` of document {doc} must have spans (start, end) with "
                             f"0 <= start <= end < 2**31; got {bad!r} instead.")
        return Doc(_pack(ms) + array("q", kcs + rcs), nk, SPAN, types)
    if all(type(m) is int and -(1 << 63) <= m < 1 << 63 for m in ms):
        return Doc(array("q", ms + kcs + rcs), nk, INT, types)
    index: dict = {}
    for m in ms:
        index.setdefault(m, len(index))
    return Doc(array("q", [index[m] for m in ms] + kcs + rcs), nk, INTERN, types, list(index))


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
    """One document of two ArraySides: spans packed by the library into the document's one buffer."""
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
    types = None
    if kty is not None or rty is not None:
        types = np.zeros(n, np.int8)
        for t, at, end in ((kty, 0, nk), (rty, nk, n)):
            if t is not None:
                if t.size and (int(t.min()) < -128 or int(t.max()) > 127):
                    raise ValueError(f"types of document {doc} must be codes 0..3; got {int(t.max())}.")
                types[at:end] = t
    return Doc(both, nk, SPAN if kspan else INT, types)


def convert(key: Any, response: Any, doc: str, mention_types: Any = None) -> Doc:
    """One document in any accepted form."""
    if isinstance(key, ArraySide) or isinstance(response, ArraySide):
        if mention_types is not None:
            raise InputTypeError(f"`mention_types` of document {doc} must be None for ArraySide input "
                                 "(give ArraySide(..., types=...)).")
        return from_arrays(key, response, doc)
    return from_lists(key, response, doc, mention_types)


def csr(docs: list[Doc], side: str) -> tuple:
    """(offsets, ids, clusters, types) of one side of a batch, as int64/int8 arrays."""
    parts = [d.side(side) for d in docs]
    offsets = np.zeros(len(parts) + 1, dtype=np.int64)
    np.cumsum([len(p[1]) for p in parts], out=offsets[1:])
    ids = np.concatenate([np.frombuffer(p[0], np.int64) if type(p[0]) is array else p[0] for p in parts]) \
        if parts else np.zeros(0, np.int64)
    cls = np.concatenate([np.frombuffer(p[1], np.int64) if type(p[1]) is array else p[1] for p in parts]) \
        if parts else np.zeros(0, np.int64)
    types = None
    if any(p[2] is not None for p in parts):
        types = np.zeros(int(offsets[-1]), dtype=np.int8)
        for d, p in enumerate(parts):
            if p[2] is not None:
                types[offsets[d]:offsets[d + 1]] = p[2]
    return offsets, ids, cls, types
