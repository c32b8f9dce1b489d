"""The ``corefscore`` command line (also ``python -m corefscore``).

Four forms::

    corefscore METRIC KEY RESPONSE [none|DOCNAME] [options]   # drop-in for perl scorer.pl
    corefscore score KEY RESPONSE [options]                    # a table of every metric
    corefscore compare KEY RESPONSE_A RESPONSE_B [options]     # paired significance test
    corefscore report KEY RESPONSE [RESPONSE_B] -o report.html # one self-contained HTML report

The drop-in form prints what the CoNLL reference scorer v8.01 prints (see
:mod:`corefscore._report` for the few deliberate differences). Every form
accepts ``--json`` (one JSON object on standard output). Exit status: 0 on
success, 2 on bad input or bad options, with a one-line message on standard
error that names the file, the line and the document; warnings (repeated
mentions, unpaired documents) go to standard error.

The module imports only the standard library at start-up; NumPy and the
statistics module are imported by the commands that use them.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (about 20 ms without site)
if TYPE_CHECKING:
    from typing import Any

#: Metric names of the reference scorer, accepted by the drop-in form besides ours.
REFERENCE_METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")
#: Sub-commands.
COMMANDS = ("score", "compare", "report")

USAGE = """\
usage: corefscore METRIC KEY RESPONSE [none|DOCNAME] [--json] [options]
       corefscore score KEY RESPONSE [options]
       corefscore compare KEY RESPONSE_A RESPONSE_B [options]
       corefscore report KEY RESPONSE [RESPONSE_B] -o report.html [options]

  METRIC: muc, bcub, ceafm, ceafe, blanc or all (as the reference scorer), or
          one of corefscore's other metrics: {others}
  none:   print the totals only; DOCNAME: score that document alone.

Run `corefscore score --help`, `corefscore compare --help` or
`corefscore report --help` for the options of each.
"""


class UsageError(Exception):
    """Bad command-line input; exit status 2."""


def _err(message: str) -> None:
    sys.stderr.write("corefscore: error: " + " ".join(str(message).split("\n")) + "\n")


def _warn(lines: list[str]) -> None:
    if lines:
        sys.stderr.write("".join(f"corefscore: warning: {w}\n" for w in lines))


# ---------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------


def _floats(text: str, n: int, name: str) -> tuple[float, ...]:
    try:
        values = tuple(float(x) for x in text.split(","))
    except ValueError:
        raise UsageError(f"{name} must be {n} comma-separated numbers; got {text!r}") from None
    if len(values) != n:
        raise UsageError(f"{name} must be {n} comma-separated numbers; got {text!r}")
    return values


#: Values of the engine options when none is given (argparse's defaults and the drop-in fast path's).
ENGINE_DEFAULTS: dict[str, Any] = {
    "json": False,
    "format": None,
    "singletons": None,
    "match": None,
    "zero_match": None,
    "preset": None,
    "duplicates": "warn",
    "blanc_rule": "key",
    "workers": None,
    "link_weights": None,
    "da_weights": None,
    "da_greedy": False,
    "clusters_field": None,
    "allow_disjoint": False,
    "split_antecedents": None,
    "non_referring": False,
    "bridging": False,
    "discourse_deixis": False,
    "min_span": False,
}


def _engine_options(p: Any, *, json: bool = True) -> None:
    """Options shared by every form: input format and the engine's policies (and --json where it applies)."""
    g = p.add_argument_group("scoring options")
    g.set_defaults(**ENGINE_DEFAULTS)
    if json:
        g.add_argument("--json", action="store_true", help="print one JSON object (Result.to_dict()) on stdout")
    g.add_argument("--format", choices=("conll2012", "conllu", "jsonlines", "ua"),
                   help="input format (default: guessed; ua: CoNLL-UA, also known by its global.columns header)")
    g.add_argument("--clusters-field", metavar="NAME",
                   help="jsonlines: the response's clusters field (default: clusters, else predicted_clusters)")
    g.add_argument("--singletons", choices=("keep", "exclude"), help="one-mention clusters (default keep)")
    g.add_argument("--match", choices=("exact", "partial", "head"),
                   help="mention matching (default exact); partial and head need heads (CoNLL-U, CoNLL-2012 with POS)")
    g.add_argument("--zero-match", choices=("linear", "dependent", "dependent-strict"),
                   help="alignment of zero mentions, CoNLL-U empty nodes (default linear); dependent pairs them as the "
                        "CorefUD scorer's lookups do, dependent-strict as its alignment alone")
    g.add_argument("--preset", choices=("crac", "conll"),
                   help="crac: --match head --singletons exclude --zero-match dependent (the CRAC 2023-2024 "
                        "ranking); conll: the defaults. Flags given beside it override it")
    g.add_argument(
        "--duplicates",
        choices=("warn", "raise"),
        help="a mention repeated on one side: score its first occurrence and warn (default), or refuse (exit 2)",
    )
    g.add_argument(
        "--blanc-rule", choices=("key", "either"), help="BLANC's rule for a side without links (default key)"
    )
    g.add_argument("--workers", type=int, help="engine threads (default: one per CPU)")
    g.add_argument("--link-weights", metavar="NAM,NOM,PRO,SING", help="weights of the linguistically aware metrics")
    g.add_argument(
        "--da-weights", metavar="A,B,C", help="DA similarity weights: names, nominals, pronouns (default 0.6,0.3,0.1)"
    )
    g.add_argument("--da-greedy", action="store_true", help="DA's greedy correspondence instead of the optimal one")
    g.add_argument("--allow-disjoint", action="store_true",
                   help="score a key and a response with no document name in common (refused by default: "
                        "every key document would be scored against an empty response)")
    ua = p.add_argument_group("Universal Anaphora (CoNLL-UA files; the UA scorer's modes)")
    ua.add_argument("--split-antecedents", choices=("keep", "exclude", "only"),
                    help="split antecedents of plural anaphors: scored in every metric (default keep), left out, "
                         "or only their alignment scored")
    ua.add_argument("--non-referring", action="store_true",
                    help="also score non-referring markables (-Pseudo entities): metric non_referring")
    ua.add_argument("--bridging", action="store_true",
                    help="also score bridging: bridging_anaphora, bridging_markable, bridging_entity")
    ua.add_argument("--discourse-deixis", action="store_true", help="score the DISCOURSE_DEIXIS column instead")
    ua.add_argument("--min-span", action="store_true",
                    help="a response markable that covers a key markable's Min and stays inside it matches it")


