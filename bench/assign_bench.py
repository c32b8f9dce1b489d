"""CEAF_e alignment: corefscore's Go solver against SciPy's sparse solver, on the same graphs.

Shapes (one document each, built by gocore's BenchmarkAssign in gocore/assignbench_test.go):
random partitions of n mentions into n/10 clusters per side, every mention on both sides
(random-100k, random-200k, random-1M), and the realistic 1M-mention synthetic document of
bench/engine.md (synthetic-1M, typed).

For each shape the script
  1. runs ``go test -bench BenchmarkAssign/<shape>/`` (``count`` times), which times the solver
     alone (assign.MaxWeight on the CEAF_e edges) and whole scorings (ceafe, lceafe, the classic
     metrics, every metric), and writes the graph and the solver's optimal total;
  2. solves the same graph with ``scipy.sparse.csgraph.min_weight_full_bipartite_matching``
     (LAPJVsp) in a child process with a time limit, after the standard reduction of a
     maximum-weight matching to a full one: each left vertex gets a private dummy column, every
     weight is shifted by +1 (so every full matching has the same number of edges and the
     argmax is unchanged, and no weight is an implicit zero);
  3. checks that both totals agree and prints medians (and, for corefscore, the minimum of the
     runs: the least disturbed by other load) side by side with the ratio of the medians;
  4. measures peak RSS and user CPU time of one scoring of each 1M shape (``ceafe`` on the random
     partition, every metric on the synthetic document) with /usr/bin/time -v.

Run from the repository root, with SciPy in a venv (never the system python):

    /work/venvs/issue14/bin/python bench/assign_bench.py [--count 3] [--scipy-timeout 600]
        [--shapes random-100k,random-200k,random-1M,synthetic-1M]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

from _machine import cpu_model

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHAPES = ["random-100k", "random-200k", "random-1M", "synthetic-1M"]
LINE = re.compile(r"^BenchmarkAssign/([^/]+)/(\S+?)-\d+\s+\d+\s+(\d+) ns/op")


def load_graph(path: str):
    """The graph written by gocore's dumpAssignGraph."""
    import numpy as np

    with open(path, "rb") as f:
        n_left, n_right, n_edges = np.frombuffer(f.read(12), dtype="<i4")
        left = np.frombuffer(f.read(4 * n_edges), dtype="<i4")
        right = np.frombuffer(f.read(4 * n_edges), dtype="<i4")
        weight = np.frombuffer(f.read(8 * n_edges), dtype="<f8")
    return int(n_left), int(n_right), left, right, weight


def scipy_solve(path: str, repeat: int) -> dict:
    """Times SciPy on the graph at path; returns the times and the optimal total."""
    import numpy as np
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching

    n_left, n_right, left, right, weight = load_graph(path)
    rows = np.concatenate([left, np.arange(n_left, dtype=np.int32)])
    cols = np.concatenate([right, n_right + np.arange(n_left, dtype=np.int32)])
    data = np.concatenate([weight + 1.0, np.ones(n_left)])
    times, total = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        m = csr_matrix((data, (rows, cols)), shape=(n_left, n_right + n_left))
        row_ind, col_ind = min_weight_full_bipartite_matching(m, maximize=True)
        times.append(time.perf_counter() - t0)
        real = col_ind < n_right
        lookup = dict(zip(zip(left.tolist(), right.tolist()), weight.tolist()))
        total = sum(lookup[(int(r), int(c))] for r, c in zip(row_ind[real], col_ind[real]))
    return {"times": times, "total": total}


def scipy_child(path: str, repeat: int, timeout: float) -> dict | None:
    """scipy_solve in a child process; None when it runs past timeout seconds."""
    cmd = [sys.executable, __file__, "--scipy-one", path, "--count", str(repeat)]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(out.stdout)


def go_bench(shapes: list[str], count: int, dump: str) -> dict:
    """Runs BenchmarkAssign on the shapes; returns {(shape, case): [seconds, ...]}."""
    pattern = "^BenchmarkAssign$/^(" + "|".join(re.escape(s) for s in shapes) + ")$/"
    cmd = ["go", "test", "-run", "^$", "-bench", pattern, "-benchtime", "1x", "-count", str(count), "./gocore/"]
    print("$ COREFSCORE_ASSIGN_DUMP=" + dump, " ".join(cmd), flush=True)
    env = dict(os.environ, COREFSCORE_ASSIGN_DUMP=dump)
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout
    times: dict = {}
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            times.setdefault((m.group(1), m.group(2)), []).append(int(m.group(3)) / 1e9)
    return times


