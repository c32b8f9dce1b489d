"""The scoring layer: options validated once by the engine, engine calls, errors in the caller's terms.

Every policy (defaults, option values, duplicates, which metrics apply) is the
engine's; this layer turns user values into the engine's key/value options,
calls it, and turns the facts it reports (``cs_error``, ``cs_duplicate``,
``cs_warning``) into Python objects that name documents and mentions as the
caller gave them.
"""

from __future__ import annotations

import errno
import os

from . import _lib

TYPE_CHECKING = False  # this module is on the command line's path: no typing, NumPy or _convert at import
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from ._convert import Doc

SIDES = ("key", "response")


class CorefScoreInputError(ValueError):
    """Input or an option the engine refused. Attributes locate the problem (None where they do not apply).

    Attributes
    ----------
    reason : str
        What is wrong.
    kind : str
        ``"option"``, ``"mention"``, ``"duplicate"``, ``"missing_types"``, ``"parse"``, ...
    document, side, mention, path, line, option :
        The document's name, ``"key"``/``"response"``, the mention as the caller
        gave it (a ``(start, end)`` span for files), the file, its 1-based line,
        and the option's keyword.
    """

    def __init__(self, message: str, *, reason: str = "", kind: str = "", document: str | None = None,
                 side: str | None = None, mention: Any = None, path: str | None = None, line: int | None = None,
                 option: str | None = None) -> None:
        super().__init__(message)
        self.reason, self.kind, self.document, self.side = reason or message, kind, document, side
        self.mention, self.path, self.line, self.option = mention, path, line, option


class Duplicate(tuple):
    """A mention repeated on one side of a document; only its first occurrence is scored.

    A named tuple ``(document, side, mention, first_cluster, cluster, line)``;
    ``line`` is the file line where the repetition closes (0 for in-memory input).
    """

    __slots__ = ()
    _fields = ("document", "side", "mention", "first_cluster", "cluster", "line")

    def __new__(cls, document: str, side: str, mention: Any, first_cluster: int, cluster: int,
                line: int = 0) -> Duplicate:
        return tuple.__new__(cls, (document, side, mention, int(first_cluster), int(cluster), int(line)))

    def __getnewargs__(self) -> tuple:  # pickle (Dask, torch.distributed) calls __new__ with the fields
        return tuple(self)

    document = property(lambda self: self[0])
    side = property(lambda self: self[1])
    mention = property(lambda self: self[2])
    first_cluster = property(lambda self: self[3])
    cluster = property(lambda self: self[4])
    line = property(lambda self: self[5])

    def __repr__(self) -> str:
        return "Duplicate(" + ", ".join(f"{f}={v!r}" for f, v in zip(self._fields, self)) + ")"

    def message(self) -> str:
        where = f" (line {self.line})" if self.line else ""
        return (f"document {self.document}: {self.side} mention {self.mention!r}{where} is repeated "
                f"(clusters {self.first_cluster} and {self.cluster}); only the first is scored")


