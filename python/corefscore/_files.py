"""Scoring files parsed in Go (``cs_score_files``), for the command line.

:func:`read_and_score` returns the raw per-document counts without building
NumPy arrays, so the reference-format printer can run on them directly;
:func:`score_files` wraps them in a :class:`~corefscore.Result`. The command
line uses ``corefscore.score_files`` when the package exports one and this
module's otherwise.
"""

from __future__ import annotations

import os

from . import _lib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (about 20 ms without site)
if TYPE_CHECKING:
    from typing import Any

#: Formats the Go readers accept ("" or None: by extension, then by content).
FORMATS = ("conll2012", "conllu", "jsonlines")


class FileCounts:
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

    __slots__ = ("columns", "counts", "duplicates", "names", "warnings")

    def __init__(
        self,
        names: list[str],
        counts: Any,
        columns: tuple[str, ...],
        duplicates: list[tuple[int, int, int, int, int]],
        warnings: list[str],
    ) -> None:
        self.names = names
        self.counts = counts
        self.columns = columns
        self.duplicates = duplicates
        self.warnings = warnings

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
    doc_names, counts, columns, records, warnings = _lib.score_files(key, resp, fmt, options)
    return FileCounts(doc_names, counts, columns, records, warnings)


def decode_mention(mention_id: int) -> Any:
    """A file mention id as the readers pack it: ``(start, end)`` tokens, or the interned id.

    Contiguous spans are ``start << 32 | end``; discontinuous mentions have
    bit 62 set and are returned as ``("discontinuous", k)``.
    """
    if mention_id >> 62:
        return ("discontinuous", mention_id & ((1 << 62) - 1))
    return (mention_id >> 32, mention_id & 0xFFFFFFFF)


def _typed_columns(columns: tuple[str, ...]) -> list[int]:
    return [i for i, c in enumerate(columns) if c.partition(".")[0] in _lib.TYPED_METRICS]


def has_types(fc: FileCounts) -> bool:
    """Whether the files gave mention types: some typed metric has a non-zero count."""
    cols = _typed_columns(fc.columns)
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
        settings.metrics(bool(matrix[:, _typed_columns(fc.columns)].any())),  # has_types(fc), vectorised
        blanc_rule=settings.blanc_rule,
        duplicates=dups,
        warnings=fc.warnings + lines,
        key=os.fspath(key_path),
        response=os.fspath(response_path),
        options=settings.options,
    )
