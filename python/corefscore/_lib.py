"""The ABI layer: the one module that knows ctypes and ``capi/corefscore.h`` (ABI v4).

Nothing runs at import time: the library, and with it the Go runtime, is
loaded on first use, so importing corefscore before ``os.fork()`` is safe.
A Go runtime does not survive ``fork()``: a child forked after the library
was loaded gets :class:`ForkedProcessError` instead of a hang. Long calls run
on a helper thread while the calling thread waits interruptibly, so Ctrl-C
sets the engine's cancel flag and raises KeyboardInterrupt at once.

This layer passes facts, not prose: a failed call raises :class:`EngineError`
with the fields of ``cs_error``; the layers above turn it into the exception
a user sees, in the caller's terms.
"""

from __future__ import annotations

import ctypes
import os
from _thread import allocate_lock, get_ident, start_new_thread
from marshal import dumps as _marshal

TYPE_CHECKING = False  # typing costs ~20 ms of start-up that the command line need not pay
if TYPE_CHECKING:
    from array import array
    from typing import Any

ABI_VERSION = 4
LIBRARY_ENV = "COREFSCORE_LIBRARY"
LIBRARY_NAME = "libcorefscore.so"

# Statuses and error kinds of corefscore.h.
CS_OK, CS_INVALID_INPUT, CS_BUFFER_TOO_SMALL, CS_INTERNAL, CS_IO, CS_CANCELLED = range(6)
ERR_KINDS = ("none", "argument", "option", "mention", "duplicate", "missing_types", "parse", "not_found", "io",
             "cancelled", "internal", "missing_heads")
MESSAGE_LEN = 512
#: Inputs at least this large run on a helper thread so that Ctrl-C is honoured at once.
INTERRUPTIBLE_MENTIONS = 20_000

_i64, _i32, _p = ctypes.c_int64, ctypes.c_int32, ctypes.c_void_p


class CsError(ctypes.Structure):
    _fields_ = [("status", _i32), ("kind", _i32), ("doc", _i64), ("side", _i32), ("option", _i32),
                ("mention", _i64), ("line", _i64), ("start", _i64), ("end", _i64),
                ("message", ctypes.c_char * MESSAGE_LEN)]


class CsSide(ctypes.Structure):
    _fields_ = [("offsets", _p), ("mentions", _p), ("clusters", _p), ("types", _p), ("length", _i64)]


class CsNames(ctypes.Structure):
    _fields_ = [("bytes", _p), ("offsets", _p)]


class CsDuplicate(ctypes.Structure):
    _fields_ = [("doc", _i64), ("side", _i32), ("reserved", _i32), ("mention", _i64), ("first_cluster", _i64),
                ("cluster", _i64), ("line", _i64), ("start", _i64), ("end", _i64)]


class CsWarning(ctypes.Structure):
    _fields_ = [("kind", _i32), ("side", _i32), ("doc", _i64), ("line", _i64), ("count", _i64),
                ("message", ctypes.c_char * MESSAGE_LEN)]


class CsErrorRecord(ctypes.Structure):
    _fields_ = [("doc", _i64), ("anchor", _i64), ("category", ctypes.c_int8), ("has_anchor", ctypes.c_int8),
                ("types", ctypes.c_int8 * 2), ("reserved", _i32)]


class CsAnalysisSizes(ctypes.Structure):
    _fields_ = [(n, _i64) for n in ("n_docs", "names_len", "n_records", "n_mentions", "n_key_entities",
                                     "n_response_entities", "n_warnings")]


class CsReport(ctypes.Structure):
    _fields_ = [("applied", ctypes.c_uint64), ("n_dups", _i64), ("n_warnings", _i64), ("analysis", _i64),
                ("analysis_sizes", CsAnalysisSizes)]


class CsAnalysisBuffers(ctypes.Structure):
    _fields_ = [("names", _p), ("names_len", _i64), ("name_offsets", _p), ("docs_len", _i64), ("records", _p),
                ("mention_offsets", _p), ("key_offsets", _p), ("response_offsets", _p), ("records_len", _i64),
                ("mentions", _p), ("mentions_len", _i64), ("key_entities", _p), ("key_entities_len", _i64),
                ("response_entities", _p), ("response_entities_len", _i64), ("warnings", _p),
                ("warnings_cap", _i64)]


class CsDocumentsSizes(ctypes.Structure):
    _fields_ = [(n, _i64) for n in ("n_docs", "names_len", "n_mentions", "n_words", "words_len", "n_sentences")]


class CsFilesResult(ctypes.Structure):
    _fields_ = [("scores", _i64), ("n_docs", _i64), ("names_len", _i64), ("report", CsReport),
                ("key_documents", _i64), ("key_sizes", CsDocumentsSizes),
                ("response_documents", _i64), ("response_sizes", CsDocumentsSizes)]


