"""Scoring files parsed in Go (``cs_score_files``), for the command line.

:func:`read_and_score` returns the raw per-document counts without building
NumPy arrays, so the reference-format printer can run on them directly;
:func:`score_files` wraps them in a :class:`~corefscore.Result`. The command
line uses ``corefscore.score_files`` when the package exports one and this
module's otherwise.
"""

from __future__ import annotations

import ctypes
import os
from typing import Any, NamedTuple

from . import _lib

#: Formats the Go readers accept ("" or None: by extension, then by content).
FORMATS = ("conll2012", "conllu", "jsonlines")
#: Metrics whose counts are all zero when the files carry no mention types.
_TYPED = ("lmuc", "lbcub", "lceafm", "lceafe", "da")

# First guesses of the output capacities; a larger corpus costs one more call.
_ROWS = 1024
_NAMES = 1 << 16
_WARNINGS = 1 << 16
_DUPS = 4096


class FileCounts(NamedTuple):
    """The engine's output for a key file and a response file.

    Attributes
    ----------
    names : list of str
        The key's document names, in key-file order.
    counts : ctypes array of float
        Row-major ``len(names) x len(columns)`` counts.
    columns : tuple of str
        The engine's column names.
    duplicates : list of tuple
        ``(document index, side (0 key, 1 response), mention id, first cluster, cluster)``.
    warnings : list of str
        Unpaired documents and the like, from the Go readers.
    """

    names: list[str]
    counts: Any
    columns: tuple[str, ...]
    duplicates: list[tuple[int, int, int, int, int]]
    warnings: list[str]

    def row(self, i: int) -> list[float]:
        """Counts of document ``i`` as a list."""
        n = len(self.columns)
        return self.counts[i * n : (i + 1) * n]

    def rows(self) -> list[list[float]]:
        """Counts of every document, one list per document."""
        return [self.row(i) for i in range(len(self.names))]


def _path(p: Any, name: str) -> bytes:
    try:
        return os.fsencode(os.fspath(p))
    except TypeError:
        raise TypeError(f"`{name}` must be a path (str or os.PathLike); got {type(p).__name__} instead.") from None


def read_and_score(key_path: Any, response_path: Any, options: Any, format: str | None = None) -> FileCounts:
    """Parse two files in Go, pair their documents by name and score them.

    Parameters
    ----------
    key_path, response_path : str or path-like
    options : _lib.Options
        The engine options (``_api._Settings.struct``).
    format : {"conll2012", "conllu", "jsonlines"} or None
        None: each file's format is guessed from its extension and content.

    Raises
    ------
    CorefScoreInputError
        A malformed file (the message is ``path:line: document "NAME": problem``).
    OSError
        A file cannot be read.
    """
    if format is not None and format not in FORMATS:
        raise ValueError(f"`format` must be None or one of {FORMATS}; got {format!r} instead.")
    key, resp = _path(key_path, "key_path"), _path(response_path, "response_path")
    fmt = (format or "").encode()
    cdll = _lib.lib()
    if not _lib.has_score_files():
        raise ImportError(
            f"corefscore: the shared library {_lib.library_path()} has no cs_score_files (it is older than "
            "this package); rebuild it with `make build` or reinstall the package"
        )
    columns = _lib.columns()
    ncol = len(columns)
    rows, names_cap, warn_cap, dups_cap = _ROWS, _NAMES, _WARNINGS, _DUPS
    n_docs, names_needed, n_dups, warn_needed = (ctypes.c_int64(0) for _ in range(4))
    err = ctypes.create_string_buffer(4096)
    for _attempt in range(3):
        counts = (ctypes.c_double * (rows * ncol))()
        names = ctypes.create_string_buffer(names_cap)
        warns = ctypes.create_string_buffer(warn_cap)
        dups = (ctypes.c_int64 * (dups_cap * _lib.DUPLICATE_FIELDS))()
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
        if status == _lib.CS_BUFFER_TOO_SMALL or (status == _lib.CS_OK and n_dups.value > dups_cap):
            rows = max(rows, n_docs.value)
            names_cap = max(names_cap, names_needed.value)
            warn_cap = max(warn_cap, warn_needed.value)
            dups_cap = max(dups_cap, n_dups.value)
            continue
        _lib._check(status, err)
        break
    else:  # pragma: no cover - the second call always fits
        raise RuntimeError("corefscore: cs_score_files kept asking for larger buffers")
    n = n_docs.value
    doc_names = names.value.decode("utf-8", "replace").split("\n") if n else []
    k = _lib.DUPLICATE_FIELDS
    flat = dups[: n_dups.value * k]
    records = [tuple(flat[i : i + k]) for i in range(0, len(flat), k)]
    warnings = [w for w in warns.value.decode("utf-8", "replace").split("\n") if w]
    return FileCounts(doc_names, counts, columns, records, warnings)  # type: ignore[arg-type]


def decode_mention(mention_id: int) -> Any:
    """A file mention id as the readers pack it: ``(start, end)`` tokens, or the interned id.

    Contiguous spans are ``start << 32 | end``; discontinuous mentions have
    bit 62 set and are returned as ``("discontinuous", k)``.
    """
    if mention_id >> 62:
        return ("discontinuous", mention_id & ((1 << 62) - 1))
    return (mention_id >> 32, mention_id & 0xFFFFFFFF)


def has_types(fc: FileCounts) -> bool:
    """Whether the files gave mention types: some typed metric has a non-zero count."""
    cols = [i for i, c in enumerate(fc.columns) if c.partition(".")[0] in _TYPED]
    n = len(fc.columns)
    counts = fc.counts
    for d in range(len(fc.names)):
        base = d * n
        if any(counts[base + i] for i in cols):
            return True
    return False


def score_files(
    key_path: Any,
    response_path: Any,
    *,
    format: str | None = None,
    metrics: Any = None,
    singletons: str = "keep",
    duplicates: str = "warn",
    blanc_rule: str = "key",
    workers: int | None = None,
    link_weights: Any = None,
    da_weights: Any = None,
    da_greedy: bool = False,
) -> Any:
    """Score a response file against a key file, parsing both in Go.

    Documents pair by name; the result lists the key's documents in key-file
    order (a key document missing from the response is scored against an
    empty one, as the reference scorer does). Options as in
    :func:`corefscore.score`.

    Returns
    -------
    Result

    Examples
    --------
    >>> from corefscore._files import score_files
    >>> r = score_files("examples/key.conll", "examples/key.conll")  # doctest: +SKIP
    >>> r.conll_f1  # doctest: +SKIP
    1.0
    """
    import numpy as np

    from . import _api
    from ._result import Result

    settings = _api._settings(metrics, singletons, duplicates, blanc_rule, workers, link_weights, da_weights, da_greedy)
    fc = read_and_score(key_path, response_path, settings.struct, format)
    n, ncol = len(fc.names), len(fc.columns)
    matrix = np.frombuffer(fc.counts, dtype=np.float64, count=n * ncol).reshape(n, ncol).copy()
    dups = [
        _api.Duplicate(fc.names[d], "key" if s == 0 else "response", decode_mention(m), int(a), int(b))
        for d, s, m, a, b in fc.duplicates
    ]
    lines = _api._report(dups, settings.duplicates, 2)
    return Result(
        matrix,
        fc.columns,
        fc.names,
        settings.metrics(has_types(fc)),
        blanc_rule=settings.blanc_rule,
        duplicates=dups,
        warnings=fc.warnings + lines,
        key=os.fspath(key_path),
        response=os.fspath(response_path),
        options=settings.options,
    )
