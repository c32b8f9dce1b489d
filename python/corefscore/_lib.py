"""The one module that owns every ctypes detail of the C ABI (``capi/corefscore.h``).

Nothing here runs at import time: the shared library (and with it the Go
runtime) is loaded on the first call to :func:`lib`, so that importing
``corefscore`` before ``os.fork()`` is safe. Public modules call
:func:`score_batch`, :func:`columns` and :func:`metric_names`; they never
touch ctypes.

``ctypes.CDLL`` releases the GIL for the duration of every foreign call, so
Python threads can score concurrently.
"""

from __future__ import annotations

import ctypes
import os
import struct

# The command line needs a lock and thread-local buffers but not the rest of
# threading, whose imports (functools, collections...) cost ~5 ms of start-up;
# array (which imports collections too) is imported where it is used.
from _thread import allocate_lock

try:
    from _thread import _local as _ThreadLocal  # what threading.local is
except ImportError:  # pragma: no cover - an interpreter without it
    from threading import local as _ThreadLocal

# typing costs ~20 ms of import time that the command line need not pay.
TYPE_CHECKING = False

if TYPE_CHECKING:  # NumPy is imported where it is used: the drop-in CLI path never needs it
    from array import array
    from typing import Any

    import numpy as np

#: The ABI version this module is written for (CS_ABI_VERSION in corefscore.h).
ABI_VERSION = 1

#: Environment variable naming another shared library to load (for development).
LIBRARY_ENV = "COREFSCORE_LIBRARY"

LIBRARY_NAME = "libcorefscore.so"

# Status codes of corefscore.h.
CS_OK = 0
CS_INVALID_INPUT = 1
CS_BUFFER_TOO_SMALL = 2
CS_INTERNAL = 3
CS_IO = 4

#: Fields of one duplicate record (CS_DUPLICATE_FIELDS).
DUPLICATE_FIELDS = 5

#: Metrics that need mention types (their counts stay zero on untyped documents
#: when every metric is selected implicitly).
TYPED_METRICS = ("lmuc", "lbcub", "lceafm", "lceafe", "da")

# First guesses of cs_score_files' output capacities; a larger corpus costs one more call.
_FILE_ROWS = 1024
_FILE_NAMES = 1 << 16
_FILE_WARNINGS = 1 << 16
_FILE_DUPS = 4096

_ERR_LEN = 4096


class CorefScoreInputError(ValueError):
    """Input the engine refused (CS_INVALID_INPUT); the message says why."""


class Options(ctypes.Structure):
    """Mirror of ``cs_options``; a zeroed struct is the engine's default."""

    _fields_ = [
        ("metrics", ctypes.c_uint64),
        ("singletons", ctypes.c_int32),
        ("duplicates", ctypes.c_int32),
        ("workers", ctypes.c_int32),
        ("da_greedy", ctypes.c_int32),
        ("link_weights", ctypes.c_double * 4),
        ("da_weights", ctypes.c_double * 3),
    ]


class Side(ctypes.Structure):
    """Mirror of ``cs_side``: one side of a batch, CSR style."""

    _fields_ = [
        ("offsets", ctypes.c_void_p),
        ("mentions", ctypes.c_void_p),
        ("clusters", ctypes.c_void_p),
        ("types", ctypes.c_void_p),
        ("length", ctypes.c_int64),
    ]


_lock = allocate_lock()
_lib: ctypes.CDLL | None = None
_score_single_fn: Any = None
_columns: tuple[str, ...] | None = None
_metrics: tuple[str, ...] | None = None


def library_path() -> str:
    """Path of the shared library to load: ``$COREFSCORE_LIBRARY`` or the bundled one."""
    override = os.environ.get(LIBRARY_ENV)
    if override:
        return override
    beside = os.path.join(os.path.dirname(os.path.abspath(__file__)), LIBRARY_NAME)
    if os.path.exists(beside):  # the usual install; importlib.resources costs ~20 ms to import
        return beside
    import importlib.resources  # zip and other non-file installs

    return str(importlib.resources.files("corefscore").joinpath(LIBRARY_NAME))


