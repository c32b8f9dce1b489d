"""A small seeded generator of key/response corpora for the statistics tests.

Documents are scored by the real engine (the built shared library). The
helpers are imported by ``test_stats.py`` and ``test_plot.py``; the tests in
this file check that the generator does what the statistics tests assume.

Model of one document: a key of ``1 + Poisson(6)`` entities whose sizes are
``Geometric(0.4)`` (at least 1 mention). A system's response is the key with
errors: each key mention independently (probability ``p_error``) is dropped
(missing), moved to another key cluster, or split off as a new singleton; and
``Poisson(spurious)`` invented mentions join a random cluster or stand alone.
Errors are listed, so a second system can be "the first with a fraction of
its errors fixed" exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import corefscore
import numpy as np
import pytest

CLASSIC = ("mentions", "muc", "bcub", "bcub_entity", "ceafm", "ceafe", "blanc", "lea")


@dataclass
class Doc:
    key: list[list[int]]  # clusters of mention ids
    errors: list[tuple]  # ("drop", m) | ("move", m, cluster) | ("split", m) | ("spurious", m, cluster|-1)


def make_doc(rng: np.random.Generator, p_error: float = 0.25, spurious: float = 1.5) -> Doc:
    n_ent = 1 + rng.poisson(6)
    sizes = rng.geometric(0.4, size=n_ent)
    key, next_id = [], 0
    for s in sizes:
        key.append(list(range(next_id, next_id + s)))
        next_id += s
    return Doc(key, draw_errors(rng, key, p_error, spurious))


def draw_errors(
    rng: np.random.Generator, key: list[list[int]], p_error: float = 0.25, spurious: float = 1.5
) -> list[tuple]:
    """A system's errors on ``key`` (see the module documentation)."""
    n_ent = len(key)
    next_id = sum(len(c) for c in key)
    errors: list[tuple] = []
    for c, cluster in enumerate(key):
        for m in cluster:
            if rng.random() >= p_error:
                continue
            kind = rng.integers(3)
            if kind == 0:
                errors.append(("drop", m))
            elif kind == 1 and n_ent > 1:
                other = int(rng.integers(n_ent - 1))
                errors.append(("move", m, other + (other >= c)))
            else:
                errors.append(("split", m))
    for _ in range(rng.poisson(spurious)):
        target = int(rng.integers(-1, n_ent))
        errors.append(("spurious", next_id, target))
        next_id += 1
    return errors


def response(doc: Doc, errors: list[tuple] | None = None) -> list[list[int]]:
    """The key with ``errors`` (default: all of the document's) applied."""
    errors = doc.errors if errors is None else errors
    cluster_of = {m: c for c, cl in enumerate(doc.key) for m in cl}
    extra = len(doc.key)
    for e in errors:
        if e[0] == "drop":
            del cluster_of[e[1]]
        elif e[0] == "move":
            cluster_of[e[1]] = e[2]
        elif e[0] == "split":
            cluster_of[e[1]] = extra
            extra += 1
        else:
            if e[2] < 0:
                cluster_of[e[1]] = extra
                extra += 1
            else:
                cluster_of[e[1]] = e[2]
    clusters: dict[int, list[int]] = {}
    for m, c in cluster_of.items():
        clusters.setdefault(c, []).append(m)
    return list(clusters.values())


def fixed(doc: Doc, fraction: float) -> list[list[int]]:
    """The response with ``round(fraction * len(errors))`` errors fixed (every other first)."""
    k = round(fraction * len(doc.errors))
    order = list(range(0, len(doc.errors), 2)) + list(range(1, len(doc.errors), 2))
    fixed_idx = set(order[:k])
    return response(doc, [e for i, e in enumerate(doc.errors) if i not in fixed_idx])


def corpus(seed: int, n_docs: int, **kw) -> list[Doc]:
    rng = np.random.default_rng(seed)
    return [make_doc(rng, **kw) for _ in range(n_docs)]


def score(keys: list, responses: list, names: list[str] | None = None) -> corefscore.Result:
    """Engine result of the classic metrics through the public ``score_corpus``."""
    return corefscore.score_corpus(keys, responses, names=names, metrics=list(CLASSIC))


def engine_counts(keys: list, responses: list) -> np.ndarray:
    """Counts matrix ``[n_docs, n_columns]`` of the real engine."""
    result = score(keys, responses)
    assert not result.duplicates
    return np.asarray(result.counts_matrix)


def columns() -> list[str]:
    return list(score([[[0]]], [[[0]]]).columns)


# ----------------------------------------------------------------------------
# The generator does what the statistics tests assume.
# ----------------------------------------------------------------------------


def test_generator_is_seeded():
    a, b = corpus(3, 20), corpus(3, 20)
    assert [(d.key, d.errors) for d in a] == [(d.key, d.errors) for d in b]
    assert [d.errors for d in corpus(4, 20)] != [d.errors for d in a]


def test_no_errors_scores_perfectly():
    docs = corpus(5, 30)
    counts = engine_counts([d.key for d in docs], [response(d, []) for d in docs])
    cols = columns()
    for m in ("mentions", "muc", "bcub", "ceafm", "ceafe", "lea"):
        i = cols.index(f"{m}.recall_num")
        np.testing.assert_allclose(counts[:, i], counts[:, i + 1])
        np.testing.assert_allclose(counts[:, i + 2], counts[:, i + 3])


@pytest.mark.parametrize("fraction", [0.0, 0.5, 1.0])
def test_fixing_errors_never_hurts_mention_detection(fraction):
    docs = corpus(6, 40)
    keys = [d.key for d in docs]
    full = engine_counts(keys, [response(d) for d in docs])
    part = engine_counts(keys, [fixed(d, fraction) for d in docs])
    i = columns().index("mentions.recall_num")
    assert np.all(part[:, i] >= full[:, i])
    if fraction == 1.0:
        np.testing.assert_allclose(part[:, i], part[:, i + 1])
    if fraction == 0.0:
        np.testing.assert_array_equal(part, full)