def _metrics_option(p: Any) -> None:
    p.add_argument("--metrics", help="comma-separated metric names (default: all)")


def _parser(prog: str, description: str) -> Any:
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> Any:  # one line and status 2, no usage dump
            raise UsageError(f"{message} (see {self.prog} --help)")

    return Parser(prog=prog, description=description)


def _parse(parser: Any, argv: list[str]) -> Any:
    return parser.parse_args(argv)


class _Args:
    """The parsed arguments of the plain drop-in form (what argparse's Namespace would hold)."""

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)


def _plain_dropin(argv: list[str]) -> _Args | None:
    """``METRIC KEY RESPONSE [none|DOCNAME]`` without any option, parsed without argparse.

    Returns None for anything else (options, ``-h``, a wrong number of
    arguments), which argparse then parses and, if need be, refuses. The
    drop-in form is what scripts call thousands of times: importing and
    building an argparse parser is a measurable part of its start-up.
    """
    if not 3 <= len(argv) <= 4 or any(a.startswith("-") for a in argv):
        return None
    return _Args(
        metric=argv[0], key=argv[1], response=argv[2], name=argv[3] if len(argv) == 4 else None, **ENGINE_DEFAULTS
    )


def _score_kwargs(args: Any, metrics: Any) -> dict[str, Any]:
    """Keyword options of score_files; their values are validated by the engine."""
    return {
        "format": args.format,
        "clusters_field": args.clusters_field,
        "metrics": metrics,
        "singletons": args.singletons,
        "match": args.match,
        "zero_match": args.zero_match,
        "preset": args.preset,
        # Repeated mentions are printed by the command line itself (one line each on stderr).
        "duplicates": "raise" if args.duplicates == "raise" else "ignore",
        "blanc_rule": args.blanc_rule,
        "workers": args.workers,
        "link_weights": _floats(args.link_weights, 4, "--link-weights") if args.link_weights else None,
        "da_weights": _floats(args.da_weights, 3, "--da-weights") if args.da_weights else None,
        "da_greedy": args.da_greedy,
        "allow_disjoint": args.allow_disjoint or None,
        "split_antecedents": args.split_antecedents,
        "non_referring": args.non_referring or None,
        "bridging": args.bridging or None,
        "discourse_deixis": args.discourse_deixis or None,
        "min_span": args.min_span or None,
    }