def _declare(cdll: ctypes.CDLL) -> None:
    """Set argtypes and restype of every exported symbol."""
    i32, i64, vp = ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p
    cdll.cs_abi_version.argtypes = []
    cdll.cs_abi_version.restype = i32
    cdll.cs_num_columns.argtypes = []
    cdll.cs_num_columns.restype = i32
    cdll.cs_columns.argtypes = [ctypes.c_char_p, i64, ctypes.POINTER(i64)]
    cdll.cs_columns.restype = i32
    # Pointers are passed as integer addresses (c_void_p): the cheapest
    # conversion ctypes has, which keeps the per-call overhead low.
    cdll.cs_score_batch.argtypes = [
        i64,  # n_docs
        vp,  # key side
        vp,  # response side
        vp,  # names
        i64,  # names_len
        vp,  # options
        vp,  # counts
        i64,  # counts_len
        vp,  # dups
        i64,  # dups_cap
        vp,  # n_dups
        vp,  # err
        i64,  # err_len
    ]
    cdll.cs_score_batch.restype = i32
    files = getattr(cdll, "cs_score_files", None) if _has_symbol(cdll, "cs_score_files") else None
    if files is not None:
        files.argtypes = [
            ctypes.c_char_p,  # key_path
            ctypes.c_char_p,  # response_path
            ctypes.c_char_p,  # format
            vp,  # options
            vp,  # counts
            i64,  # rows_cap
            vp,  # n_docs
            vp,  # names
            i64,  # names_cap
            vp,  # names_needed
            vp,  # dups
            i64,  # dups_cap
            vp,  # n_dups
            vp,  # warnings
            i64,  # warnings_cap
            vp,  # warnings_needed
            vp,  # err
            i64,  # err_len
        ]
        files.restype = i32


def _has_symbol(cdll: ctypes.CDLL, name: str) -> bool:
    try:
        getattr(cdll, name)
    except AttributeError:
        return False
    return True


def _load(path: str, expected: int) -> ctypes.CDLL:
    if not os.path.exists(path):
        raise ImportError(
            f"corefscore: the shared library was not found at {path}; build it with "
            "`go build -trimpath -buildmode=c-shared -o python/corefscore/libcorefscore.so ./capi` "
            "or reinstall the package (`pip install .`)"
        )
    try:
        cdll = ctypes.CDLL(path)
    except OSError as exc:
        raise ImportError(f"corefscore: cannot load the shared library {path}: {exc}") from exc
    if not _has_symbol(cdll, "cs_abi_version"):
        raise ImportError(f"corefscore: {path} is not a corefscore library (no cs_abi_version)")
    cdll.cs_abi_version.argtypes = []
    cdll.cs_abi_version.restype = ctypes.c_int32
    found = int(cdll.cs_abi_version())
    if found != expected:
        raise ImportError(
            f"corefscore: the shared library {path} implements ABI version {found}, but this "
            f"Python package needs version {expected}; rebuild the library or reinstall the package"
        )
    _declare(cdll)
    global _score_single_fn
    # A second handle on cs_score_batch without argtypes, for the per-call
    # path: every argument is then a prebuilt ctypes object (c_int64,
    # c_void_p or None), which ctypes passes without a Python-level
    # conversion; with argtypes, converting 13 Python ints costs about 2 us.
    fn = cdll["cs_score_batch"]
    fn.restype = ctypes.c_int32
    _score_single_fn = fn
    return cdll


def lib() -> ctypes.CDLL:
    """Load the shared library once (thread-safe) and return it.

    Raises
    ------
    ImportError
        When the library is missing, cannot be loaded or has another ABI
        version; the message names the path tried.
    """
    global _lib
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is None:
            _lib = _load(library_path(), ABI_VERSION)
    return _lib


def _reset() -> None:
    """Forget the loaded library and cached names (tests only)."""
    global _lib, _columns, _metrics, _score_single_fn
    with _lock:
        _lib, _columns, _metrics, _score_single_fn = None, None, None, None


def columns() -> tuple[str, ...]:
    """The engine's counts columns, in order, read once through ``cs_columns``."""
    global _columns, _metrics
    if _columns is not None:
        return _columns
    cdll = lib()
    needed = ctypes.c_int64(0)
    status = cdll.cs_columns(None, 0, ctypes.byref(needed))
    if status not in (CS_OK, CS_BUFFER_TOO_SMALL):
        raise RuntimeError(f"corefscore: cs_columns failed with status {status}")
    buf = ctypes.create_string_buffer(int(needed.value))
    status = cdll.cs_columns(buf, len(buf), ctypes.byref(needed))
    if status != CS_OK:
        raise RuntimeError(f"corefscore: cs_columns failed with status {status}")
    names = tuple(buf.value.decode("utf-8").split("\n"))
    if len(names) != int(cdll.cs_num_columns()):
        raise RuntimeError("corefscore: cs_columns and cs_num_columns disagree")
    metrics: list[str] = []
    for name in names:
        prefix = name.partition(".")[0]
        if prefix not in metrics:
            metrics.append(prefix)
    _columns, _metrics = names, tuple(metrics)
    return _columns


