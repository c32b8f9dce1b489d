"""A partition is a set of sets: the counts of a document do not depend on the order of its clusters and mentions.

The same corpus is scored as Python lists (clusters and their mentions shuffled) and as CoNLL-2012 files
(clusters in order of first appearance in the text); the counts matrices must be equal bit for bit, since
the engine adds every fractional term exactly (``gocore/internal/exactsum``).
"""

from __future__ import annotations

import random

import corefscore
import numpy as np
from fixtures.perturb import write_conll

Span = tuple[int, int]


def _key_spans(rng: random.Random, n_tokens: int) -> list[Span]:
    """Non-overlapping spans of 1 to 3 tokens with gaps of 0 to 2 tokens (a file can list them all)."""
    spans, t = [], rng.randrange(3)
    while t < n_tokens:
        end = min(n_tokens - 1, t + rng.randrange(3))
        spans.append((t, end))
        t = end + 1 + rng.randrange(3)
    return spans


def _document(rng: random.Random) -> tuple[int, dict[Span, int], dict[Span, int]]:
    """A key and a response (span -> entity id): the response drops, shortens and moves some mentions."""
    n_tokens = rng.randrange(5, 120)
    spans = _key_spans(rng, n_tokens)
    n_entities = max(1, len(spans) // rng.choice([2, 3, 5]))
    key = {s: rng.randrange(n_entities) for s in spans}
    response: dict[Span, int] = {}
    for (start, end), entity in key.items():
        u = rng.random()
        if u < 0.1:
            continue  # missing from the response
        if u < 0.2 and end > start:
            start, end = start, end - 1  # a boundary error: a twinless response mention
        if rng.random() < 0.2:
            entity = rng.randrange(n_entities + 2)  # moved, sometimes to a new entity
        response[(start, end)] = entity
    return n_tokens, key, response


def _shuffled_lists(rng: random.Random, side: dict[Span, int]) -> list[list[Span]]:
    """The clusters of a side as lists, clusters and mentions in a random order."""
    clusters: dict[int, list[Span]] = {}
    for span, entity in side.items():
        clusters.setdefault(entity, []).append(span)
    out = list(clusters.values())
    rng.shuffle(out)
    for cluster in out:
        rng.shuffle(cluster)
    return out


def test_lists_and_conll_files_give_bit_identical_counts(tmp_path):
    rng = random.Random(2012)
    names = [f"doc{i:03d}" for i in range(120)]
    docs = {name: _document(rng) for name in names}
    key_path, resp_path = tmp_path / "key.conll", tmp_path / "response.conll"
    # The files number entities with fresh ids, so the lists and the files share no labels either.
    relabel = {name: rng.sample(range(1000), 200) for name in names}
    write_conll(key_path, [(n, d[0], [(s, e, relabel[n][c]) for (s, e), c in d[1].items()]) for n, d in docs.items()])
    write_conll(resp_path, [(n, d[0], [(s, e, relabel[n][c]) for (s, e), c in d[2].items()]) for n, d in docs.items()])

    from_files = corefscore.score_files(key_path, resp_path)
    # The lists carry the names the file reader gives (document and part), in the same order.
    file_name = {n: f"({n}); part 000" for n in names}
    from_lists = corefscore.score_corpus(
        {file_name[n]: _shuffled_lists(rng, d[1]) for n, d in docs.items()},
        {file_name[n]: _shuffled_lists(rng, d[2]) for n, d in docs.items()},
    )

    assert from_files.columns == from_lists.columns
    assert set(from_files.metrics) == set(from_lists.metrics) >= {"bcub", "ceafe", "lea"}
    assert from_files.doc_names == from_lists.doc_names == [file_name[n] for n in names]
    files_matrix = from_files.counts_matrix
    fractional = ~np.all(np.equal(np.floor(files_matrix), files_matrix), axis=0)
    assert any(from_files.columns[i].startswith("ceafe.") for i in np.flatnonzero(fractional)), (
        "the corpus must have fractional CEAF_e counts for the test to mean anything"
    )
    different = np.flatnonzero(np.any(files_matrix != from_lists.counts_matrix, axis=0))
    assert np.array_equal(files_matrix, from_lists.counts_matrix), [from_files.columns[i] for i in different]


def test_reordered_lists_give_bit_identical_counts():
    rng = random.Random(19)
    docs = [_document(rng) for _ in range(200)]
    sides = [(d[1], d[2]) for d in docs]
    first = corefscore.score_corpus(
        [_shuffled_lists(rng, k) for k, _ in sides], [_shuffled_lists(rng, r) for _, r in sides]
    )
    second = corefscore.score_corpus(
        [_shuffled_lists(rng, k) for k, _ in sides], [_shuffled_lists(rng, r) for _, r in sides]
    )
    assert np.array_equal(first.counts_matrix, second.counts_matrix)