def _metric_list(text: str | None) -> list[str] | None:
    return None if text is None else [m.strip().lower() for m in text.split(",") if m.strip()]


def _known_metrics() -> tuple[str, ...]:
    """The metrics with scores (recall and precision), which the drop-in form prints as the reference does."""
    from . import _arith, _lib

    return _arith.split_scored(_lib.columns(), _lib.metric_names())[0]


def _analyses() -> tuple[str, ...]:
    """The count-only analyses (kk, ms): counts without scores, printed by ``corefscore score --metrics``."""
    from . import _arith, _lib

    return _arith.split_scored(_lib.columns(), _lib.metric_names())[1]


def _input_error(exc: Any) -> str:
    """A refused input in command-line terms: flags, files, lines, token spans."""
    if exc.option:
        return f"--{exc.option.replace('_', '-')}: {exc.reason}"
    parts = []
    if exc.path:
        parts.append(f"{exc.path}:{exc.line}" if exc.line else exc.path)
    if exc.document is not None:
        parts.append(f"document {exc.document}")
    if exc.side:
        m = exc.mention
        if isinstance(m, tuple) and len(m) == 2:
            parts.append(f"{exc.side} mention at tokens {m[0]}-{m[1]}")
        else:
            parts.append(exc.side if m is None else f"{exc.side} mention {m!r}")
    message = ": ".join([*parts, exc.reason])
    if exc.kind == "duplicate":
        message += " (--duplicates warn scores the first occurrence and reports the others)"
    return message


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------


def _score_files(key: str, response: str, **kwargs: Any) -> Any:
    from ._api import score_files

    return score_files(key, response, **kwargs)


def _plain_score_files(key: str, response: str, kwargs: dict[str, Any]) -> Any:
    """What the score table needs of ``score_files(key, response, **kwargs)``, computed without NumPy.

    A ``_report.Totals`` with ``key``, ``response`` and ``warnings`` set as on
    the Result: the same numbers, for commands that print the micro-averaged
    table only (importing NumPy takes longer than reading and scoring a
    30 MB corpus, bench/corefud.md).
    """
    from . import _engine, _lib, _report

    scores = _engine.score_files(key, response, _engine.options(**kwargs), as_numpy=False)
    totals = _report.Totals(scores.counts, len(scores.names), _lib.columns(), scores.metrics,
                            kwargs.get("blanc_rule") or "key")
    totals.key, totals.response = str(key), str(response)
    totals.warnings = _engine.warning_lines(scores)
    return totals


def _plain_scores_json(key: str, response: str, kwargs: dict[str, Any], per_doc: bool) -> dict[str, Any]:
    """``score_files(key, response, **kwargs).to_dict(per_doc=per_doc)``, computed without NumPy.

    The same numbers and schema (``_result.scores_json`` writes both): the
    columns are summed document by document in key order, as NumPy sums a
    matrix's rows, so ``score --json`` pays for the interpreter, the library
    and the read, not for importing NumPy (bench/startup.md).
    """
    from . import _engine, _lib, _report, _result

    opts = _engine.options(**kwargs)
    scores = _engine.score_files(key, response, opts, as_numpy=False)
    columns = _lib.columns()
    n_docs = len(scores.names)
    totals = _report.Totals(scores.counts, n_docs, columns, scores.metrics, opts.blanc_rule)
    rows = None
    if per_doc:
        flat, width = scores.counts[:], len(columns)
        rows = [flat[i * width:(i + 1) * width] for i in range(n_docs)]
    warnings = _engine.warning_lines(scores) if scores.n_duplicates or scores.warnings else []
    return _result.scores_json(totals.sums, rows, scores.names, columns, totals.metrics, totals.analyses,
                               opts.blanc_rule, key=str(key), response=str(response), warnings=warnings)


def _no_blas_threads() -> None:
    """Ask OpenBLAS for one thread, unless the user chose, before a command that does no matrix product imports NumPy.

    Starting OpenBLAS's thread pool is more than half of what ``import
    numpy`` costs beyond the interpreter on a small machine (about 80 ms of
    CPU on the 2-CPU benchmark machine, ``bench/cli.md``); the table of
    scores, macro averages and the JSON output only sum and divide. The report's idle worker threads
    spun for 27% of its CPU samples for no wall time (issue 24: one thread, -22% CPU, the same wall), so it
    asks for one thread too. ``--ci`` and ``compare`` keep the default.
    """
    import os

    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _dump_json(obj: Any) -> None:
    import json

    sys.stdout.write(json.dumps(obj, indent=2, allow_nan=False) + "\n")