class CsDocumentsBuffers(ctypes.Structure):
    _fields_ = [("names", _p), ("names_len", _i64), ("name_offsets", _p), ("mention_offsets", _p),
                ("word_docs", _p), ("sentence_docs", _p), ("docs_len", _i64), ("mentions", _p),
                ("mentions_len", _i64), ("words", _p), ("words_len", _i64), ("word_offsets", _p),
                ("n_words_len", _i64), ("sentence_ends", _p), ("sentences_len", _i64)]


class EngineError(Exception):
    """A failed call, as the fields of ``cs_error`` (``kind`` is a name from :data:`ERR_KINDS`)."""

    def __init__(self, err: CsError) -> None:
        self.status = int(err.status)
        self.kind = ERR_KINDS[err.kind] if 0 <= err.kind < len(ERR_KINDS) else "internal"
        self.doc, self.side, self.option = int(err.doc), int(err.side), int(err.option)
        self.mention, self.line, self.start, self.end = int(err.mention), int(err.line), int(err.start), int(err.end)
        self.reason = err.message.decode("utf-8", "replace")
        super().__init__(self.reason)


class ForkedProcessError(RuntimeError):
    """The library was started in a parent process; this forked child cannot use it."""


_lock = allocate_lock()
_lib: ctypes.CDLL | None = None
_loaded_pid = 0
_columns: tuple[str, ...] = ()
_metrics: tuple[str, ...] = ()


def library_path() -> str:
    """``$COREFSCORE_LIBRARY``, else the library beside this module (else importlib.resources)."""
    override = os.environ.get(LIBRARY_ENV)
    if override:
        return override
    beside = os.path.join(os.path.dirname(os.path.abspath(__file__)), LIBRARY_NAME)
    if os.path.exists(beside):
        return beside
    import importlib.resources

    return str(importlib.resources.files("corefscore").joinpath(LIBRARY_NAME))


def _declare(cdll: ctypes.CDLL) -> None:
    P, c_str = ctypes.POINTER, ctypes.c_char_p
    sigs = {
        "cs_columns": ([_p, _i64, _p, _i64, P(_i64), P(_i64)], _i32),
        "cs_options_new": ([_i32, P(c_str), P(c_str), P(_i64), P(CsError)], _i32),
        "cs_free": ([_i64], None),
        # Pointers as void*: ctypes then passes the prebuilt c_void_p objects of the per-call path as they are
        # (typed POINTER argtypes cost ~1.5 us a call, a third of the bare call, in checks of their own).
        "cs_score_batch": ([_i64, _p, _p, _p, _i64, _p, _p, _i64, _p, _i64, _p, _i64, _p, _p], _i32),
        "cs_pack_spans": ([_p, _i64, _p, P(CsError)], _i32),
        "cs_spans_from_marshal": ([c_str, _i64, _i64, _p, _i64, P(_i64), P(CsError)], _i32),
        "cs_score_files": ([c_str, c_str, _i64, P(ctypes.c_int32), P(CsFilesResult), P(CsError)], _i32),
        "cs_take_result": ([_i64, _p, _i64, _p, _i64, _p, _i64, _p, _i64, _p, _i64, P(CsError)], _i32),
        "cs_take_analysis": ([_i64, P(CsAnalysisBuffers), P(CsError)], _i32),
        "cs_take_documents": ([_i64, P(CsDocumentsBuffers), P(CsError)], _i32),
    }
    for name, (args, res) in sigs.items():
        fn = getattr(cdll, name)
        fn.argtypes, fn.restype = args, res


def _forked_child() -> None:
    global _lib, _lock
    _lib, _lock = None, allocate_lock()  # every later call raises ForkedProcessError


def lib() -> ctypes.CDLL:
    """The loaded library (loaded once, thread-safe).

    Raises ImportError naming the path when the library is missing, unloadable
    or of another ABI version, and ForkedProcessError in a child forked after
    the parent loaded it.
    """
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is None:
            _load()
    assert _lib is not None
    return _lib