def metric_names() -> tuple[str, ...]:
    """Metric names in engine order (bit i of ``cs_options.metrics`` is the i-th)."""
    if _metrics is None:
        columns()
    assert _metrics is not None
    return _metrics


def has_score_files() -> bool:
    """Whether the loaded library exports ``cs_score_files``."""
    return _has_symbol(lib(), "cs_score_files")


def _check(status: int, err: Any) -> None:
    """Turn a status and the message buffer into an exception.

    CS_INVALID_INPUT becomes :class:`CorefScoreInputError` (a ValueError),
    CS_IO an OSError, anything else a RuntimeError.
    """
    if status == CS_OK:
        return
    message = err.value.decode("utf-8", "replace") if err is not None else ""
    if status == CS_INVALID_INPUT:
        raise CorefScoreInputError(message or "corefscore: invalid input")
    if status == CS_IO:
        raise OSError(message or "corefscore: cannot read file")
    if status == CS_BUFFER_TOO_SMALL:
        raise RuntimeError(f"corefscore: output buffer too small: {message}")
    raise RuntimeError(f"corefscore: internal error (status {status}): {message}")


def _addr(a: Any) -> int | None:
    """Address of a C-contiguous ndarray's or array.array's data, or None."""
    if a is None:
        return None
    iface = getattr(a, "__array_interface__", None)
    if iface is None:  # array.array
        return a.buffer_info()[0]
    return iface["data"][0]


def make_options(
    metrics: int = 0,
    singletons: int = 0,
    duplicates: int = 0,
    workers: int = 0,
    da_greedy: bool = False,
    link_weights: tuple[float, float, float, float] | None = None,
    da_weights: tuple[float, float, float] | None = None,
) -> Options:
    """Build a ``cs_options`` struct; zero fields mean the engine's defaults."""
    opt = Options()
    opt.metrics = metrics
    opt.singletons = singletons
    opt.duplicates = duplicates
    opt.workers = workers
    opt.da_greedy = 1 if da_greedy else 0
    if link_weights is not None:
        for i, w in enumerate(link_weights):
            opt.link_weights[i] = w
    if da_weights is not None:
        for i, w in enumerate(da_weights):
            opt.da_weights[i] = w
    return opt


def options_arg(options: Options) -> ctypes.c_void_p:
    """The address of an options struct as the argument :func:`score_single` takes.

    The caller keeps ``options`` alive as long as it uses the result.
    """
    return ctypes.c_void_p(ctypes.addressof(options))


def _side(offsets: Any, mentions: Any, clusters: Any, types: Any) -> Side:
    return Side(_addr(offsets), _addr(mentions), _addr(clusters), _addr(types), len(mentions))


class _Scratch(_ThreadLocal):
    """Per-thread buffers reused by every call: the error message, the duplicates."""

    def __init__(self) -> None:
        self.err = ctypes.create_string_buffer(_ERR_LEN)
        self.err_addr = ctypes.addressof(self.err)
        self.n_dups = ctypes.c_int64(0)
        self.n_dups_addr = ctypes.addressof(self.n_dups)
        self.dups_cap = 256
        self.dups = (ctypes.c_int64 * (self.dups_cap * DUPLICATE_FIELDS))()
        self.dups_addr = ctypes.addressof(self.dups)
        self.row: np.ndarray | None = None
        self.single: array | None = None
        self.single_cap = 0
        self.single_base = 0
        self.single_args: list[Any] = []

    def make_single(self, words: int) -> None:
        """(Re)allocate the one-document buffer (``words`` int64 at least) and the prebuilt arguments.

        The buffer holds, at fixed places, both ``cs_side`` structs (words
        0-4 and 5-9: four pointers and a length, the C layout of
        ``cs_side``), both offsets arrays (words 10-11 and 12-13) and, from
        word 14, the mention and cluster ids; so one copy per call fills
        every input of ``cs_score_batch``. The arguments other than the
        options are ctypes objects built once, so the call converts nothing.
        """
        from array import array

        import numpy as np

        ncol = len(_columns) if _columns is not None else len(columns())
        if self.row is None:
            self.row_buf = (ctypes.c_double * ncol)()
            self.row = np.frombuffer(self.row_buf, dtype=np.float64).reshape(1, ncol)
        cap = max(words, 256, 2 * self.single_cap)
        self.single = array("q", bytes(8 * cap))
        self.single_cap = cap
        base = self.single_base = self.single.buffer_info()[0]
        vp, i64 = ctypes.c_void_p, ctypes.c_int64
        self.single_args = [
            i64(1),  # n_docs
            vp(base),  # key side (words 0-4)
            vp(base + 40),  # response side (words 5-9)
            None,  # names
            i64(0),  # names_len
            None,  # options: set per call
            vp(ctypes.addressof(self.row_buf)),
            i64(ncol),
            vp(self.dups_addr),
            i64(self.dups_cap),
            vp(self.n_dups_addr),
            vp(self.err_addr),
            i64(_ERR_LEN),
        ]