# ---------------------------------------------------------------------------
# Drop-in form
# ---------------------------------------------------------------------------


def _dropin(argv: list[str]) -> int:
    args = _plain_dropin(argv)
    if args is None:
        parser = _parser(
            "corefscore",
            "Score a response against a key and print what the CoNLL reference scorer v8.01 prints.",
        )
        parser.add_argument("metric", help="muc, bcub, ceafm, ceafe, blanc, all, or another corefscore metric")
        parser.add_argument("key")
        parser.add_argument("response")
        parser.add_argument("name", nargs="?", default=None, help='"none" (totals only) or a document name')
        _engine_options(parser)
        args = _parse(parser, argv)
    metric = args.metric.lower()
    known = _known_metrics()
    if metric in _analyses():
        raise UsageError(f"{metric} is an error analysis, counts without a score: run "
                         f"`corefscore score KEY RESPONSE --metrics {metric}` to print its counts")
    if metric != "all" and metric not in known:
        raise UsageError(f"invalid metric {args.metric!r}; use all, {', '.join(known)}")
    wanted = list(REFERENCE_METRICS) if metric == "all" else [metric]
    kwargs = _score_kwargs(args, ["mentions", *wanted])
    if args.json:
        _no_blas_threads()
        result = _score_files(args.key, args.response, **kwargs)
        _warn(result.warnings)
        if args.name not in (None, "none"):
            result = _select(result, args.name)
        _dump_json(result.to_dict(per_doc=args.name is None))
        return 0
    from . import _engine, _lib, _report

    kwargs.pop("duplicates")
    # The reference's own summation order, so that every printed percentage is Perl's; with "none" only the
    # totals are printed, and the engine makes just those Perl's (most tied CEAF_e documents then skip the
    # replay of the reference's Munkres).
    sums = "reference-totals" if args.name == "none" else "reference"
    opts = _engine.options(duplicates=args.duplicates, sums=sums, **kwargs)
    scores = _engine.score_files(args.key, args.response, opts, as_numpy=False)
    names = scores.names
    key_repeats = [0] * len(names)
    messages = list(scores.warnings)
    for d in scores.duplicates:
        if d.side == "key":
            key_repeats[names.index(d.document)] += 1
        messages.append(d.message())
    if scores.n_duplicates > len(scores.duplicates):
        messages.append(f"and {scores.n_duplicates - len(scores.duplicates)} more repeated mentions")
    mode = args.name
    if mode not in (None, "none") and mode not in names:
        stripped = {n.strip(): n for n in names}
        if mode.strip() in stripped:
            mode = stripped[mode.strip()]
        else:
            messages.append(f"document {args.name!r} is not in the key: scored as empty, as the reference does")
    _warn(messages)
    ncol = len(_lib.columns())
    rows = [scores.counts[i * ncol:(i + 1) * ncol] for i in range(len(names))]  # slices of a ctypes array: lists
    report = _report.Report(names, rows, _lib.columns(), key_repeats, blanc_rule=args.blanc_rule)
    text = report.render(metric, mode)
    if mode is not None and mode != args.name:
        text = text.replace(f"\n{mode}:\n", f"\n{args.name}:\n", 1)
    sys.stdout.write(text)
    return 0


def _select(result: Any, name: str) -> Any:
    names = list(result.doc_names)
    for candidate in (name, name.strip()):
        for i, n in enumerate(names):
            if n == candidate or n.strip() == candidate:
                return result._subset([i])
    raise UsageError(f"document {name!r} is not in the key {result.key}")


# ---------------------------------------------------------------------------
# score
# ---------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