def _load() -> None:
    global _lib, _loaded_pid, _columns, _metrics
    if _loaded_pid and _loaded_pid != os.getpid():
        raise ForkedProcessError(
            f"corefscore: this process was forked from process {_loaded_pid} after that process had used "
            "corefscore; its scoring engine (a Go runtime) cannot run in a forked child. Start worker processes "
            "with the 'spawn' or 'forkserver' method instead: multiprocessing.get_context('spawn').Pool(...), "
            "or multiprocessing.set_start_method('forkserver') before creating them (DataLoader: "
            "multiprocessing_context='spawn')."
        )
    path = library_path()
    if not os.path.exists(path):
        raise ImportError(f"corefscore: the shared library was not found at {path}; reinstall the package "
                          "(`pip install .`) or build it with `make build`")
    try:
        cdll = ctypes.CDLL(path)
        cdll.cs_abi_version.argtypes, cdll.cs_abi_version.restype = [], _i32
        found = int(cdll.cs_abi_version())
    except (OSError, AttributeError) as exc:
        raise ImportError(f"corefscore: cannot load the shared library {path}: {exc}") from exc
    if found != ABI_VERSION:
        raise ImportError(f"corefscore: the shared library {path} implements ABI version {found}, but this "
                          f"package needs version {ABI_VERSION}; reinstall the package or run `make build`")
    _declare(cdll)
    n, need = _i64(0), _i64(0)
    cdll.cs_columns(None, 0, None, 0, ctypes.byref(n), ctypes.byref(need))
    buf, metric_of = ctypes.create_string_buffer(need.value), (_i32 * n.value)()
    if cdll.cs_columns(buf, need.value, metric_of, n.value, ctypes.byref(n), ctypes.byref(need)) != CS_OK:
        raise ImportError(f"corefscore: {path}: cs_columns failed")
    names = buf.raw.decode().split("\0")[:-1]
    metrics: list[str] = []
    for name, m in zip(names, metric_of):
        if m == len(metrics):
            metrics.append(name.partition(".")[0])
    _columns, _metrics = tuple(names), tuple(metrics)
    if not _loaded_pid:
        os.register_at_fork(after_in_child=_forked_child)
    _loaded_pid = os.getpid()
    _lib = cdll


def columns() -> tuple[str, ...]:
    """The counts columns, in order (``"muc.recall_num"``, ...)."""
    lib()
    return _columns


def metric_names() -> tuple[str, ...]:
    """Metric names in engine order: bit i of ``applied`` is the i-th."""
    lib()
    return _metrics


def check(status: int, err: CsError) -> None:
    """Raise EngineError (or KeyboardInterrupt for a cancelled call) unless status is CS_OK."""
    if status == CS_OK:
        return
    if status == CS_CANCELLED:
        raise KeyboardInterrupt
    if err.status != status:  # a library that did not fill the record: still a fact to report
        err.status, err.kind = status, ERR_KINDS.index("internal")
    raise EngineError(err)


def interruptible(call: Any, args: tuple, cancel: ctypes.c_int32, big: bool) -> int:
    """``call(*args)``; when ``big``, on a helper thread, so that Ctrl-C sets ``cancel`` and raises at once.

    The engine polls ``cancel`` and stops within 100 ms; KeyboardInterrupt is
    re-raised as soon as the helper thread has returned.
    """
    cancel.value = 0  # a flag an interrupted call left set must not cancel this one
    if not big:
        return call(*args)
    done = allocate_lock()
    done.acquire()
    out: list = []

    def run() -> None:
        try:
            out.append(call(*args))
        finally:
            done.release()

    start_new_thread(run, ())
    try:
        # Short waits: a signal delivered to another thread (the Go runtime's) interrupts no wait of
        # this one, but Python runs its handler, and raises KeyboardInterrupt, between two waits.
        while not done.acquire(timeout=0.05):
            pass
    except KeyboardInterrupt:
        cancel.value = 1
        done.acquire()
        raise
    return out[0]


def options_new(pairs: list[tuple[str, str]]) -> int:
    """A validated options handle from (key, value) strings; EngineError (kind "option") names the index."""
    cdll = lib()
    n = len(pairs)
    keys = (ctypes.c_char_p * max(n, 1))(*[k.encode() for k, _ in pairs])
    values = (ctypes.c_char_p * max(n, 1))(*[v.encode("utf-8", "surrogateescape") for _, v in pairs])
    handle, err = _i64(0), CsError()
    check(cdll.cs_options_new(n, keys, values, ctypes.byref(handle), ctypes.byref(err)), err)
    return int(handle.value)


def free(handle: int) -> None:
    """Free a handle of any kind (0 and unknown handles are ignored)."""
    if handle and _lib is not None:
        _lib.cs_free(handle)


def _addr(a: Any) -> int | None:
    """Data address of an ndarray or array.array (None for None)."""
    if a is None:
        return None
    iface = getattr(a, "__array_interface__", None)  # NumPy; else an array.array
    return a.buffer_info()[0] if iface is None else iface["data"][0]


try:
    from _thread import _local as _ThreadLocal  # what threading.local is, without importing threading
except ImportError:  # pragma: no cover
    from threading import local as _ThreadLocal

DUPS_KEPT = 4096  # duplicate records kept per call; all are counted