def _option_value(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if key == "metrics":
        names = (value,) if isinstance(value, str) else value
        try:
            names = list(names)
        except TypeError:
            raise TypeError(f"`metrics` must be a metric name or a sequence of names; got {value!r}.") from None
        if not all(isinstance(n, str) for n in names):
            raise TypeError(f"`metrics` must contain metric names (str); got {value!r}.")
        return ",".join(names)
    if key in ("outputs", "analysis") and not isinstance(value, str):
        return ",".join(value)
    if key in ("link_weights", "da_weights"):
        try:
            return ",".join(repr(float(x)) for x in value)
        except (TypeError, ValueError):
            raise TypeError(f"`{key}` must be a sequence of numbers; got {value!r}.") from None
    if key == "duplicates" and value == "ignore":
        return "warn"  # the engine keeps the first occurrence either way; "ignore" only silences the warning
    return str(value)


class Options:
    """Keyword options, validated by the engine into one handle per pair of input facts (see :meth:`handle`)."""

    __slots__ = ("_handles", "analysis", "blanc_rule", "duplicates", "marshal_handle", "pairs", "row_classes", "values")

    def __init__(self, **values: Any) -> None:
        self.values = {k: v for k, v in values.items() if v is not None}
        self.pairs = [(k, _option_value(k, v)) for k, v in self.values.items()]
        self.blanc_rule = values.get("blanc_rule") or "key"
        self.duplicates = values.get("duplicates") or "warn"
        self.analysis = values.get("outputs") == "analysis"  # a scoring call then returns the analysis
        self._handles: dict[tuple[bool, bool, bool], int] = {}
        self.marshal_handle = 0  # per_call_handle() once made: read by the per-call road before it calls anything
        self.row_classes: dict[int, Any] = {}  # applied metrics mask -> the class of the per-call road's results
        self.handle(False)  # validates now: a bad option fails at the call that gave it

    def handle(self, types_given: bool, spans: bool = False, marshal: bool = False) -> int:
        """The engine's handle for these options and facts of the input: typed mentions, span ids, marshal bytes."""
        h = self._handles.get((types_given, spans, marshal))
        if h is None:
            pairs = [*self.pairs, ("types_given", "true" if types_given else "false"),
                     ("span_mentions", "true" if spans else "false")]
            if marshal:
                pairs.append(("input", "marshal"))
            try:
                h = _lib.options_new(pairs)
            except _lib.EngineError as exc:
                raise _translate(exc, option_keys=[k for k, _ in pairs]) from None
            self._handles[(types_given, spans, marshal)] = h
            if marshal and not types_given and spans:
                self.marshal_handle = h
        return h

    def per_call_handle(self) -> int:
        """The handle of the per-call road (:func:`_lib.score_marshal`), made on first use; 0 for an analysis.

        The road's callers read ``marshal_handle`` first (an attribute costs
        less than this call): ``opts.marshal_handle or opts.per_call_handle()``.
        """
        return 0 if self.analysis else self.handle(False, True, True)

    def __del__(self) -> None:
        free = getattr(_lib, "free", None)  # None once the interpreter is shutting down
        if free is None:
            return
        for h in getattr(self, "_handles", {}).values():
            free(h)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Options) and self.pairs == other.pairs

    __hash__ = None  # type: ignore[assignment]


_cache: dict[tuple, Options] = {}


def options(**values: Any) -> Options:
    """Options for these keyword values, cached (validation and handles are made once per distinct set)."""
    try:
        # The type too: True == 1 == 1.0 as keys, but the engine reads them differently ("true", "1", "1.0").
        key = tuple((k, type(v), tuple(v) if isinstance(v, list) else v) for k, v in values.items())
        found = _cache.get(key)
    except TypeError:  # an unhashable value: validate without the cache
        return Options(**values)
    if found is None:
        found = Options(**values)
        if len(_cache) >= 256:
            _cache.pop(next(iter(_cache)))
        _cache[key] = found
    return found


def _translate(exc: _lib.EngineError, *, names: Sequence[str] = (), labels: Sequence[str] = (),
               docs: Sequence[Doc] = (),
               offsets: Sequence[Any] = (), paths: Sequence[str] = (), option_keys: Sequence[str] = ()) -> Exception:
    """The exception a user sees for an engine error, in the caller's terms."""
    kind, reason = exc.kind, exc.reason
    side = SIDES[exc.side] if exc.side in (0, 1) else None
    path = paths[exc.side] if side and paths else None
    if kind == "not_found" and path is not None:
        return FileNotFoundError(errno.ENOENT, f"No such file ({side} file)", path)
    if kind == "io":
        return OSError(f"{path or ''}: {reason}")
    if kind in ("internal", "argument"):
        return RuntimeError(f"corefscore: internal error: {reason}")
    info: dict[str, Any] = {"reason": reason, "kind": kind, "side": side, "path": path}
    parts = []
    if kind == "option" and 0 <= exc.option < len(option_keys):
        info["option"] = option_keys[exc.option]
        parts.append(f"`{info['option']}`")
    if path is not None:
        info["line"] = exc.line or None
        parts.append(f"{path}, line {exc.line}" if exc.line else path)
    if 0 <= exc.doc < len(names):
        info["document"] = names[exc.doc]
        parts.append(f"document {labels[exc.doc] if labels else repr(names[exc.doc])}")
    elif exc.doc >= 0 and not paths:
        info["document"] = str(exc.doc)
        parts.append(f"document {exc.doc}")
    if exc.start >= 0:
        info["mention"] = (exc.start, exc.end)
    elif exc.mention >= 0 and side and 0 <= exc.doc < len(docs):
        ids = docs[exc.doc].side(side)[0]
        local = exc.mention - int(offsets[exc.side][exc.doc])  # the engine gives the index in the whole side
        if 0 <= local < len(ids):
            info["mention"] = docs[exc.doc].mention(int(ids[local]))
    if side:
        parts.append(f"{side} mention {info['mention']!r}" if "mention" in info else side)
    hint = {"duplicate": "; pass duplicates='warn' to score the first occurrence",
            "missing_types": "; give every mention a type, or choose metrics that do not read types"}.get(kind, "")
    return CorefScoreInputError(": ".join([*parts, reason]) + hint, **info)


