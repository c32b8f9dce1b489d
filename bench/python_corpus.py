"""Benchmark of the Python API on a CoNLL-2012-test-sized synthetic corpus (not a test).

Measures, on ``fixtures.synthetic.synthetic_corpus(seed=0)`` (348 documents,
19,700 key mentions, about 4,500 entities; a seeded perturbation as the
response), every metric that needs no mention types:

- ``score_corpus`` from arrays (one ``ArraySide`` per document side);
- ``score_corpus`` from Python lists of clusters of ``(start, end)`` tuples;
- the engine call alone on the already converted arrays (to separate the
  Python conversion from the Go engine).

Each case is timed best-of and median-of repeats after a warm-up. Target:
whole corpus under 30 ms from arrays (issue 3). The per-call overhead of
``score`` and ``Scorer.update`` (issue 10), which this script timed until
2026-11-23, is ``bench/per_call.py``'s (``bench/per_call.md``).

Run from the repository root with the library built into the package::

    PYTHONPATH=python python3 bench/python_corpus.py [--repeat N] [--workers W]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import corefscore
import numpy as np
from _machine import best_and_median, cpu_model
from corefscore import _convert, _engine, _lib
from fixtures.synthetic import synthetic_corpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21, help="timed repeats per corpus case")
    parser.add_argument("--workers", type=int, default=None, help="engine worker threads (default: CPUs)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    print("command:", " ".join([os.path.basename(sys.executable), *sys.argv]))
    print(
        f"machine: {platform.machine()}, {cpu_model()!r}, nproc {os.cpu_count()}, "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(
        f"python {platform.python_version()}, numpy {np.__version__}, corefscore {corefscore.__version__}, "
        f"library {_lib.library_path()}"
    )

    t0 = time.perf_counter()
    corpus = synthetic_corpus(seed=args.seed)
    gen = time.perf_counter() - t0
    keys, responses = corpus.as_lists()
    n_resp = sum(len(np.asarray(r.clusters)) for r in corpus.response)
    print(
        f"corpus: synthetic_corpus(seed={args.seed}): {len(corpus.key)} documents, "
        f"{corpus.n_key_mentions} key mentions, {corpus.n_key_entities} key entities, "
        f"{n_resp} response mentions (generated in {gen:.2f} s)"
    )
    opts = {"workers": args.workers}
    result = corefscore.score_corpus(corpus.key, corpus.response, **opts)
    print(f"metrics: {', '.join(result.metrics)}; CoNLL F1 {100 * result.conll_f1:.2f}")

    rows = []
    best, med = best_and_median(lambda: corefscore.score_corpus(corpus.key, corpus.response, **opts), args.repeat)
    rows.append(("score_corpus from arrays (ArraySide per document)", best, med, 30e-3))
    best, med = best_and_median(lambda: corefscore.score_corpus(keys, responses, **opts), max(5, args.repeat // 3))
    rows.append(("score_corpus from Python lists of span tuples", best, med, None))
    docs = [_convert.convert(k, r, str(i)) for i, (k, r) in enumerate(zip(corpus.key, corpus.response))]
    handle = _engine.options(workers=args.workers).handle(False)
    key_csr, resp_csr = _convert.csr(docs, "key"), _convert.csr(docs, "response")
    n_mentions = len(key_csr[2]) + len(resp_csr[2])
    best, med = best_and_median(
        lambda: _lib.score(len(docs), key_csr, resp_csr, None, handle, n_mentions), args.repeat
    )
    rows.append(("engine call alone on converted arrays", best, med, None))
    best, med = best_and_median(
        lambda: [_convert.convert(k, r, "") for k, r in zip(corpus.key, corpus.response)], args.repeat
    )
    rows.append(("array conversion alone (convert per document)", best, med, None))

    print()
    print("| case | best (ms) | median (ms) | target |")
    print("|---|---:|---:|---|")
    for name, b, m, target in rows:
        verdict = "" if target is None else f"< {target * 1e3:.0f} ms: {'met' if m < target else 'NOT met'} (median)"
        print(f"| {name} | {b * 1e3:.2f} | {m * 1e3:.2f} | {verdict} |")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
