"""Python threads score concurrently (the GIL is released in the engine) with identical results."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import corefscore
import numpy as np
from fixtures.synthetic import synthetic_corpus


def test_eight_threads_equal_sequential():
    corpus = synthetic_corpus(64, 4000, 900, seed=5)
    keys, responses = corpus.as_lists()
    jobs = [(corpus.key[i::8], corpus.response[i::8]) for i in range(8)]
    jobs += [(keys[i::8], responses[i::8]) for i in range(8)]
    sequential = [corefscore.score_corpus(k, r, workers=1).counts_matrix for k, r in jobs]
    single = [corefscore.score(k[0], r[0]).counts_matrix for k, r in jobs]
    for _ in range(3):
        with ThreadPoolExecutor(max_workers=8) as pool:
            futures = [pool.submit(corefscore.score_corpus, k, r) for k, r in jobs]
            futures += [pool.submit(corefscore.score, k[0], r[0]) for k, r in jobs]
            results = [f.result().counts_matrix for f in futures]
        for want, got in zip(sequential + single, results):
            np.testing.assert_array_equal(got, want)


def test_worker_count_does_not_change_results():
    corpus = synthetic_corpus(30, 2000, 450, seed=9)
    base = corpus.score(workers=1).counts_matrix
    for workers in (2, 3, 8, None):
        np.testing.assert_array_equal(corpus.score(workers=workers).counts_matrix, base)