class _Scratch(_ThreadLocal):
    """Per-thread ctypes objects reused by every scoring call (allocating 4,096 records a call would dominate it).

    ``offsets`` serves a packed document: ``[0, n_key, 0, n_response]``, the
    offsets of ``one_key`` and ``one_response``, which point into its buffer.
    """

    def __init__(self) -> None:
        self.dups = (CsDuplicate * DUPS_KEPT)()
        self.warns = (CsWarning * 64)()
        self.report, self.err, self.cancel = CsReport(), CsError(), ctypes.c_int32(0)
        self.key, self.response, self.names = CsSide(), CsSide(), CsNames()
        self.offsets = (ctypes.c_int64 * 4)()
        self.one_key, self.one_response = CsSide(), CsSide()  # a packed document's sides: offsets [0, nk], [0, nr]
        self.one_key.offsets = ctypes.addressof(self.offsets)
        self.one_response.offsets = self.one_key.offsets + 16
        self.one_refs = (_p(ctypes.addressof(self.one_key)), _p(ctypes.addressof(self.one_response)))
        address = ctypes.addressof
        # The call's pointers, as the c_void_p objects its argtypes take (see _declare).
        self.refs = tuple(_p(address(x)) for x in (self.key, self.response, self.names, self.cancel, self.report,
                                                    self.err, self.dups, self.warns))
        self.caps = (_i64(DUPS_KEPT), _i64(len(self.warns)), _i64(1))
        self.n_key = _i64(0)
        self.row: tuple | None = None  # the per-call counts row (NumPy view, ctypes buffer): see _one_args
        self.one_args: dict[int, tuple] = {}  # score_one's arguments per options handle


_scratch = _Scratch()
array_type: type | None = None  # array.array, once a packed document has been made (int64s)
_PAIR: array | None = None  # array("q", (0, 0)), made on first use: array imports collections.abc
_ERR_MENTION = ERR_KINDS.index("mention")


def int64s(n: int) -> array:
    """A zeroed array("q") of n values (n even): a packed document, which the sides point into."""
    global _PAIR, array_type
    if _PAIR is None:
        from array import array

        _PAIR, array_type = array("q", (0, 0)), array
    return _PAIR * (n >> 1)


def pack_spans(spans: int, n: int, out: int) -> None:
    """Pack the n (start, end) int64 rows at address ``spans`` into span ids at address ``out``.

    Raises EngineError of kind "mention" (``mention`` the row, ``start`` and
    ``end`` its bounds) for a row outside ``0 <= start <= end < 2**31``.
    """
    cdll = _lib if _lib is not None else lib()
    err = _scratch.err
    status = cdll.cs_pack_spans(spans, n, out, err)
    if status:
        check(status, err)


def spans_from_lists(key: Any, response: Any) -> tuple[array, int] | None:
    """One document as int64s: both sides' packed span ids, then their cluster positions (key first each).

    Returns that array and the key's mention count, for two lists (or
    tuples) of clusters of ``(start, end)`` int pairs with ``0 <= start <=
    end < 2**31``. The sides cross as ``marshal.dumps((key, response), 4)``
    (C code, ~50 ns a mention; marshal writes exact int, list and tuple
    only, so bool, subclasses and NumPy scalars never pass for them) and the
    library checks and packs them. Anything else returns None, for the
    caller's own conversion and its messages.
    """
    if (type(key) is not list and type(key) is not tuple) or (type(response) is not list and
                                                               type(response) is not tuple):
        return None  # (map(len, ...) below must not consume a one-shot iterable)
    try:
        n = sum(map(len, key)) + sum(map(len, response))
        data = _marshal((key, response), 4)
    except (TypeError, ValueError):  # not sized, or not marshallable
        return None
    cdll = _lib if _lib is not None else lib()
    s = _scratch
    out = int64s(2 * n)
    status = cdll.cs_spans_from_marshal(data, len(data), n, out.buffer_info()[0], 2 * n, s.n_key, s.err)
    if status == CS_OK:
        return out, s.n_key.value
    if status == CS_INVALID_INPUT and s.err.kind == _ERR_MENTION:
        return None
    check(status, s.err)
    return None


def _fill(side: CsSide, parts: tuple) -> None:
    offsets, mentions, clusters, types = parts
    side.offsets, side.mentions, side.clusters = _addr(offsets), _addr(mentions), _addr(clusters)
    side.types, side.length = _addr(types), len(clusters)


