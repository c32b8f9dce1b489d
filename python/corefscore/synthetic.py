"""Seeded synthetic corpora: a key that looks like annotation and a perturbed response.

The CoNLL-2012 English test set (OntoNotes, licensed by the LDC) cannot be
shipped, so benchmarks and statistical tests use a synthetic stand-in of the
same size: 348 documents, about 19,700 key mentions in about 4,500 entities,
no singletons (OntoNotes does not annotate them).

Everything is drawn from ``numpy.random.default_rng(seed)``, so the same seed
gives the same corpus on every machine and NumPy version that keeps the
generator's stream (NumPy guarantees this for ``PCG64``).

Key documents
    Document sizes are log-normal around the mean, rescaled to the requested
    total. In a document of ``n`` mentions there are ``round(n /
    mentions_per_entity)`` entities; each gets two mentions, the rest are
    attached with Zipf-like weights (a few long chains, many short ones).
    Mentions are spans ``(start, end)`` at distinct random starts with a
    length of 1 to 5 tokens.

Responses (:func:`perturb`)
    A system response derived from a key: about ``drop`` of the mentions are
    removed, ``add`` spurious mentions are added (half attached to an
    existing cluster, half as new two-mention clusters), ``shift`` of the
    mentions get their end moved by one token (so they no longer match),
    ``move`` are moved to another cluster, and ``split`` / ``merge`` of the
    clusters are split in two or merged into another.

Examples
--------
>>> from corefscore.synthetic import synthetic_corpus
>>> corpus = synthetic_corpus(seed=0)
>>> len(corpus.key), corpus.n_key_mentions
(348, 19700)
>>> r = corpus.score(metrics=["muc", "bcub", "ceafe"])
>>> 0.5 < r.conll_f1 < 1.0
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._convert import ArraySide

#: Size of the CoNLL-2012 English test set.
CONLL2012_TEST = {"n_docs": 348, "n_mentions": 19700, "n_entities": 4500}


def _doc_sizes(rng: np.random.Generator, n_docs: int, total: int) -> np.ndarray:
    """Log-normal document sizes (at least 2 mentions) summing to ``total``."""
    raw = rng.lognormal(mean=0.0, sigma=0.6, size=n_docs)
    sizes = np.maximum(2, np.floor(raw / raw.sum() * total)).astype(np.int64)
    diff = total - int(sizes.sum())
    order = rng.permutation(n_docs)
    i = 0
    while diff != 0:  # spread the rounding error one mention at a time
        d = order[i % n_docs]
        if diff > 0:
            sizes[d] += 1
            diff -= 1
        elif sizes[d] > 2:
            sizes[d] -= 1
            diff += 1
        i += 1
    return sizes


def make_key(rng: np.random.Generator, n_mentions: int, n_entities: int) -> ArraySide:
    """One key document: ``n_mentions`` spans in ``n_entities`` clusters of two or more."""
    n_entities = int(max(1, min(n_entities, n_mentions // 2)))
    clusters = np.empty(n_mentions, dtype=np.int64)
    base = 2 * n_entities
    clusters[:base] = np.repeat(np.arange(n_entities), 2)[:base]
    if n_mentions > base:
        weights = 1.0 / np.arange(1, n_entities + 1) ** 0.9
        clusters[base:] = rng.choice(n_entities, size=n_mentions - base, p=weights / weights.sum())
    if n_mentions < base:  # odd sizes: fewer than two per entity for the last one
        clusters = clusters[:n_mentions]
    clusters = clusters[rng.permutation(n_mentions)]
    starts = np.sort(rng.choice(n_mentions * 12, size=n_mentions, replace=False)).astype(np.int64)
    ends = starts + rng.integers(0, 5, size=n_mentions)
    return ArraySide(np.column_stack([starts, ends]), clusters)


def perturb(
    rng: np.random.Generator,
    key: ArraySide,
    *,
    drop: float = 0.08,
    add: float = 0.08,
    shift: float = 0.03,
    move: float = 0.05,
    split: float = 0.10,
    merge: float = 0.10,
) -> ArraySide:
    """A seeded system response made from a key document given as span arrays."""
    spans = np.asarray(key.mentions, dtype=np.int64).copy()
    clusters = np.asarray(key.clusters, dtype=np.int64).copy()
    n = spans.shape[0]
    n_clusters = int(clusters.max()) + 1 if n else 0
    # Split: a random half of the mentions of a chosen cluster get a new id.
    if n_clusters:
        chosen = np.flatnonzero(rng.random(n_clusters) < split)
        new_ids = n_clusters + np.arange(chosen.size)
        remap = np.full(n_clusters, -1, dtype=np.int64)
        remap[chosen] = new_ids
        target = remap[clusters]
        flip = (target >= 0) & (rng.random(n) < 0.5)
        clusters = np.where(flip, target, clusters)
        n_clusters += chosen.size
        # Merge: a chosen cluster takes the id of another random cluster.
        into = np.arange(n_clusters)
        chosen = rng.random(n_clusters) < merge
        into[chosen] = rng.integers(0, n_clusters, size=int(chosen.sum()))
        clusters = into[clusters]
        # Move single mentions to another random cluster.
        moved = rng.random(n) < move
        clusters[moved] = rng.integers(0, n_clusters, size=int(moved.sum()))
    # Shift an end by one token: the mention no longer matches the key.
    shifted = rng.random(n) < shift
    spans[shifted, 1] += 1
    # Drop mentions.
    keep = rng.random(n) >= drop
    spans, clusters = spans[keep], clusters[keep]
    # Add spurious mentions past the last token: half join a cluster, half pair up.
    n_add = int(rng.binomial(n, add)) if n else 0
    if n_add:
        last = int(spans[:, 1].max()) + 1 if spans.size else 0
        starts = last + 3 * np.arange(n_add) + rng.integers(0, 2, size=n_add)
        extra = np.column_stack([starts, starts + rng.integers(0, 3, size=n_add)])
        top = int(clusters.max()) + 1 if clusters.size else 0
        join = rng.random(n_add) < 0.5
        extra_clusters = np.where(join, rng.integers(0, max(top, 1), size=n_add), top + np.arange(n_add) // 2)
        spans = np.concatenate([spans, extra])
        clusters = np.concatenate([clusters, extra_clusters])
    order = rng.permutation(spans.shape[0])
    return ArraySide(spans[order], clusters[order])


@dataclass
class SyntheticCorpus:
    """A synthetic key corpus and its perturbed response, as :class:`ArraySide` documents."""

    key: list[ArraySide]
    response: list[ArraySide]
    names: list[str]
    seed: int
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def n_key_mentions(self) -> int:
        """Mentions in the key, all documents."""
        return int(sum(np.asarray(k.clusters).shape[0] for k in self.key))

    @property
    def n_key_entities(self) -> int:
        """Clusters in the key, all documents."""
        return int(sum(np.unique(np.asarray(k.clusters)).size for k in self.key))

    def as_lists(self) -> tuple[list[list[list[tuple[int, int]]]], list[list[list[tuple[int, int]]]]]:
        """The corpus as lists of clusters of ``(start, end)`` tuples (key, response)."""
        return [_to_lists(k) for k in self.key], [_to_lists(r) for r in self.response]

    def score(self, **options: Any) -> Any:
        """Score the response against the key with :func:`corefscore.score_corpus`."""
        from ._api import score_corpus

        return score_corpus(self.key, self.response, names=self.names, **options)


def _to_lists(side: ArraySide) -> list[list[tuple[int, int]]]:
    spans = np.asarray(side.mentions)
    clusters = np.asarray(side.clusters)
    out: dict[int, list[tuple[int, int]]] = {}
    for (s, e), c in zip(spans.tolist(), clusters.tolist()):
        out.setdefault(c, []).append((s, e))
    return list(out.values())


def synthetic_corpus(
    n_docs: int = CONLL2012_TEST["n_docs"],
    n_mentions: int = CONLL2012_TEST["n_mentions"],
    n_entities: int = CONLL2012_TEST["n_entities"],
    *,
    seed: int = 0,
    **perturbation: float,
) -> SyntheticCorpus:
    """A seeded synthetic corpus (CoNLL-2012-test-sized by default) and a perturbed response.

    Parameters
    ----------
    n_docs, n_mentions, n_entities : int
        Corpus size; entities are spread over documents in proportion to
        their mentions.
    seed : int
        Seed of ``numpy.random.default_rng``; the same seed gives the same corpus.
    **perturbation : float
        Rates passed to :func:`perturb` (``drop``, ``add``, ``shift``,
        ``move``, ``split``, ``merge``).

    Returns
    -------
    SyntheticCorpus
    """
    if n_docs < 1 or n_mentions < 2 * n_docs or n_entities < 1:
        raise ValueError(
            "`n_docs`, `n_mentions` and `n_entities` must allow two mentions per document and one entity; "
            f"got {n_docs}, {n_mentions}, {n_entities} instead."
        )
    rng = np.random.default_rng(seed)
    sizes = _doc_sizes(rng, n_docs, n_mentions)
    per_entity = n_mentions / n_entities
    keys, responses = [], []
    for size in sizes.tolist():
        key = make_key(rng, size, round(size / per_entity))
        keys.append(key)
        responses.append(perturb(rng, key, **perturbation))
    names = [f"synthetic_{i:04d}" for i in range(n_docs)]
    return SyntheticCorpus(keys, responses, names, seed, dict(perturbation))