def _score_table(result: Any, args: Any, intervals: Any, macro: Any) -> str:
    """The readable table of ``corefscore score``."""
    names = list(result.metrics)
    n = result.n_documents
    lines = [
        f"corefscore {_version()}: key {result.key}, response {result.response}",
        f"{n} document{'s' if n != 1 else ''}, {args.average} average"
        + (
            f", {100 * intervals.confidence:g}% bootstrap intervals ({intervals.n} resamples, seed {intervals.seed})"
            if intervals is not None
            else ""
        ),
        "",
    ]
    width = 24 if intervals is not None else 10
    lines.append(f"{'metric':<13}" + "".join(f"{h:>{width}}" for h in ("recall", "precision", "F1")))

    def cell(metric: str, q: str, value: float | None) -> str:
        if value is None:
            return "n/a".rjust(width)
        if intervals is not None and metric in intervals and q in intervals[metric]:
            iv = intervals[metric][q]
            return f"{_pct(value)} [{_pct(iv.low)}, {_pct(iv.high)}]".rjust(width)
        return _pct(value).rjust(width)

    for m in names:
        if not result[m].counted:  # nothing to count in the corpus, so in no document either: no average
            r = p = f = None
        elif macro is not None:
            r, p, f = (macro[m][q] for q in ("recall", "precision", "f1"))
        else:
            r, p, f = result[m].shown()
        lines.append(f"{m:<13}" + cell(m, "recall", r) + cell(m, "precision", p) + cell(m, "f1", f))
    conll = macro["conll"]["f1"] if macro is not None and "conll" in macro else result.conll_f1
    if conll is not None or all(m in names for m in ("muc", "bcub", "ceafe")):
        lines.append(f"{'CoNLL F1':<13}" + " " * (2 * width) + cell("conll", "f1", conll))
    lines.extend(_count_lines(result))
    return "\n".join(lines) + "\n"


def _count_lines(result: Any) -> list[str]:
    """The count-only analyses asked for (kk, ms), one line each: counts, not scores."""
    from ._arith import count_text

    counts = result.counts
    return [f"{a:<13}{count_text(counts[a])}" for a in result.analyses]


def _per_doc_table(result: Any) -> str:
    names = list(result.metrics)
    docs = result.per_document()
    from ._report import display_name

    shown = [display_name(d.doc_names[0]) for d in docs]
    width = max([8, *map(len, shown)])
    has_conll = all(m in names for m in ("muc", "bcub", "ceafe"))
    head = f"{'document':<{width}}" + "".join(f"{m:>12}" for m in names) + (f"{'conll':>9}" if has_conll else "")
    lines = ["", "F1 per document", head]
    for d, name in zip(docs, shown):
        conll = d.conll_f1
        lines.append(
            f"{name:<{width}}"
            + "".join(f"{_pct(d[m].f1) if d[m].counted else 'n/a':>12}" for m in names)
            + (f"{_pct(conll) if conll is not None else 'n/a':>9}" if has_conll else "")
        )
    return "\n".join(lines) + "\n"


def _version() -> str:
    from ._version import __version__

    return __version__


def _stats_options(p: Any, n_default: int, *, average: bool = True) -> None:
    if average:
        p.add_argument("--average", choices=("micro", "macro"), default="micro",
                       help="corpus average (default micro)")
    p.add_argument("--seed", type=int, default=0, help="random seed of the resampling (default 0)")
    p.add_argument("--confidence", type=float, default=0.95, help="interval coverage (default 0.95)")
    p.add_argument("--n", "--n-boot", dest="n", type=int, default=n_default, help=f"resamples (default {n_default})")