class Scores:
    """The engine's answer for a batch: the (n_docs, n_columns) counts and the facts that go with them."""

    __slots__ = ("counts", "duplicates", "metrics", "n_duplicates", "names", "warnings")

    def __init__(self, counts: Any, names: list[str], metrics: tuple[str, ...], duplicates: list[Duplicate],
                 n_duplicates: int, warnings: list[str]) -> None:
        self.counts, self.names, self.metrics = counts, names, metrics
        self.duplicates, self.n_duplicates, self.warnings = duplicates, n_duplicates, warnings


def warning_lines(scores: Scores) -> list[str]:
    """The warning lines of a batch: the reader's and engine's warnings, then one line for repeated mentions."""
    lines = list(scores.warnings)
    if scores.n_duplicates:
        more = scores.n_duplicates - 1
        first = scores.duplicates[0].message() if scores.duplicates else "repeated mentions"
        lines.append(first + (f"; and {more} more (see Result.duplicates)" if more else ""))
    return lines


_applied_names: dict[int, tuple[str, ...]] = {}


def _applied(mask: int) -> tuple[str, ...]:
    names = _applied_names.get(mask)
    if names is None:
        names = _applied_names[mask] = tuple(m for i, m in enumerate(_lib.metric_names()) if mask >> i & 1)
    return names


def _warnings(records: list, paths: Sequence[str] = ()) -> list[str]:
    out = []
    for w in records:
        where = ""
        if paths and w.side in (0, 1):
            where = f"{paths[w.side]}, line {w.line}: " if w.line else f"{paths[w.side]}: "
        times = f" ({w.count} times)" if w.count > 1 else ""
        out.append(where + w.message.decode("utf-8", "replace") + times)
    return out


def score_docs(docs: list[Doc], names: list[str], opts: Options, named: bool) -> Scores | dict:
    """Score converted documents in one engine call: the one road of every in-memory input.

    One document is scored from its packed buffer as it is; a batch is laid
    out side by side first (:func:`_convert.csr`). With analysis options
    (outputs=analysis) the result is the analysis, its mention ids mapped
    back to the caller's mentions.
    """
    if len(docs) == 1 and not (named or opts.analysis):
        d = docs[0]
        n = len(d.both) >> 1
        if n < _lib.INTERRUPTIBLE_MENTIONS:  # the per-call path: the packed buffer as it is, prebuilt arguments
            try:
                counts, applied, dups, n_dups, warns, _ = _lib.score_one(
                    d.both, d.nk, d.types, opts._handles.get(_HANDLE_KEYS[d.types is not None][d.kind == "span"])
                    or opts.handle(d.types is not None, d.kind == "span"))
            except _lib.EngineError as exc:
                raise _translate(exc, names=names, labels=names, docs=docs, offsets=((0, d.nk), (0, n - d.nk))) \
                    from None
            if not (n_dups or warns):
                return Scores(counts, names, _applied(applied), [], 0, [])
            return _scores(docs, names, counts, applied, dups, n_dups, warns, ((0, d.nk), (0, n - d.nk)))
    if len(docs) == 1:  # a long or named document, or an analysis: the packed buffer, through the batch call
        d = docs[0]
        spans, types_given, key = d.kind == "span", d.types is not None, None
        packed, n = (d.both, d.nk, d.types), len(d.both) >> 1
        response, offsets = None, ((0, d.nk), (0, n - d.nk))
    else:
        from ._convert import csr

        spans = all(d.kind == "span" for d in docs)
        if not spans and any(d.kind == "span" for d in docs):
            docs, spans = [d.as_spans() for d in docs], True  # one packing for the batch (see _convert)
        types_given = any(d.types is not None for d in docs)
        key, response, packed = csr(docs, "key"), csr(docs, "response"), None
        n, offsets = len(key[2]) + len(response[2]), (key[0], response[0])
    cnames = None
    if named:
        import numpy as np

        encoded = [n.encode("utf-8", "surrogateescape") for n in names]
        name_offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
        np.cumsum([len(b) for b in encoded], out=name_offsets[1:])
        cnames = (np.frombuffer(b"".join(encoded) or b"\0", dtype=np.uint8), name_offsets)
    analysis = opts.analysis
    try:
        counts, applied, dups, n_dups, warns, found = _lib.score(
            len(docs), key, response, cnames, opts.handle(types_given, spans), n, not analysis, packed)
    except _lib.EngineError as exc:
        labels = [f"{i} ({n!r})" for i, n in enumerate(names)] if named else names
        raise _translate(exc, names=names, labels=labels, docs=docs, offsets=offsets) from None
    if analysis:
        found["names"] = names
        found["mention_of"] = lambda d, m: docs[d].mention(int(m))
        return found
    return _scores(docs, names, counts, applied, dups, n_dups, warns, offsets)