def score(n_docs: int, key: tuple | None, response: tuple | None, names: tuple | None, options: int,
          n_mentions: int, scores: bool = True, packed: tuple | None = None):
    """The one scoring call: ``cs_score_batch`` on a batch, or on one document packed as one buffer.

    ``key``/``response`` are (offsets, mentions, clusters, types-or-None)
    buffers, or None with ``packed = (both, n_key, types-or-None)``: one
    document whose ids (key first) and cluster positions sit in one int64
    buffer ``both`` that the sides point into (nothing is copied).
    ``names`` is (bytes, offsets) or None; ``scores=False`` leaves out the
    counts (an analysis only: the options ask for it). Returns ``(counts,
    applied, dups, n_dups, warnings, analysis)``: an (n_docs, n_columns)
    float64 array, the applied metrics bit mask, copies of the first
    DUPS_KEPT CsDuplicate records, their total count, CsWarning copies and
    what :func:`_take_analysis` returns (or None). Raises EngineError or
    KeyboardInterrupt.
    """
    cdll = _lib if _lib is not None else lib()
    s = _scratch
    if packed is None:
        _fill(s.key, key)
        _fill(s.response, response)
        sides = s.refs[:2]
    else:
        _point(s, *packed)
        sides = s.one_refs
    cnames = None
    if names is not None:
        s.names.bytes, s.names.offsets = _addr(names[0]), _addr(names[1])
        cnames = s.refs[2]
    import numpy as np

    counts = np.zeros((n_docs, len(_columns)) if scores else (0, 0))
    args = (n_docs, *sides, cnames, options, s.refs[3], _addr(counts), counts.size, s.refs[6], DUPS_KEPT,
            s.refs[7], len(s.warns), s.refs[4], s.refs[5])
    status = interruptible(cdll.cs_score_batch, args, s.cancel, n_mentions >= INTERRUPTIBLE_MENTIONS)
    if status:
        check(status, s.err)
    return counts, *_report(cdll, s)


def score_one(both: Any, nk: int, types: Any, options: int):
    """:func:`score` of one packed document of fewer than INTERRUPTIBLE_MENTIONS mentions: the per-call path.

    The same call with arguments made once per thread and options handle;
    the engine writes the thread's counts row and the caller gets a copy.
    """
    cdll = _lib if _lib is not None else lib()
    s = _scratch
    _point(s, both, nk, types)
    status = cdll.cs_score_batch(*(s.one_args.get(options) or _one_args(s, options)))
    if status:
        check(status, s.err)
    report = s.report
    if not (report.n_dups or report.n_warnings):  # (no analysis: the per-call path scores)
        return s.row[0].copy(), report.applied, (), 0, (), None
    return s.row[0].copy(), *_report(cdll, s)


#: Marshal data up to this size takes score_marshal (about MARSHAL_MAX / 11 mentions, far below
#: INTERRUPTIBLE_MENTIONS: a call without a cancel flag must stay short).
MARSHAL_MAX = 1 << 17


def score_marshal(key: Any, response: Any, options: int) -> tuple | None:
    """The per-call road: one untyped document of span lists read and scored in one engine call (input=marshal).

    ``options`` is a handle made with ``input=marshal`` and
    ``span_mentions=true`` (0: the road is not taken). The two sides cross as
    ``marshal.dumps((key, response), 2)`` (version 2: no references, no table
    of the objects written), chosen by an O(1) look at the first mention (a
    ``(start, end)`` pair of ints); the engine reads them (see
    :func:`spans_from_lists` for what marshal writes) and scores them.
    Returns ``(row, applied)``: ``row`` a memoryview of the counts row's
    bytes (n_columns float64s) that the thread's next per-call scoring
    overwrites, so the caller copies it at once, and the applied metrics bit
    mask (:func:`metric_names`' order). None, for the general road, which
    says it in the caller's terms, when the document is not that, is longer
    than MARSHAL_MAX, or the call has more to say than counts (data the
    engine does not read as span lists, an error, repeated mentions or
    warnings: the engine is given no room for their records), or where the
    bytes' address cannot be handed over (see _bytes_data). Nothing here
    reports. One frame, everything looked up once: it is most of a
    validation loop's call.
    """
    tk, tr = type(key), type(response)
    if (tk is not list and tk is not tuple) or (tr is not list and tr is not tuple) or not options:
        return None  # (before marshal copies a long key whose response is refused anyway)
    try:
        first = (key[0] if key else response[0])[0]
    except Exception:  # no first mention to look at: the general road
        return None
    if type(first) is not tuple or len(first) != 2 or type(first[0]) is not int or type(first[1]) is not int:
        return None
    try:
        data = _marshal((key, response), 2)
    except ValueError:  # not marshallable (a set, a tensor): the general road
        return None
    n = len(data)
    if n > MARSHAL_MAX or not _bytes_data:
        return None
    try:
        pc = _per_call[get_ident()]
    except KeyError:
        pc = _per_call_state()
    # The engine reads the bytes where they are (the bytes object outlives the call): no copy.
    side = pc.side
    side[_SIDE_MENTIONS], side[_SIDE_LENGTH] = id(data) + _bytes_data, n
    # The library looked up on every call: in a child forked after it was loaded, lib() raises
    # ForkedProcessError where a kept function would call into a Go runtime that did not survive fork().
    if _lib is None:
        lib()
    report = pc.report
    if pc.call(*(pc.args.get(options) or _marshal_args(pc, options))) or report[_N_DUPS] or report[_N_WARNINGS]:
        return None
    return pc.row, report[_APPLIED]


