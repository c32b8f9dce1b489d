"""Per-call overhead of the Python layer against the bare engine call (issue 10; not a test).

Times, in one process and interleaved (one batch of each case in turn, so
that the shared machine's changing load falls on every case alike):

- the bare ``cs_score_batch`` call through ctypes, every argument built
  beforehand (the floor: the engine's own work plus one ctypes call), on a
  one-cluster document and on a 50-mention document;
- ``corefscore.score(key, response)`` on the one-cluster document
  (``[[(0, 1), (3, 4)]]`` on both sides), all metrics;
- ``Scorer.update(key, response)`` on the 50-mention document (50 key
  mentions in 10 clusters, 50 response mentions in 8 clusters, all
  ``(start, end)`` tuples);
- ``score(key, response, metrics=["muc", "bcub", "ceafe"])`` on the
  one-cluster document: options given by value must cost no more than the
  default (issue 24);
- for context, ``Scorer.update`` on the one-cluster document, ``score`` on
  the 50-mention one, and ``Scorer.update`` on the 50-mention document given
  as two ``ArraySide`` of NumPy arrays (int64 spans, int64 cluster ids), the
  form a PyTorch loop's tensors take;
- with ``COVAL_PATH`` naming a checkout of coval
  (https://github.com/ns-moosavi/coval; it needs SciPy), coval's per-document
  evaluator on the same two documents: the two mention-to-cluster maps of its
  reader (``get_mention_assignments``) and one ``Evaluator.update`` and
  ``get_prf`` for each of its six metrics (mentions, muc, bcub, ceafe, ceafm,
  lea), mentions being the same ``(start, end)`` tuples. Without it those rows
  are left out, with a line saying so.

Each case is timed as ``--repeat`` batches of ``--number`` calls; a batch's
mean is one sample; the table gives the best and the median sample in
microseconds per call (wall clock), and the best thread CPU time per call
(``time.thread_time``: the engine runs on the calling thread, so this is the
call's own CPU without other processes' time slices). Targets (issue 24):
``score`` on the one-cluster document under 5 us and ``Scorer.update`` on the
50-mention document under 15 us (issue 10's were 20 and 40 us), each also
given as a ratio to the bare call on the same document; coval's evaluator at
least 5x slower than ``score`` on the one-cluster document.

Run from the repository root with the library built into the package::

    PYTHONPATH=python python bench/per_call.py [--number 200] [--repeat 200]

Side by side with another version (issue 24: "compare with main's build in the
same run"): ``--against DIR`` names a directory holding that version's
package (``DIR/corefscore`` with its library, e.g. ``git archive main python |
tar -x -C /tmp/main`` and a ``go build`` into it, then ``--against
/tmp/main/python``). The script then runs itself ``--rounds`` times for each
version, one child process each, the two versions alternating (their order
swapped every round), and prints per case the best of every round's best
and the median of the rounds' medians for each version, with their ratio.
Two Go runtimes cannot share a process, so the versions cannot interleave
within one.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import corefscore
import numpy as np
from _machine import cpu_model
from corefscore import _convert, _engine, _lib

ONE = [[(0, 1), (3, 4)]]
FIFTY_KEY = [[(5 * j + i, 5 * j + i) for i in range(5)] for j in range(10)]
FIFTY_RESPONSE = [[(7 * j + i, 7 * j + i) for i in range(7) if 7 * j + i < 50] for j in range(8)]


def array_side(clusters) -> corefscore.ArraySide:
    """One side as NumPy arrays: (n, 2) int64 spans and their cluster positions."""
    spans = np.array([m for c in clusters for m in c], dtype=np.int64)
    return corefscore.ArraySide(spans, np.array([i for i, c in enumerate(clusters) for _ in c], dtype=np.int64))


def bare_call(key, response):
    """A function making the bare engine call on one document, with its own prebuilt ctypes arguments.

    The arrays are those the package would pass (packed span ids, cluster
    positions, the default options with ``span_mentions``); nothing is shared
    with the package's per-thread scratch objects.
    """
    doc = _convert.convert(key, response, "0")
    sides = []
    keep = []
    for side in (doc.key, doc.response):
        ids, clusters = np.asarray(side[0], np.int64), np.asarray(side[1], np.int64)
        offsets = np.array([0, len(ids)], np.int64)
        keep += [ids, clusters, offsets]
        sides.append(_lib.CsSide(offsets.ctypes.data, ids.ctypes.data, clusters.ctypes.data, None, len(ids)))
    cdll = _lib.lib()
    ncol = len(_lib.columns())
    counts = np.zeros((1, ncol))
    dups, warns = (_lib.CsDuplicate * 64)(), (_lib.CsWarning * 8)()
    report, err = _lib.CsReport(), _lib.CsError()
    handle = _engine.options().handle(False, True)
    # Pointers as the c_void_p objects cs_score_batch's argtypes take, as the package passes them (_lib._declare).
    ptr = [ctypes.c_void_p(ctypes.addressof(x)) for x in (sides[0], sides[1], dups, warns, report, err)]
    args = (ctypes.c_int64(1), ptr[0], ptr[1], None, ctypes.c_int64(handle), None,
            ctypes.c_void_p(counts.ctypes.data), ctypes.c_int64(ncol), ptr[2], ctypes.c_int64(len(dups)), ptr[3],
            ctypes.c_int64(len(warns)), ptr[4], ptr[5])
    fn = cdll.cs_score_batch
    status = fn(*args)
    if status != _lib.CS_OK:
        raise RuntimeError(f"bare call failed: {err.message.decode()}")
    want = corefscore.score(key, response).counts_matrix
    if not np.array_equal(counts, want):
        raise RuntimeError("the bare call's counts differ from score()'s")

    def call(fn=fn, args=args, keep=(keep, sides, counts, dups, warns, report, err)):
        return fn(*args)

    return call


def coval_case(key, response):
    """coval's per-document evaluation of one document (see the module), or None without COVAL_PATH."""
    path = os.environ.get("COVAL_PATH")
    if not path:
        return None
    sys.path.insert(0, path)
    from coval.conll.reader import get_mention_assignments
    from coval.eval import evaluator as ev

    metrics = (ev.mentions, ev.muc, ev.b_cubed, ev.ceafe, ev.ceafm, ev.lea)
    key_clusters = [tuple(c) for c in key]
    response_clusters = [tuple(c) for c in response]

    def call():
        info = (key_clusters, response_clusters, get_mention_assignments(key_clusters, response_clusters),
                get_mention_assignments(response_clusters, key_clusters))
        out = []
        for metric in metrics:
            e = ev.Evaluator(metric)
            e.update(info)
            out.append(e.get_prf())
        return out

    return call