_HANDLE_KEYS = (((False, False, False), (False, True, False)),
                ((True, False, False), (True, True, False)))  # [typed][spans]: handle keys


def score_marshal(key: Any, response: Any, opts: Options) -> tuple | None:
    """The per-call road of one untyped document of span lists (:func:`_lib.score_marshal`) under ``opts``.

    ``(counts row, applied mask)``, or None for the general road
    (:func:`_convert.convert` then :func:`score_docs`), which an analysis
    always takes. ``score`` and ``Scorer.update`` make this call themselves,
    without this function's frame.
    """
    return _lib.score_marshal(key, response, opts.marshal_handle or opts.per_call_handle())


def applied(mask: int) -> tuple[str, ...]:
    """The names of the metrics in an applied-metrics bit mask, in engine order."""
    return _applied_names.get(mask) or _applied(mask)


def _scores(docs: list[Doc], names: list[str], counts: Any, applied: int, dups: Any, n_dups: int, warns: Any,
            offsets: Any) -> Scores:
    """The Scores of an engine call, repeated mentions named as the caller gave them."""
    records = []
    for d in dups:
        side = SIDES[d.side]
        local = d.mention - int(offsets[d.side][d.doc])
        doc = docs[d.doc]
        records.append(Duplicate(names[d.doc], side, doc.mention(int(doc.side(side)[0][local])), d.first_cluster,
                                 d.cluster))
    return Scores(counts, names, _applied(applied), records, n_dups, _warnings(warns) if warns else [])


def _file_scores(out: tuple, paths: list[str]) -> Scores:
    counts, names, applied, dups, n_dups, warns = out
    records = [Duplicate(names[d.doc] if 0 <= d.doc < len(names) else str(d.doc), SIDES[d.side], (d.start, d.end),
                         d.first_cluster, d.cluster, d.line) for d in dups]
    return Scores(counts, names, _applied(applied), records, n_dups, _warnings(warns, paths))


def _file_analysis(analysis: dict, paths: list[str]) -> dict:
    from ._convert import unpack_span  # here: _convert imports NumPy, which the command line does without

    analysis["mention_of"] = lambda d, m: unpack_span(int(m))
    analysis["warnings"] = _warnings(analysis["warnings"], paths)
    return analysis


def _files(key_path: Any, response_path: Any, opts: Options, as_numpy: bool = True) -> tuple[dict, list[str]]:
    """The file call (``cs_score_files``) with ``opts``' outputs; errors name the files."""
    paths = [os.fsdecode(os.fspath(p)) if p is not None else "" for p in (key_path, response_path)]
    try:
        out = _lib.score_files(*(os.fsencode(p) if p else None for p in paths), opts.handle(False), as_numpy)
    except _lib.EngineError as exc:
        raise _translate(exc, paths=[p or paths[1 - i] for i, p in enumerate(paths)]) from None
    return out, paths


def score_files(key_path: Any, response_path: Any, opts: Options, as_numpy: bool = True) -> Scores:
    """Read and score two files (parsed once, in Go); counts as a flat row-major ctypes array unless ``as_numpy``."""
    out, paths = _files(key_path, response_path, opts, as_numpy)
    return _file_scores(out["scores"], paths)


def analyze_files(key_path: Any, response_path: Any, opts: Options) -> dict:
    """Read, pair and analyse two files (``opts`` with outputs=analysis); mentions are (start, end) token spans."""
    out, paths = _files(key_path, response_path, opts)
    return _file_analysis(out["analysis"], paths)


def report_files(key_path: Any, response_path: Any, opts: Options) -> tuple:
    """One read of each file for a report: ``(scores, analysis, key documents, response documents)``.

    ``opts`` asks for every output (outputs=scores,analysis,key_documents,
    response_documents; ``analysis`` names the analyses). ``scores`` is what
    :func:`score_files` returns, ``analysis`` what :func:`analyze_files`
    returns (the files read, paired and compared as for scoring), the
    documents are the raw arrays of the file call (the key's with words),
    which the report decodes (``corefscore.report``).
    """
    out, paths = _files(key_path, response_path, opts)
    return _file_scores(out["scores"], paths), _file_analysis(out["analysis"], paths), out["key"], out["response"]