def _bytes_offset() -> int:
    """Where a bytes object's data starts, from its address (id), if CPython lays it out as it does (else 0).

    ``PyBytesObject`` ends with its data and a NUL byte: ``bytes.__basicsize__
    - 1`` from the object's start. Checked here once on a bytes object whose
    contents are known; where it does not hold (another interpreter), the per-call
    road is not taken (score_marshal returns None) and nothing reads a wrong address.
    """
    offset = getattr(bytes, "__basicsize__", 0) - 1
    probe = b"corefscore: where do the bytes start?"
    if offset <= 0 or ctypes.string_at(id(probe) + offset, len(probe) + 1) != probe + b"\0":
        return 0
    return offset


_bytes_data = _bytes_offset()


class _PerCall:
    """score_marshal's state for one thread, found by its id (a dict lookup costs a third of a thread-local's).

    ``structs`` are the call's own key side, report and error (the side's
    mentions are the marshal bytes, its length their count), which the call
    reads and writes through ``side`` and ``report``, their int64 fields as
    memoryviews (a ctypes field costs twice as much); ``args`` holds the
    call's arguments per options handle, each one None or an argument object
    made once (``byref`` of a ctypes object, :func:`_int64_arg`), which
    ``call``, ``cs_score_batch`` without argtypes, passes as it is: argtypes
    would call a converter per argument (~1,400 instructions a call), and a
    c_int64 or c_void_p object makes and frees an argument object on every
    call (~300 instructions each); ``row`` is the counts row the engine
    writes, as bytes.
    """

    __slots__ = ("args", "call", "report", "row", "row_buffer", "side", "structs")