def _git_commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "python", "capi", "gocore"], capture_output=True,
                               text=True, check=True).stdout.strip()
        return out.stdout.strip() + (" (with uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=200, help="calls per timed batch")
    parser.add_argument("--repeat", type=int, default=200, help="timed batches per case (interleaved)")
    parser.add_argument("--against", metavar="DIR", help="another version's package directory: side by side")
    parser.add_argument("--rounds", type=int, default=3, help="child runs per version with --against")
    parser.add_argument("--json", action="store_true", help="(a child of --against) print the figures as JSON")
    args = parser.parse_args()
    if args.against:
        side_by_side(args)
        return

    print("command:", " ".join([os.path.basename(sys.executable), *sys.argv]))
    print(f"machine: {platform.machine()}, {cpu_model()!r}, nproc {os.cpu_count()}, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (shared with other jobs)")
    print(f"python {platform.python_version()}, numpy {np.__version__}, corefscore {corefscore.__version__}, "
          f"commit {_git_commit()}, library {_lib.library_path()}")

    scorer_fifty, scorer_one, scorer_arrays = corefscore.Scorer(), corefscore.Scorer(), corefscore.Scorer()
    arrays = array_side(FIFTY_KEY), array_side(FIFTY_RESPONSE)
    cases = {
        "bare cs_score_batch, one-cluster document": bare_call(ONE, ONE),
        "score(one-cluster document)": lambda: corefscore.score(ONE, ONE),
        "score(one-cluster document).conll_f1": lambda: corefscore.score(ONE, ONE).conll_f1,
        "score(one-cluster document, metrics=muc,bcub,ceafe)":
            lambda: corefscore.score(ONE, ONE, metrics=["muc", "bcub", "ceafe"]),
        "bare cs_score_batch, 50-mention document": bare_call(FIFTY_KEY, FIFTY_RESPONSE),
        "Scorer.update(50-mention document)": lambda: scorer_fifty.update(FIFTY_KEY, FIFTY_RESPONSE),
        "Scorer.update(one-cluster document)": lambda: scorer_one.update(ONE, ONE),
        "score(50-mention document)": lambda: corefscore.score(FIFTY_KEY, FIFTY_RESPONSE),
        "Scorer.update(50-mention document as ArraySide)": lambda: scorer_arrays.update(*arrays),
    }
    coval = {"coval evaluator, one-cluster document": coval_case(ONE, ONE),
             "coval evaluator, 50-mention document": coval_case(FIFTY_KEY, FIFTY_RESPONSE)}
    if all(fn is not None for fn in coval.values()):
        cases.update(coval)
    else:
        print("coval: left out (set COVAL_PATH to a checkout of https://github.com/ns-moosavi/coval, with SciPy)")
    wall: dict[str, list[float]] = {name: [] for name in cases}
    cpu: dict[str, list[float]] = {name: [] for name in cases}
    for fn in cases.values():  # warm-up: imports, first allocations, options handles
        for _ in range(args.number):
            fn()
    clock, cpu_clock = time.perf_counter, time.thread_time
    for _ in range(args.repeat):
        for name, fn in cases.items():
            scorer_fifty.reset()  # untimed: the Scorers' rows would otherwise grow for the whole run
            scorer_one.reset()
            scorer_arrays.reset()
            c0, t0 = cpu_clock(), clock()
            for _ in range(args.number):
                fn()
            t1, c1 = clock(), cpu_clock()
            wall[name].append((t1 - t0) / args.number)
            cpu[name].append((c1 - c0) / args.number)

    best = {name: min(v) * 1e6 for name, v in wall.items()}
    median = {name: statistics.median(v) * 1e6 for name, v in wall.items()}
    best_cpu = {name: min(v) * 1e6 for name, v in cpu.items()}
    bare = {"one": "bare cs_score_batch, one-cluster document", "fifty": "bare cs_score_batch, 50-mention document"}
    targets = {"score(one-cluster document)": (5.0, bare["one"]),
               "score(one-cluster document).conll_f1": (None, bare["one"]),
               "score(one-cluster document, metrics=muc,bcub,ceafe)": (None, bare["one"]),
               "Scorer.update(50-mention document)": (15.0, bare["fifty"]),
               "Scorer.update(one-cluster document)": (None, bare["one"]),
               "score(50-mention document)": (None, bare["fifty"]),
               "Scorer.update(50-mention document as ArraySide)": (None, bare["fifty"])}
    print(f"\n{args.repeat} interleaved batches of {args.number} calls per case\n")
    print("| case | best (us) | median (us) | best thread CPU (us) | best / bare best | median / bare median "
          "| target |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name in cases:
        target, ref = targets.get(name, (None, None))
        ratios = ("", "") if ref is None else (f"{best[name] / best[ref]:.2f}", f"{median[name] / median[ref]:.2f}")
        verdict = ""
        if target is not None:
            verdict = (f"< {target:.0f} us: best {'met' if best[name] < target else 'NOT met'}, "
                       f"median {'met' if median[name] < target else 'NOT met'}")
        print(f"| {name} | {best[name]:.1f} | {median[name]:.1f} | {best_cpu[name]:.1f} | {ratios[0]} | {ratios[1]} "
              f"| {verdict} |")
    for name, (_, ref) in targets.items():
        print(f"overhead of {name} over the bare call: best {best[name] - best[ref]:.1f} us, "
              f"median {median[name] - median[ref]:.1f} us")
    if "coval evaluator, one-cluster document" in cases:
        for doc, ours in (("one-cluster", "score(one-cluster document)"),
                          ("50-mention", "score(50-mention document)"),
                          ("50-mention", "Scorer.update(50-mention document)")):
            theirs = f"coval evaluator, {doc} document"
            print(f"coval / {ours}: best {best[theirs] / best[ours]:.1f}x, "
                  f"median {median[theirs] / median[ours]:.1f}x, best thread CPU "
                  f"{best_cpu[theirs] / best_cpu[ours]:.1f}x (target at one cluster: >= 5x)")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        print("JSON", json.dumps({"best": best, "median": median, "best_cpu": best_cpu}))


def side_by_side(args: argparse.Namespace) -> None:
    """This version (``python``) and ``args.against``, each run ``args.rounds`` times in alternation."""
    versions = {"this": os.path.abspath("python"), "other": os.path.abspath(args.against)}
    print("command:", " ".join([os.path.basename(sys.executable), *sys.argv]))
    print(f"this: {versions['this']} (commit {_git_commit()}); other: {versions['other']}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    runs: dict[str, list[dict]] = {"this": [], "other": []}
    for r in range(args.rounds):
        for label in (("this", "other") if r % 2 == 0 else ("other", "this")):
            path = os.pathsep.join([versions[label], *filter(None, [os.environ.get("PYTHONPATH")])])
            out = subprocess.run([sys.executable, __file__, "--number", str(args.number), "--repeat",
                                  str(args.repeat), "--json"], env=dict(os.environ, PYTHONPATH=path),
                                 capture_output=True, text=True, check=True).stdout
            runs[label].append(json.loads(out.split("JSON ", 1)[1]))
    cases = [c for c in runs["this"][0]["best"] if c in runs["other"][0]["best"]]
    print(f"\n{args.rounds} rounds per version, each {args.repeat} interleaved batches of {args.number} calls "
          "per case; best = best of the rounds' best samples, median = median of their medians (us per call)\n")
    print("| case | this best | other best | this / other (best) | this median | other median "
          "| this / other (median) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for case in cases:
        best = {v: min(run["best"][case] for run in runs[v]) for v in runs}
        med = {v: statistics.median(run["median"][case] for run in runs[v]) for v in runs}
        print(f"| {case} | {best['this']:.1f} | {best['other']:.1f} | {best['this'] / best['other']:.2f} "
              f"| {med['this']:.1f} | {med['other']:.1f} | {med['this'] / med['other']:.2f} |")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
