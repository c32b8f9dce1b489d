"""Dask: a distributed.LocalCluster of two worker processes scores 10,000 synthetic documents as score_corpus does.

Needs dask and distributed (``pip install corefscore[dask]``; CI installs
them); skipped with a message without them.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import corefscore
import numpy as np
import pytest

pytest.importorskip("dask", reason="dask is not installed (pip install corefscore[dask])")
pytest.importorskip("distributed", reason="distributed is not installed (pip install corefscore[dask])")

import dask.bag as db
from corefscore.dask import concat, score_bag, score_files_delayed
from distributed import Client, LocalCluster
from fixtures.synthetic import synthetic_corpus

#: 10,000 documents of about 6 mentions each, in ten seeded parts of 1,000.
PARTS = range(10)
PART = {"n_docs": 1_000, "n_mentions": 6_000, "n_entities": 1_500}
#: Bound on one distributed computation (a stuck cluster fails the test instead of hanging CI).
TIMEOUT = 180


def _part(seed):
    """One part of the corpus as (name, key, response) items; the workers make theirs (no 10,000-item graph)."""
    part = synthetic_corpus(**PART, seed=seed)
    return [(f"p{seed}_{n}", k, r) for n, k, r in zip(part.names, part.key, part.response)]


@pytest.fixture(scope="module")
def corpus():
    """The whole corpus in this process: names, key and response documents."""
    items = [item for seed in PARTS for item in _part(seed)]
    names, key, response = (list(x) for x in zip(*items))
    return SimpleNamespace(names=names, key=key, response=response,
                           score=lambda **o: corefscore.score_corpus(key, response, names=names, **o))


@pytest.fixture(scope="module")
def client():
    """Two spawned worker processes, one thread each; they import corefscore (and these tests) from here."""
    package_root = str(Path(corefscore.__file__).resolve().parent.parent)
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, str(Path(__file__).parent), old) if p)
    try:
        cluster = LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                               timeout=TIMEOUT)
    finally:
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old
    with cluster, Client(cluster, timeout=TIMEOUT) as c:
        yield c


def _bounded(fn, *args, **kwargs):
    """fn(*args, **kwargs), failing the test after TIMEOUT seconds."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn, *args, **kwargs).result(timeout=TIMEOUT)


def test_score_bag_on_two_worker_processes_equals_score_corpus(client, corpus):
    assert len(client.scheduler_info()["workers"]) == 2
    bag = db.from_sequence(PARTS, npartitions=len(PARTS)).map(_part).flatten()
    got = _bounded(score_bag, bag)
    want = corpus.score()
    assert got.n_documents == 10_000
    np.testing.assert_array_equal(got.counts_matrix, want.counts_matrix)  # row by row, in order
    np.testing.assert_array_equal(got.total_counts, want.total_counts)
    assert got.doc_names == want.doc_names
    assert got.metrics == want.metrics
    assert got.to_dict() == want.to_dict()
    # An ordinary Result: per-document work runs on it.
    assert [d.to_dict() for d in got.per_document()[:50]] == [d.to_dict() for d in want.per_document()[:50]]
    boot, boot_want = corefscore.bootstrap(got, n=50, seed=0), corefscore.bootstrap(want, n=50, seed=0)
    assert boot.n_docs == 10_000
    assert boot.table == boot_want.table


def test_score_bag_with_options_and_types(client, corpus):
    """Documents as lists of clusters with a mention -> type mapping (the 4-item form)."""
    rng = np.random.default_rng(5)
    keys, responses = [_lists(k) for k in corpus.key[:300]], [_lists(r) for r in corpus.response[:300]]
    types = [{m: int(t) for m, t in zip((m for c in k + r for m in c), rng.integers(1, 4, size=10**4))}
             for k, r in zip(keys, responses)]
    items = list(zip(corpus.names, keys, responses, types))
    options = {"metrics": ["muc", "lea", "lmuc"], "singletons": "exclude"}
    got = _bounded(score_bag, db.from_sequence(items, npartitions=5), **options)
    want = corefscore.score_corpus(keys, responses, names=corpus.names[:300], mention_types=types, **options)
    np.testing.assert_array_equal(got.counts_matrix, want.counts_matrix)
    assert got.metrics == want.metrics == ("muc", "lea", "lmuc")


def _lists(side):
    clusters: dict[int, list] = {}
    for span, c in zip(np.asarray(side.mentions).tolist(), np.asarray(side.clusters).tolist()):
        clusters.setdefault(c, []).append(tuple(span))
    return list(clusters.values())


def _jsonl(path, names, docs):
    lines = []
    for name, doc in zip(names, docs):
        spans, ids = np.asarray(doc.mentions).tolist(), np.asarray(doc.clusters).tolist()
        clusters: dict[int, list] = {}
        for span, c in zip(spans, ids):
            clusters.setdefault(c, []).append(span)
        lines.append(json.dumps({"doc_key": name, "clusters": list(clusters.values())}))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_score_files_delayed_equals_score_files(client, corpus, tmp_path):
    pairs = []
    for part in range(4):
        sl = slice(100 * part, 100 * part + 100)
        pairs.append((_jsonl(tmp_path / f"key{part}.jsonl", corpus.names[sl], corpus.key[sl]),
                      _jsonl(tmp_path / f"resp{part}.jsonl", corpus.names[sl], corpus.response[sl])))
    got = _bounded(score_files_delayed, pairs)
    want = concat([corefscore.score_files(k, r) for k, r in pairs])
    np.testing.assert_array_equal(got.counts_matrix, want.counts_matrix)
    assert got.doc_names == corpus.names[:400]
    assert got.key is None  # four key files
    # The same documents in memory: every count that is an integer identical, fractions to the last bits.
    mem = corefscore.score_corpus(corpus.key[:400], corpus.response[:400], names=corpus.names[:400])
    integral = mem.counts_matrix == np.round(mem.counts_matrix)
    np.testing.assert_array_equal(got.counts_matrix[integral], mem.counts_matrix[integral])
    np.testing.assert_allclose(got.counts_matrix, mem.counts_matrix, rtol=1e-12)


def test_concat_refuses_mixed_options(corpus):
    a = corefscore.score_corpus(corpus.key[:2], corpus.response[:2])
    b = corefscore.score_corpus(corpus.key[2:4], corpus.response[2:4], singletons="exclude")
    with pytest.raises(ValueError, match="same engine and options"):
        concat([a, b])
    with pytest.raises(ValueError, match="at least one Result"):
        concat([None])
    both = concat([a, None, a])
    assert both.n_documents == 4 and both.doc_names == ["0", "1", "0", "1"]


def test_bad_items_and_options_are_refused_before_scoring():
    with pytest.raises(ValueError):
        score_bag(db.from_sequence([("d", [[1]], [[1]])]), singletons="sometimes")
    with pytest.raises(ValueError, match=r"\(name, key, response\)"):
        score_bag(db.from_sequence([([[1]], [[1]])]), scheduler="sync")
    with pytest.raises(ValueError, match="at least one"):
        score_bag(db.from_sequence([], npartitions=1), scheduler="sync")


def test_docstring_examples():
    import doctest

    import corefscore.dask

    result = doctest.testmod(corefscore.dask, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0