def _cmd_score(argv: list[str]) -> int:
    if len(argv) == 2 and not any(a.startswith("-") for a in argv):
        # `score KEY RESPONSE` without options, parsed without argparse (and the re, gettext and locale
        # modules it imports): the table of the engine's defaults.
        return _score_plain_table(_Args(key=argv[0], response=argv[1], average="micro", **ENGINE_DEFAULTS), None)
    parser = _parser("corefscore score", "Score a response file against a key file with every metric.")
    parser.add_argument("key", nargs="?")
    parser.add_argument("response", nargs="?")
    parser.add_argument(
        "--datasets", nargs="+", metavar="KEY RESPONSE",
        help="score several datasets, given as key and response files in turn, instead of KEY RESPONSE: "
             "one table each and their macro average (the mean of per-dataset scores, as CRAC ranks)",
    )
    _metrics_option(parser)
    parser.add_argument("--per-doc", action="store_true", help="also report every document")
    parser.add_argument("--ci", action="store_true", help="bootstrap confidence intervals next to the scores")
    _stats_options(parser, 1000)
    _engine_options(parser)
    args = _parse(parser, argv)
    metrics = _metric_list(args.metrics)
    if args.datasets is not None:
        return _score_datasets(args, metrics)
    if args.key is None or args.response is None:
        raise UsageError("give KEY RESPONSE, or --datasets KEY1 RESPONSE1 [KEY2 RESPONSE2 ...]")
    if not (args.ci or args.json or args.per_doc or args.average != "micro"):
        return _score_plain_table(args, metrics)
    if args.json and not args.ci and args.average == "micro":
        out = _plain_scores_json(args.key, args.response, _score_kwargs(args, metrics), args.per_doc)
        _warn(out["warnings"])
        _dump_json(out)
        return 0
    if not args.ci:
        _no_blas_threads()
    result = _score_files(args.key, args.response, **_score_kwargs(args, metrics))
    _warn([*result.warnings, *result.na_warnings()])
    intervals = macro = None
    if args.ci or args.average == "macro":
        from . import stats

        if args.ci:
            if result.n_documents == 0:
                raise UsageError("--ci needs at least one document")
            intervals = stats.bootstrap_counts(
                result.counts_matrix,
                result.columns,
                result.metrics,
                n=args.n,
                confidence=args.confidence,
                seed=args.seed,
                average=args.average,
                blanc_rule=result.blanc_rule,
            )
        if args.average == "macro":
            macro = stats.macro_scores(
                result.counts_matrix, result.columns, result.metrics, blanc_rule=result.blanc_rule
            )
    if args.json:
        out = result.to_dict(per_doc=args.per_doc)
        if macro is not None:
            out["macro"] = macro
        if intervals is not None:
            out["intervals"] = intervals.to_dict()
        _dump_json(out)
        return 0
    text = _score_table(result, args, intervals, macro)
    if args.per_doc:
        text += _per_doc_table(result)
    sys.stdout.write(text)
    return 0


def _score_plain_table(args: Any, metrics: Any) -> int:
    """Print the micro-averaged table of ``corefscore score``, computed without NumPy."""
    result = _plain_score_files(args.key, args.response, _score_kwargs(args, metrics))
    _warn([*result.warnings, *result.na_warnings()])
    sys.stdout.write(_score_table(result, args, None, None))
    return 0


def _dataset_names(keys: list[str], responses: list[str]) -> list[str]:
    """A distinct name per dataset (position): its key file's stem, else "KEY vs RESPONSE" stems, else numbered.

    Datasets are positions on the command line, never paths: one key file
    given for two systems is two datasets.
    """
    from pathlib import Path

    names = [Path(k).stem for k in keys]
    if len(set(names)) < len(names):
        names = [f"{Path(k).stem} vs {Path(r).stem}" for k, r in zip(keys, responses)]
    if len(set(names)) < len(names):
        names = [f"{n} ({i + 1})" for i, n in enumerate(names)]
    return names


def _score_datasets(args: Any, metrics: Any) -> int:
    """``corefscore score --datasets K1 R1 K2 R2 ...``: each dataset's scores and their macro average."""
    files = args.datasets
    if args.key is not None:
        raise UsageError("give either KEY RESPONSE or --datasets, not both")
    if len(files) % 2:
        raise UsageError(f"--datasets takes key and response files in pairs; got {len(files)} files")
    if args.ci or args.average != "micro" or args.per_doc:
        raise UsageError("--datasets does not combine with --ci, --average or --per-doc")
    if args.json:
        _no_blas_threads()
    keys, responses = files[0::2], files[1::2]
    results = {}
    for name, key, response in zip(_dataset_names(keys, responses), keys, responses):
        kwargs = _score_kwargs(args, metrics)
        if args.json:
            results[name] = _score_files(key, response, **kwargs)
        else:
            results[name] = _plain_score_files(key, response, kwargs)
        _warn([f"{name}: {w}" for w in (*results[name].warnings, *results[name].na_warnings())])
    shared = [m for m in next(iter(results.values())).metrics if all(m in r.metrics for r in results.values())]
    macro: dict[str, Any] = {"metrics": {}, "n_datasets": len(results)}
    for m in shared:
        # The mean over the datasets where the metric had something to count: n/a where none had.
        scored = [r[m] for r in results.values() if r[m].counted]
        macro["metrics"][m] = {q: sum(getattr(s, q) for s in scored) / len(scored) if scored else None
                               for q in ("recall", "precision", "f1")}
    conll = [r.conll_f1 for r in results.values()]
    macro["conll_f1"] = None if any(c is None for c in conll) else sum(conll) / len(conll)
    if args.json:
        _dump_json({"datasets": {n: r.to_dict() for n, r in results.items()}, "macro": macro})
        return 0
    out = []
    for name, r in results.items():
        out.append(f"dataset {name}\n" + _score_table(r, args, None, None))
    lines = [f"macro average over {len(results)} datasets (mean of per-dataset scores)", "",
             f"{'metric':<13}" + "".join(f"{h:>10}" for h in ("recall", "precision", "F1"))]
    for m, s in macro["metrics"].items():
        lines.append(f"{m:<13}" + "".join((_pct(s[q]) if s[q] is not None else "n/a").rjust(10)
                                          for q in ("recall", "precision", "f1")))
    if macro["conll_f1"] is not None:
        lines.append(f"{'CoNLL F1':<13}{'':>20}{_pct(macro['conll_f1']):>10}")
    out.append("\n".join(lines) + "\n")
    sys.stdout.write("\n".join(out))
    return 0


