"""Benchmark of corefscore.stats: bootstrap intervals and paired tests on a CoNLL-2012-test-sized corpus.

Run from the repository root (after building the library or ``pip install -e .``)::

    python bench/stats_bench.py [--n 10000] [--repeat 5]

Corpus: ``fixtures.synthetic.synthetic_corpus(seed=0)`` (348 documents, 19,700
key mentions), system A its perturbed response, system B a second response of
the same keys (``perturb`` with ``default_rng(1)`` and smaller error rates).
Both are scored once with every metric that needs no mention types; the
timings are of the statistics only (the counts matrices exist already), each
the best and the median of ``--repeat`` runs after one warm-up run.

Targets (issue 6): 10,000 bootstrap resamples, all metrics, under 1 s; a
10,000-round permutation test likewise.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys

import corefscore
import numpy as np
from _machine import best_and_median, cpu_model
from corefscore import stats
from fixtures.synthetic import perturb, synthetic_corpus


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10000, help="resamples / permutation rounds")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per case")
    args = ap.parse_args(argv)

    corpus = synthetic_corpus(seed=0)
    rng = np.random.default_rng(1)
    system_b = [perturb(rng, k, drop=0.06, add=0.06, move=0.04, split=0.08, merge=0.08) for k in corpus.key]
    ra = corpus.score()
    rb = corefscore.score_corpus(corpus.key, system_b, names=corpus.names)
    cols, metrics = list(ra.columns), list(ra.metrics)
    a, b = np.asarray(ra.counts_matrix), np.asarray(rb.counts_matrix)

    print("command:", " ".join([os.path.basename(sys.executable), *sys.argv]))
    print(f"machine: {platform.machine()}, {cpu_model()}, {os.cpu_count()} CPUs, load average {os.getloadavg()}")
    print(f"python {platform.python_version()}, numpy {np.__version__}, corefscore {corefscore.__version__}")
    threads = {k: os.environ[k] for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS") if k in os.environ}
    print("BLAS threads:", threads or "library default")
    print(
        f"corpus: {a.shape[0]} documents, {corpus.n_key_mentions} key mentions, "
        f"{len(metrics)} metrics ({', '.join(metrics)}), {len(cols)} counts columns"
    )
    print(f"system A CoNLL F1 {100 * ra.conll_f1:.2f}, system B CoNLL F1 {100 * rb.conll_f1:.2f}")
    print()

    cases = {
        f"bootstrap_counts n={args.n} (micro)": lambda: stats.bootstrap_counts(a, cols, metrics, n=args.n, seed=0),
        f"bootstrap_counts n={args.n} (macro)": lambda: stats.bootstrap_counts(
            a, cols, metrics, n=args.n, seed=0, average="macro"
        ),
        f"compare_counts permutation n={args.n}": lambda: stats.compare_counts(
            a, b, cols, metrics, method="permutation", n=args.n, seed=0
        ),
        f"compare_counts bootstrap n={args.n}": lambda: stats.compare_counts(
            a, b, cols, metrics, method="bootstrap", n=args.n, seed=0
        ),
    }
    print(f"{'case':<44}{'best (s)':>10}{'median (s)':>12}  target < 1 s")
    ok = True
    for name, fn in cases.items():
        best, med = best_and_median(fn, args.repeat)
        ok &= med < 1.0
        print(f"{name:<44}{best:10.3f}{med:12.3f}  {'yes' if med < 1.0 else 'NO'}")
    print()
    print(stats.compare_counts(a, b, cols, metrics, n=args.n, seed=0))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