_scratch = _Scratch()

#: Whether ``cs_side`` is five 8-byte words (four pointers and an int64), the
#: layout :meth:`_Scratch.make_single` writes; true on every 64-bit platform.
_PACKED_SIDES = ctypes.sizeof(ctypes.c_void_p) == 8 and ctypes.sizeof(Side) == 40

#: Packers of the one-document buffer by its length in words: ``Struct.pack_into``
#: converts a list of ints faster than ``array("q", list)`` does.
_packers: dict[int, struct.Struct] = {}


def _call(n_docs: int, kside: Side, rside: Side, options: Options, names: bytes | None) -> tuple[np.ndarray, list]:
    """One ``cs_score_batch`` call; counts as an ndarray and duplicate records as tuples."""
    import numpy as np

    cdll = _lib if _lib is not None else lib()
    ncol = len(_columns) if _columns is not None else len(columns())
    size = n_docs * ncol
    buf = (ctypes.c_double * size)()
    sc = _scratch
    status = cdll.cs_score_batch(
        n_docs,
        ctypes.addressof(kside),
        ctypes.addressof(rside),
        names,
        len(names) if names else 0,
        ctypes.addressof(options),
        ctypes.addressof(buf),
        size,
        sc.dups_addr,
        sc.dups_cap,
        sc.n_dups_addr,
        sc.err_addr,
        _ERR_LEN,
    )
    if status:
        _check(status, sc.err)
    found = sc.n_dups.value
    counts = np.frombuffer(buf, dtype=np.float64).reshape(n_docs, ncol)
    if not found:
        return counts, []
    if found > sc.dups_cap:
        # More repeated mentions than the scratch buffer holds: grow it and score again.
        sc.dups_cap = found
        sc.dups = (ctypes.c_int64 * (found * DUPLICATE_FIELDS))()
        sc.dups_addr = ctypes.addressof(sc.dups)
        return _call(n_docs, kside, rside, options, names)
    flat = sc.dups[: found * DUPLICATE_FIELDS]
    recs = [tuple(flat[i : i + DUPLICATE_FIELDS]) for i in range(0, len(flat), DUPLICATE_FIELDS)]
    return counts, recs


def score_batch(
    key: tuple[Any, Any, Any, Any],
    response: tuple[Any, Any, Any, Any],
    options: Options,
    names: bytes | None = None,
) -> tuple[np.ndarray, list[tuple[int, int, int, int, int]]]:
    """Score a batch through ``cs_score_batch``.

    Parameters
    ----------
    key, response : tuple
        ``(offsets, mentions, clusters, types)``: C-contiguous int64 arrays
        (``numpy.ndarray`` or ``array.array("q")``; offsets of length
        n_docs + 1) and int8 types or None. The caller guarantees dtypes and
        contiguity; lengths and offsets are checked by the engine.
    options : Options
        The engine options.
    names : bytes, optional
        ``b"\\n"``-joined document names for error messages.

    Returns
    -------
    counts : ndarray of shape (n_docs, n_columns)
    duplicates : list of tuple
        Records (document, side, mention id, first cluster, cluster).
    """
    n_docs = max(len(key[0]) - 1, 0)
    return _call(n_docs, _side(*key), _side(*response), options, names)


