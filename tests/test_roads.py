"""One road, one answer: the same documents give the same per-document counts and names on every entry point.

Seeded random corpora (empty keys, empty responses, both empty, typed and untyped documents, singletons, nested
spans) go down every road a user can take: ``score`` one document at a time, ``Scorer.update`` one at a time and
as a batch, ``score_corpus`` with a sequence and with a mapping, ``score_arrays``, ``score_labels``,
``score_files`` on CoNLL-2012 and jsonlines files the test writes, ``analyze`` and ``analyze_files``, and the
command line's ``score --json --per-doc``. Every road's per-document counts rows, the metrics it reports and its
document names must equal those of one reference road (``score_corpus`` of a mapping). A new road joins this test
the day it is written (DESIGN.md, "One road, one answer").
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import warnings
from pathlib import Path

import corefscore
import numpy as np
import pytest
from corefscore import (
    ArraySide,
    Scorer,
    analyze,
    analyze_files,
    score,
    score_arrays,
    score_corpus,
    score_files,
    score_labels,
)

TYPE_NAMES = ("name", "nominal", "pronoun")
TYPE_CODES = {"name": 1, "nominal": 2, "pronoun": 3}
N_CORPORA = 24
DOCS_PER_CORPUS = 48  # 24 x 48 = 1,152 documents a run, every road each
PYTHON = Path(__file__).resolve().parents[1] / "python"

# -- seeded random documents ------------------------------------------------------------------------------------


def _crosses(span: tuple[int, int], spans) -> bool:
    """Whether span overlaps one of spans without nesting (CoNLL-2012 brackets cannot say which closes which)."""
    s, e = span
    return any(s < s2 <= e < e2 or s2 < s <= e2 < e for s2, e2 in spans)


def _spans(rng: random.Random, n_tokens: int, n: int, nested: bool) -> list[tuple[int, int]]:
    """n distinct spans inside n_tokens tokens; with nested, some spans inside others."""
    out: set[tuple[int, int]] = set()
    for _ in range(n * 4):
        if len(out) >= n:
            break
        start = rng.randrange(n_tokens)
        end = min(n_tokens - 1, start + rng.choice((0, 0, 0, 1, 2, 3)))
        if _crosses((start, end), out):
            continue
        out.add((start, end))
        if nested and end > start and rng.random() < 0.5:
            inner = rng.randint(start, end)
            out.add((inner, inner))
    return sorted(out)


def _partition(rng: random.Random, mentions: list, singletons: bool) -> list[list]:
    """A random partition of the mentions into clusters (all singletons when asked)."""
    if singletons:
        return [[m] for m in mentions]
    clusters: list[list] = []
    for m in rng.sample(mentions, len(mentions)):
        if clusters and rng.random() < 0.6:
            rng.choice(clusters).append(m)
        else:
            clusters.append([m])
    return clusters


def _perturb(rng: random.Random, key: list[list], n_tokens: int) -> list[list]:
    """A response: the key with mentions dropped, shifted and added, clusters split and merged."""
    taken: set[tuple[int, int]] = set()
    clusters = []
    for cluster in key:
        out = []
        for s, e in cluster:
            roll = rng.random()
            if roll < 0.15:
                continue  # dropped
            if roll < 0.3:
                s, e = max(0, s - 1), e  # a span error
            if (s, e) not in taken and not _crosses((s, e), taken):
                taken.add((s, e))
                out.append((s, e))
        if len(out) > 2 and rng.random() < 0.3:
            cut = rng.randrange(1, len(out))
            clusters += [out[:cut], out[cut:]]
        elif out:
            clusters.append(out)
    if len(clusters) > 1 and rng.random() < 0.3:
        a = clusters.pop(rng.randrange(len(clusters)))
        clusters[rng.randrange(len(clusters))].extend(a)
    for span in _spans(rng, n_tokens, rng.randrange(3), False):
        if span in taken or _crosses(span, taken):
            continue
        taken.add(span)
        if clusters and rng.random() < 0.5:
            rng.choice(clusters).append(span)
        else:
            clusters.append([span])
    return [c for c in clusters if c]


KINDS = ("ordinary", "ordinary", "ordinary", "empty_key", "empty_response", "both_empty", "singletons", "nested")


def random_document(rng: random.Random, typed: bool) -> tuple[list, list, dict | None, int]:
    """(key, response, mention types or None, number of tokens) of one random document."""
    kind = rng.choice(KINDS)
    n_tokens = rng.randint(1, 40)
    spans = _spans(rng, n_tokens, rng.randint(1, 12), kind == "nested")
    key = _partition(rng, spans, kind == "singletons")
    response = _perturb(rng, key, n_tokens)
    if kind in ("empty_key", "both_empty"):
        key = []
    if kind in ("empty_response", "both_empty"):
        response = []
    types = None
    if typed:
        every = {m for c in key + response for m in c}
        types = {m: rng.choice(TYPE_NAMES) for m in sorted(every)}
    return key, response, types, n_tokens


class Corpus:
    """Named documents: keys, responses, per-document mention types (None: untyped), token counts."""

    def __init__(self, seed: int, n_docs: int, typed: bool) -> None:
        rng = random.Random(seed)
        docs = [random_document(rng, typed) for _ in range(n_docs)]
        self.seed, self.typed = seed, typed
        self.names = [f"doc{seed}_{i}" for i in range(n_docs)]
        self.keys = [d[0] for d in docs]
        self.responses = [d[1] for d in docs]
        self.types = [d[2] for d in docs]
        self.n_tokens = [d[3] for d in docs]

    def items(self):
        return zip(self.names, self.keys, self.responses, self.types)


# -- the roads: each returns (names or None, per-document counts matrix, metrics reported) ------------------------


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def road_corpus_mapping(c: Corpus, **opts):
    types = dict(zip(c.names, c.types)) if c.typed else None
    r = _quiet(score_corpus, dict(zip(c.names, c.keys)), dict(zip(c.names, c.responses)), mention_types=types, **opts)
    return r.doc_names, r.counts_matrix, r.metrics


def road_corpus_sequence(c: Corpus, **opts):
    r = _quiet(score_corpus, c.keys, c.responses, names=c.names, mention_types=c.types if c.typed else None, **opts)
    return r.doc_names, r.counts_matrix, r.metrics


def road_score_each(c: Corpus, **opts):
    results = [_quiet(score, k, r, mention_types=t, **opts) for _, k, r, t in c.items()]
    return None, np.vstack([r.counts_matrix for r in results]), _common_metrics(results)


def road_scorer_each(c: Corpus, **opts):
    scorer = Scorer(**opts)
    for name, k, r, t in c.items():
        _quiet(scorer.update, k, r, name=name, mention_types=t)
    r = scorer.compute()
    return r.doc_names, r.counts_matrix, r.metrics


def road_scorer_batch(c: Corpus, **opts):
    scorer = Scorer(**opts)
    half = len(c.keys) // 2
    for lo, hi in ((0, half), (half, len(c.keys))):
        _quiet(scorer.update, c.keys[lo:hi], c.responses[lo:hi], batch=True,
               mention_types=c.types[lo:hi] if c.typed else None)
    r = scorer.compute()
    return None, r.counts_matrix, r.metrics


def road_scorer_mapping(c: Corpus, **opts):
    scorer = Scorer(**opts)
    types = dict(zip(c.names, c.types)) if c.typed else None
    _quiet(scorer.update, dict(zip(c.names, c.keys)), dict(zip(c.names, c.responses)), mention_types=types)
    r = scorer.compute()
    return r.doc_names, r.counts_matrix, r.metrics


def _side_arrays(clusters: list, types: dict | None):
    spans = np.array([m for c in clusters for m in c], dtype=np.int64).reshape(-1, 2)
    ids = np.array([i for i, c in enumerate(clusters) for _ in c], dtype=np.int64)
    codes = None if types is None else np.array([TYPE_CODES[types[m]] for c in clusters for m in c], dtype=np.int8)
    return spans, ids, codes


def road_arrays(c: Corpus, **opts):
    results = []
    for _, k, r, t in c.items():
        ks, kc, kt = _side_arrays(k, t)
        rs, rc, rt = _side_arrays(r, t)
        results.append(_quiet(score_arrays, ks, kc, rs, rc, key_types=kt, response_types=rt, **opts))
    return None, np.vstack([r.counts_matrix for r in results]), _common_metrics(results)


def road_array_sides(c: Corpus, **opts):
    """ArraySide documents batched through one Scorer (the form a PyTorch loop's tensors take)."""
    scorer = Scorer(**opts)
    for name, k, r, t in c.items():
        _quiet(scorer.update, ArraySide(*_side_arrays(k, t)), ArraySide(*_side_arrays(r, t)), name=name)
    r = scorer.compute()
    return r.doc_names, r.counts_matrix, r.metrics


def _labels(key: list, response: list) -> tuple[list[int], list[int]]:
    mentions = sorted({m for cl in key + response for m in cl})
    index = {m: i for i, m in enumerate(mentions)}
    true, pred = [-1] * len(mentions), [-1] * len(mentions)
    for labels, side in ((true, key), (pred, response)):
        for cid, cluster in enumerate(side):
            for m in cluster:
                labels[index[m]] = cid
    return true, pred


def road_labels(c: Corpus, **opts):
    results = [_quiet(score_labels, *_labels(k, r), **opts) for _, k, r, _ in c.items()]
    return None, np.vstack([r.counts_matrix for r in results]), _common_metrics(results)


def _common_metrics(results) -> tuple[str, ...]:
    """The metrics reported for a corpus scored document by document: those reported for every document."""
    return tuple(m for m in results[0].metrics if all(m in r.metrics for r in results))


# -- files ----------------------------------------------------------------------------------------------------


def write_conll(path: Path, names: list[str], sides: list[list], n_tokens: list[int]) -> None:
    """CoNLL-2012 files: one part per document, tokens on one sentence, untyped (POS and NE columns '-')."""
    lines = []
    for name, clusters, n in zip(names, sides, n_tokens):
        cells: list[list[str]] = [[] for _ in range(n)]
        spans = sorted(((s, e, cid) for cid, cl in enumerate(clusters) for s, e in cl), key=lambda x: (x[0], -x[1]))
        for s, e, cid in spans:
            if s == e:
                cells[s].append(f"({cid})")
            else:
                cells[s].append(f"({cid}")
        for s, e, cid in sorted(spans, key=lambda x: (x[1], -x[0])):
            if s != e:
                cells[e].append(f"{cid})")
        lines.append(f"#begin document ({name}); part 000")
        for i in range(n):
            lines.append(f"{name}\t0\t{i}\tw{i}\t-\t-\t-\t-\t-\t-\t*\t{'|'.join(cells[i]) or '-'}")
        lines += ["", "#end document"]
    path.write_text("\n".join(lines) + "\n")


def write_jsonlines(path: Path, names: list[str], sides: list[list], n_tokens: list[int]) -> None:
    with path.open("w") as f:
        for name, clusters, n in zip(names, sides, n_tokens):
            doc = {"doc_key": name, "sentences": [[f"w{i}" for i in range(n)]],
                   "clusters": [[[s, e] for s, e in cl] for cl in clusters]}
            f.write(json.dumps(doc) + "\n")


def _files(c: Corpus, tmp: Path, fmt: str) -> tuple[Path, Path]:
    write = write_conll if fmt == "conll2012" else write_jsonlines
    suffix = ".conll" if fmt == "conll2012" else ".jsonl"
    key, response = tmp / f"key{c.seed}{suffix}", tmp / f"response{c.seed}{suffix}"
    write(key, c.names, c.keys, c.n_tokens)
    write(response, c.names, c.responses, c.n_tokens)
    return key, response


def file_names(c: Corpus, fmt: str) -> list[str]:
    """The names the files' documents carry: CoNLL-2012 names a document by its whole header, part included."""
    return [f"({n}); part 000" for n in c.names] if fmt == "conll2012" else list(c.names)


def road_files(c: Corpus, tmp: Path, fmt: str, **opts):
    r = _quiet(score_files, *_files(c, tmp, fmt), **opts)
    return r.doc_names, r.counts_matrix, r.metrics


def cli_json(c: Corpus, tmp: Path, fmt: str) -> dict:
    key, response = _files(c, tmp, fmt)
    env = dict(os.environ, PYTHONPATH=str(PYTHON) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-m", "corefscore", "score", str(key), str(response), "--json",
                          "--per-doc"], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


COUNT_FIELDS = ("recall_num", "recall_den", "precision_num", "precision_den")


def json_counts(metrics: dict) -> dict[str, float]:
    """The count fields of one ``--json`` metrics object, keyed as the engine's columns."""
    out = {}
    for name, m in metrics.items():
        parts = [(f"{name}.coref", m["coref_links"]), (f"{name}.noncoref", m["noncoref_links"])] \
            if name == "blanc" else [(name, m)]
        for prefix, fields in parts:
            for f in COUNT_FIELDS:
                out[f"{prefix}.{f}"] = fields[f]
    return out


# -- the comparison -------------------------------------------------------------------------------------------


def corpora():
    """(seed, typed) of every corpus: typed and untyped, alternating."""
    return [(1000 + i, i % 2 == 1) for i in range(N_CORPORA)]


def _describe(c: Corpus, row: int) -> str:
    return (f"document {c.names[row]} (seed {c.seed}): key={c.keys[row]!r} response={c.responses[row]!r} "
            f"types={c.types[row]!r}")


def assert_same(c: Corpus, road: str, got, expected, columns) -> None:
    names, counts, metrics = got
    ref_names, ref_counts, ref_metrics = expected
    if names is not None:
        assert names == ref_names, f"{road}: document names differ"
    assert counts.shape == ref_counts.shape, f"{road}: {counts.shape} rows x columns, expected {ref_counts.shape}"
    differ = np.argwhere(counts != ref_counts)
    if len(differ):
        row, col = differ[0]
        pytest.fail(f"{road}: {len(differ)} counts differ from score_corpus; first: {columns[col]} = "
                    f"{counts[row, col]} instead of {ref_counts[row, col]} in {_describe(c, row)}")
    assert tuple(metrics) == tuple(ref_metrics), f"{road}: metrics {metrics} instead of {ref_metrics}"


IN_MEMORY_ROADS = {
    "score_corpus(sequence)": road_corpus_sequence,
    "score (one document at a time)": road_score_each,
    "Scorer.update (one document at a time)": road_scorer_each,
    "Scorer.update (batches)": road_scorer_batch,
    "Scorer.update (mapping)": road_scorer_mapping,
    "score_arrays": road_arrays,
    "Scorer.update (ArraySide)": road_array_sides,
}


@pytest.mark.parametrize(("seed", "typed"), corpora())
def test_in_memory_roads_agree(seed: int, typed: bool) -> None:
    c = Corpus(seed, DOCS_PER_CORPUS, typed)
    expected = road_corpus_mapping(c)
    columns = corefscore.Scorer().columns
    for road, fn in IN_MEMORY_ROADS.items():
        assert_same(c, road, fn(c), expected, columns)
    if not typed:  # labels carry no types
        assert_same(c, "score_labels", road_labels(c), expected, columns)


@pytest.mark.parametrize("fmt", ["conll2012", "jsonlines"])
@pytest.mark.parametrize("seed", [2000, 2001, 2002, 2003])
def test_file_roads_agree(tmp_path: Path, seed: int, fmt: str) -> None:
    c = Corpus(seed, DOCS_PER_CORPUS, typed=False)
    _names, counts, metrics = road_corpus_mapping(c)
    columns = corefscore.Scorer().columns
    expected = file_names(c, fmt), counts, metrics
    assert_same(c, f"score_files ({fmt})", road_files(c, tmp_path, fmt), expected, columns)


@pytest.mark.parametrize("fmt", ["conll2012", "jsonlines"])
def test_cli_json_per_doc_agrees(tmp_path: Path, fmt: str) -> None:
    c = Corpus(3000, DOCS_PER_CORPUS, typed=False)
    _names, counts, metrics = road_corpus_mapping(c)
    columns = corefscore.Scorer().columns
    out = cli_json(c, tmp_path, fmt)
    assert [d["name"] for d in out["documents"]] == file_names(c, fmt)
    assert sorted(out["metrics"]) == sorted(metrics)
    for i, doc in enumerate(out["documents"]):
        for col, value in json_counts(doc["metrics"]).items():
            assert value == counts[i, columns.index(col)], f"--json --per-doc {col} of {_describe(c, i)}"


ANALYSIS_METRICS = ["kk", "ms"]


@pytest.mark.parametrize("seed", [4000, 4001, 4002])
def test_analysis_roads_agree(tmp_path: Path, seed: int) -> None:
    """analyze per document, analyze of a batch, analyze_files and the kk/ms counts columns agree."""
    c = Corpus(seed, DOCS_PER_CORPUS, typed=True)
    expected = road_corpus_mapping(c, metrics=ANALYSIS_METRICS)
    columns = corefscore.Scorer().columns
    for road in (road_corpus_sequence, road_score_each, road_scorer_each, road_arrays):
        assert_same(c, f"{road.__name__} (kk, ms)", road(c, metrics=ANALYSIS_METRICS), expected, columns)
    # The analyses' category counts: kk's seven columns, ms's two totals.
    cats = {col: col.split(".", 1)[1] for col in columns if col.startswith("kk.")}
    cats.update({"ms.recall_errors": "recall_error", "ms.precision_errors": "precision_error"})
    by_column = expected[1][:, [columns.index(col) for col in cats]]
    for i, (_name, k, r, t) in enumerate(c.items()):
        a = _quiet(analyze, k, r, mention_types=t)
        got = [a.counts[category] for category in cats.values()]
        assert got == by_column[i].tolist(), f"analyze: {dict(zip(cats, got))} in {_describe(c, i)}"
    # Files carry no types: compare them with the untyped analysis of the same documents, one at a time.
    files = _quiet(analyze_files, *_files(c, tmp_path, "conll2012"))
    assert files.documents == file_names(c, "conll2012")
    untyped = [_quiet(analyze, k, r).counts for _, k, r, _ in c.items()]
    assert files.counts == {cat: sum(u[cat] for u in untyped) for cat in files.counts}


# -- roads that must refuse -----------------------------------------------------------------------------------


def test_empty_untyped_key_reports_what_score_corpus_reports() -> None:
    """An untyped document with an empty key: DA is not computed on any road (issue 19's first case)."""
    key, response = [], [[(11, 12), (11, 14)]]
    one = score(key, response)
    corpus = score_corpus([key], [response])
    assert one.metrics == corpus.metrics
    assert np.array_equal(one.counts_matrix, corpus.counts_matrix)
    scorer = Scorer()
    scorer.update(key, response)
    assert np.array_equal(scorer.compute().counts_matrix, corpus.counts_matrix)


def test_spans_spelled_as_namedtuples_are_spans() -> None:
    """analyze and score count a span error the same way whatever tuple type spells the span."""
    from collections import namedtuple

    Span = namedtuple("Span", "start end")
    key, response = [[(0, 1), (4, 4)]], [[(0, 2), (4, 4)]]
    plain = analyze(key, response)
    named = analyze([[Span(*m) for m in c] for c in key], [[Span(*m) for m in c] for c in response])
    assert named.counts == plain.counts
    assert plain.counts["span_error"] == 1
    # A span document batched with a document of int mentions keeps its spans as spans.
    batch = score_corpus({"a": key, "b": [[1, 2]]}, {"a": response, "b": [[1, 2]]}, metrics=["kk"])
    assert batch.per_document()[0].counts["kk"]["span_error"] == 1


def test_a_batch_given_to_score_is_refused() -> None:
    doc1, doc2 = [[(0, 1), (3, 3)]], [[(5, 6)], [(8, 8)]]
    with pytest.raises(TypeError, match="score_corpus"):
        score([doc1, doc2], [doc1, doc2])


def test_a_bare_cluster_is_refused() -> None:
    with pytest.raises((TypeError, ValueError), match="cluster"):
        score([(0, 1), (3, 3)], [(0, 1), (3, 3)])