# ---------------------------------------------------------------------------
# compare
# ---------------------------------------------------------------------------


def _cmd_compare(argv: list[str]) -> int:
    parser = _parser(
        "corefscore compare",
        "Compare two systems' responses on one key: both scores, the difference B - A, "
        "its bootstrap confidence interval and a paired test's p-value.",
    )
    parser.add_argument("key")
    parser.add_argument("response_a")
    parser.add_argument("response_b")
    _metrics_option(parser)
    parser.add_argument("--method", choices=("permutation", "bootstrap"), default="permutation")
    parser.add_argument("--quantity", choices=("f1", "recall", "precision"), default="f1")
    _stats_options(parser, 10000)
    _engine_options(parser)
    args = _parse(parser, argv)
    metrics = _metric_list(args.metrics)
    kwargs = _score_kwargs(args, metrics)
    ra = _score_files(args.key, args.response_a, **kwargs)
    rb = _score_files(args.key, args.response_b, **kwargs)
    _warn([f"A: {w}" for w in ra.warnings] + [f"B: {w}" for w in rb.warnings])
    if ra.n_documents == 0:
        raise UsageError(f"no document to compare in {args.key}")
    from . import stats

    cmp = stats.compare_results(
        ra,
        rb,
        method=args.method,
        n=args.n,
        seed=args.seed,
        confidence=args.confidence,
        quantity=args.quantity,
        average=args.average,
    )
    if args.json:
        out = {
            "version": _version(),
            "key": args.key,
            "response_a": args.response_a,
            "response_b": args.response_b,
            **cmp.to_dict(),
            "warnings": [f"A: {w}" for w in ra.warnings] + [f"B: {w}" for w in rb.warnings],
        }
        _dump_json(out)
        return 0
    ci = f"{100 * cmp.confidence:g}% CI"
    how = "approximate randomisation" if cmp.method == "permutation" else "paired bootstrap"
    lines = [
        f"corefscore {_version()}: key {args.key}",
        f"A: {args.response_a}",
        f"B: {args.response_b}",
        f"{cmp.n_docs} documents paired by name, {cmp.average} average, {args.quantity}; "
        f"p-value: {how}, {cmp.n} rounds, seed {cmp.seed}",
        "",
        f"{'metric':<13}{'A':>8}{'B':>8}{'B - A':>9}{ci:>20}{'p-value':>10}",
    ]
    for m in cmp.metrics:
        c = cmp[m]
        lines.append(
            f"{m:<13}{_pct(c.score_a):>8}{_pct(c.score_b):>8}{100 * c.difference:>+9.2f}"
            f"{f'[{100 * c.low:+.2f}, {100 * c.high:+.2f}]':>20}{c.p_value:>10.4f}"
        )
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _cmd_report(argv: list[str]) -> int:
    parser = _parser("corefscore report", "Write one self-contained HTML report: the CoNLL F1 and every metric's "
                     "scores with bootstrap intervals, per-document scores, error categories and a document viewer. "
                     "With two responses, B - A per metric with its interval and p-value, as `corefscore compare` "
                     "computes them with the same --method, --n, --seed and --confidence.")
    parser.add_argument("key")
    parser.add_argument("responses", nargs="+", metavar="RESPONSE", help="one or two response files")
    parser.add_argument("-o", "--output", required=True, help="the HTML file to write")
    parser.add_argument("--title", help="the page heading (default: the file names)")
    _metrics_option(parser)
    parser.add_argument("--method", choices=("permutation", "bootstrap"), default="permutation",
                        help="two responses: the p-value's test (default permutation, as compare)")
    _stats_options(parser, 1000, average=False)
    _engine_options(parser, json=False)
    args = _parse(parser, argv)
    if len(args.responses) > 2:
        raise UsageError("report takes one or two response files")
    _no_blas_threads()
    from .report import write_report

    kwargs = _score_kwargs(args, _metric_list(args.metrics))
    fmt = kwargs.pop("format")
    data = write_report(args.output, args.key, args.responses, n_bootstrap=args.n, confidence=args.confidence,
                        seed=args.seed, format=fmt, title=args.title, method=args.method, **kwargs)
    n_docs = len(data["documents"])
    sys.stdout.write(f"wrote {args.output} ({n_docs} document{'s' if n_docs != 1 else ''}, "
                     f"{' vs '.join(data['systems'])})\n")
    return 0