def score_single(
    kid: list[int], kcl: list[int], rid: list[int], rcl: list[int], options: ctypes.c_void_p | Options
) -> tuple[np.ndarray, list]:
    """Score one document without types (the per-call fast path).

    Parameters
    ----------
    kid, kcl, rid, rcl : list of int
        Key mention ids and cluster ids, response mention ids and cluster
        ids (see :func:`corefscore._convert.single_doc`); the two lists of a
        side have the same length (the caller's guarantee).
    options : ctypes.c_void_p or Options
        The address of the options struct (:func:`options_arg`, the fast
        form) or the struct itself.

    Returns
    -------
    counts : ndarray of shape (1, n_columns)
        A copy of the per-thread counts row.
    duplicates : list of tuple
        As in :func:`score_batch`.

    Notes
    -----
    One ``Struct.pack_into`` into the per-thread buffer fills both sides and
    both offsets arrays (see :meth:`_Scratch.make_single`); the call passes
    prebuilt ctypes objects.
    """
    fn = _score_single_fn
    if fn is None:
        lib()
        fn = _score_single_fn
    nk, nr = len(kid), len(rid)
    if not _PACKED_SIDES:  # cs_side is not five 8-byte words here: the general path
        from array import array

        buf = array("q", [0, nk, 0, nr, *kid, *kcl, *rid, *rcl])
        a = buf.buffer_info()[0]
        r0 = a + 32 + 16 * nk
        opt = options if type(options) is Options else options_of(options)
        return _call(1, Side(a, a + 32, a + 32 + 8 * nk, None, nk), Side(a + 16, r0, r0 + 8 * nr, None, nr), opt, None)
    sc = _scratch
    words = 14 + 2 * (nk + nr)
    if words > sc.single_cap:
        sc.make_single(words)
    b = sc.single_base
    m = b + 112
    r = m + 16 * nk
    st = _packers.get(words)
    if st is None:
        if len(_packers) >= 256:
            _packers.clear()
        st = _packers[words] = struct.Struct(f"{words}q")
    # cs_side {offsets, mentions, clusters, types, length} for each side, then the offsets.
    st.pack_into(
        sc.single, 0, b + 80, m, m + 8 * nk, 0, nk, b + 96, r, r + 8 * nr, 0, nr, 0, nk, 0, nr, *kid, *kcl, *rid, *rcl
    )
    if type(options) is not ctypes.c_void_p:  # the struct itself would be passed by value
        options = options_arg(options)
    args = sc.single_args
    args[5] = options
    status = fn(*args)
    if status:
        _check(status, sc.err)
    if sc.n_dups.value:
        # Repeated mentions: take the general path, which collects their records.
        return _call(
            1, Side(b + 80, m, m + 8 * nk, None, nk), Side(b + 96, r, r + 8 * nr, None, nr), options_of(options), None
        )
    return sc.row.copy(), []


def options_of(arg: ctypes.c_void_p) -> Options:
    """The options struct at the address :func:`options_arg` made."""
    return Options.from_address(arg.value)


def score_files(key: bytes, resp: bytes, fmt: bytes, options: Options) -> tuple:
    """Call ``cs_score_files``, growing the output buffers until they fit.

    Returns ``(document names, ctypes counts array, column names, duplicate
    records, warnings)``. NumPy-free, so that the command line starts fast.
    """
    cdll = lib()
    if not has_score_files():
        raise ImportError(
            f"corefscore: the shared library {library_path()} has no cs_score_files (it is older than "
            "this package); rebuild it with `make build` or reinstall the package"
        )
    names_of_columns = columns()
    ncol = len(names_of_columns)
    rows, names_cap, warn_cap, dups_cap = _FILE_ROWS, _FILE_NAMES, _FILE_WARNINGS, _FILE_DUPS
    n_docs, names_needed, n_dups, warn_needed = (ctypes.c_int64(0) for _ in range(4))
    err = ctypes.create_string_buffer(4096)
    for _attempt in range(3):
        counts = (ctypes.c_double * (rows * ncol))()
        names = ctypes.create_string_buffer(names_cap)
        warns = ctypes.create_string_buffer(warn_cap)
        dups = (ctypes.c_int64 * (dups_cap * DUPLICATE_FIELDS))()
        status = cdll.cs_score_files(
            key,
            resp,
            fmt,
            ctypes.addressof(options),
            ctypes.addressof(counts),
            rows,
            ctypes.addressof(n_docs),
            ctypes.addressof(names),
            names_cap,
            ctypes.addressof(names_needed),
            ctypes.addressof(dups),
            dups_cap,
            ctypes.addressof(n_dups),
            ctypes.addressof(warns),
            warn_cap,
            ctypes.addressof(warn_needed),
            ctypes.addressof(err),
            len(err),
        )
        if status == CS_BUFFER_TOO_SMALL or (status == CS_OK and n_dups.value > dups_cap):
            rows = max(rows, n_docs.value)
            names_cap = max(names_cap, names_needed.value)
            warn_cap = max(warn_cap, warn_needed.value)
            dups_cap = max(dups_cap, n_dups.value)
            continue
        _check(status, err)
        break
    else:  # pragma: no cover - the second call always fits
        raise RuntimeError("corefscore: cs_score_files kept asking for larger buffers")
    n = n_docs.value
    doc_names = names.value.decode("utf-8", "replace").split("\n") if n else []
    k = DUPLICATE_FIELDS
    flat = dups[: n_dups.value * k]
    records = [tuple(flat[i : i + k]) for i in range(0, len(flat), k)]
    warnings = [w for w in warns.value.decode("utf-8", "replace").split("\n") if w]
    return doc_names, counts, names_of_columns, records, warnings