def peak_rss(shape: str, case: str) -> tuple[float, float] | None:
    """Peak RSS in MB and user CPU seconds of the gocore test binary running shape's case once
    (document building included)."""
    binary = os.path.join(tempfile.gettempdir(), "corefscore_assign_bench.test")
    subprocess.run(["go", "test", "-c", "-o", binary, "./gocore/"], cwd=ROOT, check=True)
    cmd = ["/usr/bin/time", "-v", binary, "-test.run", "^$", "-test.benchtime", "1x",
           "-test.bench", f"^BenchmarkAssign$/^{shape}$/^{case}$"]
    err = subprocess.run(cmd, cwd=os.path.join(ROOT, "gocore"), capture_output=True, text=True).stderr
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err)
    user = re.search(r"User time \(seconds\): ([\d.]+)", err)
    return (int(rss.group(1)) / 1024, float(user.group(1))) if rss and user else None


def fmt(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=3, help="runs per measurement (medians are reported)")
    ap.add_argument("--scipy-timeout", type=float, default=600, help="seconds before SciPy is stopped, per shape")
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--no-rss", action="store_true", help="skip the peak-RSS runs")
    ap.add_argument("--scipy-one", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.scipy_one:
        print(json.dumps(scipy_solve(args.scipy_one, args.count)))
        return
    shapes = args.shapes.split(",")

    import scipy

    print("command:", " ".join([os.path.basename(sys.executable), *sys.argv]))
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start "
          "(shared with other sessions: timings are noisy, medians reported)")
    go_version = subprocess.run(["go", "version"], capture_output=True, text=True).stdout.strip()
    print(f"{go_version}; Python {platform.python_version()}, SciPy {scipy.__version__}")
    with tempfile.TemporaryDirectory() as dump:
        go = go_bench(shapes, args.count, dump)
        print()
        print("corefscore columns: median (min) of the runs")
        print("| shape | edges | corefscore solver | SciPy (same graph) | ratio | corefscore ceafe | lceafe "
              "| all classic | typed-all | totals agree |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for shape in shapes:
            with open(os.path.join(dump, shape + ".json"), encoding="utf-8") as f:
                meta = json.load(f)
            med = {case: statistics.median(ts) for (s, case), ts in go.items() if s == shape}
            low = {case: min(ts) for (s, case), ts in go.items() if s == shape}
            both = {case: f"{fmt(med[case])} ({fmt(low[case])})" for case in med}

            # SciPy is slow: one timed run per shape past 100k edges.
            repeat = args.count if meta["edges"] <= 150_000 else 1
            sp = scipy_child(os.path.join(dump, shape + ".bin"), repeat, args.scipy_timeout)
            if sp is None:
                sp_txt, ratio, agree = f"> {args.scipy_timeout:.0f} s (stopped)", "-", "-"
            else:
                sp_med = statistics.median(sp["times"])
                sp_txt = fmt(sp_med)
                ratio = f"{sp_med / med['solver']:.0f}x"
                agree = "yes" if abs(sp["total"] - meta["total"]) <= 1e-9 * max(1.0, meta["total"]) else (
                    f"NO ({sp['total']!r} vs {meta['total']!r})")
            print(f"| {shape} | {meta['edges']:,} | {both.get('solver', '-')} | {sp_txt} | {ratio} "
                  f"| {both.get('ceafe', '-')} | {both.get('lceafe', '-')} | {both.get('all', '-')} "
                  f"| {both.get('typed-all', '-')} | {agree} |", flush=True)
    if not args.no_rss:
        print()
        for shape in shapes:
            if shape.endswith("1M"):
                case = "typed-all" if shape.startswith("synthetic") else "ceafe"
                got = peak_rss(shape, case)
                print(f"{shape} {case}, one scoring in the test binary (document building included): "
                      + (f"peak RSS {got[0]:.0f} MB, user CPU {got[1]:.2f} s" if got else "not measured"))


if __name__ == "__main__":
    main()