# ---------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------


def _usage() -> str:
    try:
        others = ", ".join(m for m in _known_metrics() if m not in REFERENCE_METRICS)
    except ImportError:
        others = "(the shared library could not be loaded)"
    return USAGE.format(others=others)


def _run(argv: list[str]) -> int:
    if not argv:
        sys.stderr.write(_usage())
        return 2
    if argv[0] in ("-h", "--help", "help"):
        sys.stdout.write(_usage())
        return 0
    if argv[0] == "--version":
        sys.stdout.write(f"corefscore {_version()} (reference format 8.01)\n")
        return 0
    if argv[0] == "score":
        return _cmd_score(argv[1:])
    if argv[0] == "compare":
        return _cmd_compare(argv[1:])
    if argv[0] == "report":
        return _cmd_report(argv[1:])
    return _dropin(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 2 bad input).

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program name (default ``sys.argv[1:]``).
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return _run(argv)
    except UsageError as exc:
        _err(str(exc))
        return 2
    except KeyboardInterrupt:  # Ctrl-C: the engine has stopped; no traceback
        sys.stderr.write("\n")
        return 130
    except BrokenPipeError:  # `corefscore ... | head`: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except FileNotFoundError as exc:
        _err(f"{exc.filename}: no such file")
        return 2
    except OSError as exc:
        _err(f"{exc.filename}: {exc.strerror}" if getattr(exc, "filename", None) else str(exc))
        return 2
    except (ValueError, TypeError) as exc:
        from ._engine import CorefScoreInputError

        _err(_input_error(exc) if isinstance(exc, CorefScoreInputError) else str(exc))
        return 2
    except ImportError as exc:
        # A missing or mismatched shared library: an installation problem, not bad input.
        _err(str(exc))
        return 1


def run() -> None:
    """The process's entry point (the installed ``corefscore`` and ``python -m corefscore``): main(), then exit.

    A process that has printed everything and has nothing left for the
    interpreter's shutdown to run exits at once after flushing its standard
    streams: tearing the interpreter down (freeing every module, a last
    garbage collection) costs about 4 ms of CPU, a tenth of the drop-in form on
    LitBank beyond its floor (bench/startup.md). Anything that shutdown would
    run keeps the ordinary exit: an ``atexit`` handler (``weakref.finalize``,
    ``logging``, ``tempfile`` and ``multiprocessing`` register one), another
    thread of ``threading``, or the report, which writes a file. ``main()``
    itself returns as before, for callers in Python.
    """
    argv = sys.argv[1:]
    status = main(argv)
    if argv[:1] != ["report"] and _nothing_at_exit():
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except OSError:  # a closed pipe: the interpreter's own exit reports it as it always did
            sys.exit(status)
        import os

        os._exit(status)
    sys.exit(status)


def _nothing_at_exit() -> bool:
    """No ``atexit`` handler and no other ``threading`` thread: the interpreter's shutdown would only free memory."""
    import atexit

    count = getattr(atexit, "_ncallbacks", None)  # CPython's; elsewhere the ordinary exit
    if count is None or count():
        return False
    threading = sys.modules.get("threading")  # not imported: no thread of its own to wait for
    return threading is None or threading.active_count() == 1


if __name__ == "__main__":
    run()