#: Fields of cs_side and cs_report as indices of their int64 views (_PerCall.side, _PerCall.report).
_SIDE_MENTIONS, _SIDE_LENGTH = CsSide.mentions.offset // 8, CsSide.length.offset // 8
_APPLIED, _N_DUPS, _N_WARNINGS = (f.offset // 8 for f in (CsReport.applied, CsReport.n_dups, CsReport.n_warnings))

#: score_marshal's states by thread id. A thread id is reused only once its thread has ended, and a state is
#: only scratch memory, so a new thread may take over a dead one's. Ended threads' states are not removed: the
#: dict is emptied when it reaches PER_CALL_STATES (a thread in a call keeps its own state; the next call of a
#: live thread makes a new one).
_per_call: dict[int, _PerCall] = {}
PER_CALL_STATES = 1024


def _per_call_state() -> _PerCall:
    cdll = lib()
    pc = _PerCall()
    pc.structs = CsSide(), CsReport(), CsError()
    pc.side, pc.report = (memoryview(x).cast("B").cast(code) for x, code in zip(pc.structs, "qQ"))
    pc.args = {}
    pc.row_buffer = (ctypes.c_double * len(_columns))()
    pc.row = memoryview(pc.row_buffer).cast("B")
    pc.call = cdll._FuncPtr(("cs_score_batch", cdll))  # the same function, without cdll's argtypes
    pc.call.restype = _i32
    if len(_per_call) >= PER_CALL_STATES:
        _per_call.clear()
    _per_call[get_ident()] = pc
    return pc


def _marshal_args(pc: _PerCall, options: int) -> tuple:
    """score_marshal's arguments for an options handle: one document, the marshal side as the key.

    No room for repeated mentions or warnings (NULL, capacity 0): the report
    still counts them, and a call with any takes the general road.
    """
    if len(pc.args) >= 256:
        pc.args.clear()
    side, report, err = (ctypes.byref(x) for x in pc.structs)
    one, zero = _int64_arg(1), _int64_arg(0)
    pc.args[options] = (one, side, None, None, _int64_arg(options), None, ctypes.byref(pc.row_buffer),
                        _int64_arg(len(pc.row_buffer)), None, zero, None, zero, report, err)
    return pc.args[options]


def _int64_arg(value: int) -> Any:
    """An int64 argument of a call without argtypes, made once: what ctypes passes as it is.

    ``c_int64.from_param`` gives the argument object that a c_int64 would
    make on every call (typed int64, whatever the argument's place: a Python
    int would cross as a C int, whose upper half is undefined on the stack).
    """
    return _i64.from_param(value)


def _point(s: _Scratch, both: Any, nk: int, types: Any) -> None:
    """Point the thread's one-document sides into a packed document (offsets [0, nk] and [0, n - nk])."""
    n = len(both) >> 1
    p = both.buffer_info()[0] if type(both) is array_type else _addr(both)
    s.offsets[1], s.offsets[3] = nk, n - nk
    k, r = s.one_key, s.one_response
    k.mentions, k.clusters, k.length = p, p + 8 * n, nk
    r.mentions, r.clusters, r.length = p + 8 * nk, p + 8 * (n + nk), n - nk
    if types is not None or k.types:
        k.types = _addr(types)
        r.types = None if types is None else k.types + nk


def _one_args(s: _Scratch, options: int) -> tuple:
    """score_one's arguments for an options handle, made once per thread (handles are never reused)."""
    import numpy as np

    if s.row is None:
        ncol = len(_columns)
        buf = (ctypes.c_double * ncol)()
        s.row = (np.frombuffer(buf, dtype=np.float64).reshape(1, ncol), buf)
    if len(s.one_args) >= 256:
        s.one_args.clear()
    r, buf = s.refs, s.row[1]
    # No cancel flag: a per-call document is too small to interrupt (and a flag left set by an interrupted
    # long call must not cancel it).
    s.one_args[options] = (s.caps[2], *s.one_refs, None, _i64(options), None, _p(ctypes.addressof(buf)),
                           _i64(len(buf)), r[6], s.caps[0], r[7], s.caps[1], r[4], r[5])
    return s.one_args[options]


def _report(cdll: Any, s: _Scratch) -> tuple:
    """(applied, dups, n_dups, warnings, analysis) of the thread's last call (see :func:`score`)."""
    report = s.report
    if not (report.n_dups or report.n_warnings or report.analysis):
        return report.applied, (), 0, (), None
    analysis = _take_analysis(cdll, _i64(report.analysis), report.analysis_sizes) if report.analysis else None
    nd, nw = min(report.n_dups, DUPS_KEPT), min(report.n_warnings, len(s.warns))
    dups = [CsDuplicate.from_buffer_copy(d) for d in s.dups[:nd]]
    warns = [CsWarning.from_buffer_copy(w) for w in s.warns[:nw]]
    return int(report.applied), dups, int(report.n_dups), warns, analysis


def score_files(key_path: bytes | None, response_path: bytes | None, options: int, as_numpy: bool = True) -> dict:
    """Read two files (or one, for its documents alone) and produce what the options' outputs ask for.

    Returns ``{"scores": (counts, names, applied, dups, n_dups, warnings) or
    None, "analysis": (what _take_analysis returns) or None, "key" and
    "response": (what _take_documents returns) or None}``. ``counts`` is an
    (n_docs, n_columns) ndarray, or without ``as_numpy`` a flat row-major
    ctypes double array (the drop-in command line does not import NumPy).
    """
    cdll = lib()
    out, err, cancel = CsFilesResult(), CsError(), ctypes.c_int32(0)
    args = (key_path, response_path, options, ctypes.byref(cancel), ctypes.byref(out), ctypes.byref(err))
    check(interruptible(cdll.cs_score_files, args, cancel, True), err)
    handles = [_i64(out.scores), _i64(out.report.analysis), _i64(out.key_documents), _i64(out.response_documents)]
    try:
        return {"scores": _take_result(cdll, handles[0], int(out.n_docs), int(out.names_len), out.report, as_numpy)
                if out.scores else None,
                "analysis": _take_analysis(cdll, handles[1], out.report.analysis_sizes) if out.report.analysis
                else None,
                "key": _take_documents(cdll, handles[2], out.key_sizes) if out.key_documents else None,
                "response": _take_documents(cdll, handles[3], out.response_sizes) if out.response_documents
                else None}
    finally:  # after a failed take, the ones not taken yet
        for h in handles:
            if h.value:
                cdll.cs_free(h)


def _take(cdll: Any, take: Any, handle: Any, *args: Any) -> None:
    """``take(handle, *args)``, which frees the result on success; the result is freed on failure too."""
    err = CsError()
    try:
        status = take(handle, *args, ctypes.byref(err))
        if status == CS_OK:
            handle.value = 0
        check(status, err)
    finally:
        if handle.value:
            cdll.cs_free(handle)
            handle.value = 0


def _take_result(cdll: Any, handle: Any, n: int, names_len: int, report: CsReport, as_numpy: bool):
    """Copy a file result out of the library (and free it): (counts, names, applied, dups, n_dups, warnings)."""
    # ctypes arrays, not array.array: importing array imports collections, which the drop-in never needs.
    counts = (ctypes.c_double * (n * len(_columns)))()
    names = ctypes.create_string_buffer(max(names_len, 1))
    offsets = (ctypes.c_int64 * (n + 1))()
    dups = (CsDuplicate * min(int(report.n_dups), DUPS_KEPT))()
    warns = (CsWarning * int(report.n_warnings))()
    _take(cdll, cdll.cs_take_result, handle, counts, len(counts), names, names_len, offsets, len(offsets), dups,
          len(dups), warns, len(warns))
    raw = names.raw
    doc_names = [raw[offsets[i]:offsets[i + 1]].decode("utf-8", "replace") for i in range(n)]
    if as_numpy:
        import numpy as np

        counts = np.frombuffer(counts, dtype=np.float64).reshape(n, len(_columns))
    return counts, doc_names, int(report.applied), list(dups), int(report.n_dups), list(warns)


def _take_analysis(cdll: Any, handle: Any, sizes: CsAnalysisSizes) -> dict:
    """Copy an analysis result out of the library (and free it) as NumPy arrays."""
    import numpy as np

    n, nr = int(sizes.n_docs), int(sizes.n_records)
    names = ctypes.create_string_buffer(max(int(sizes.names_len), 1))
    name_offsets = np.zeros(n + 1, np.int64)
    records = (CsErrorRecord * max(nr, 1))()
    offs = [np.zeros(nr + 1, np.int64) for _ in range(3)]
    flat = [np.zeros(max(int(x), 1), np.int64)
            for x in (sizes.n_mentions, sizes.n_key_entities, sizes.n_response_entities)]
    warns = (CsWarning * int(sizes.n_warnings))()
    buf = CsAnalysisBuffers(
        ctypes.addressof(names), int(sizes.names_len), name_offsets.ctypes.data, n, ctypes.addressof(records),
        offs[0].ctypes.data, offs[1].ctypes.data, offs[2].ctypes.data, nr,
        flat[0].ctypes.data, int(sizes.n_mentions), flat[1].ctypes.data, int(sizes.n_key_entities),
        flat[2].ctypes.data, int(sizes.n_response_entities), ctypes.addressof(warns) if len(warns) else None,
        len(warns))
    _take(cdll, cdll.cs_take_analysis, handle, ctypes.byref(buf))
    raw = names.raw
    rec = np.frombuffer(records, dtype=np.dtype([("doc", "<i8"), ("anchor", "<i8"), ("category", "i1"),
                                                 ("has_anchor", "i1"), ("types", "i1", (2,)), ("reserved", "<i4")]),
                        count=nr)
    return {"names": [raw[name_offsets[i]:name_offsets[i + 1]].decode("utf-8", "replace") for i in range(n)],
            "doc": rec["doc"].copy(), "category": rec["category"].copy(), "anchor": rec["anchor"].copy(),
            "has_anchor": rec["has_anchor"].copy(), "types": rec["types"].copy(),
            "mention_offsets": offs[0], "key_offsets": offs[1], "response_offsets": offs[2],
            "mentions": flat[0][:int(sizes.n_mentions)], "key_entities": flat[1][:int(sizes.n_key_entities)],
            "response_entities": flat[2][:int(sizes.n_response_entities)], "warnings": list(warns)}


def _take_documents(cdll: Any, handle: Any, sizes: CsDocumentsSizes) -> dict:
    """Copy documents out of the library (and free them): names, mentions and words per document."""
    import numpy as np

    n, nm, nw, ns = (int(sizes.n_docs), int(sizes.n_mentions), int(sizes.n_words), int(sizes.n_sentences))
    names = ctypes.create_string_buffer(max(int(sizes.names_len), 1))
    words = ctypes.create_string_buffer(max(int(sizes.words_len), 1))
    doc_offs = [np.zeros(n + 1, np.int64) for _ in range(4)]
    mentions = np.zeros(max(nm, 1), np.dtype([("start", "<i8"), ("end", "<i8"), ("cluster", "<i8"),
                                              ("type", "<i4"), ("line", "<i4")]))
    word_offsets = np.zeros(nw + 1, np.int64)
    sentence_ends = np.zeros(max(ns, 1), np.int64)
    buf = CsDocumentsBuffers(
        ctypes.addressof(names), int(sizes.names_len), doc_offs[0].ctypes.data, doc_offs[1].ctypes.data,
        doc_offs[2].ctypes.data, doc_offs[3].ctypes.data, n, mentions.ctypes.data, nm, ctypes.addressof(words),
        int(sizes.words_len), word_offsets.ctypes.data, nw, sentence_ends.ctypes.data, ns)
    _take(cdll, cdll.cs_take_documents, handle, ctypes.byref(buf))
    raw, wraw = names.raw, words.raw
    return {"names": [raw[doc_offs[0][i]:doc_offs[0][i + 1]].decode("utf-8", "replace") for i in range(n)],
            "mention_offsets": doc_offs[1], "mentions": mentions[:nm], "word_docs": doc_offs[2],
            "sentence_docs": doc_offs[3], "words": wraw, "word_offsets": word_offsets,
            "sentence_ends": sentence_ends[:ns]}
