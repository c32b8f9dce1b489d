"""torch.distributed: two CPU processes (gloo) each score half a corpus; the reduced counts are the whole corpus's.

Both ways are checked: the torchmetrics metric (``corefscore.torchmetrics``)
and ``Scorer.all_reduce``. Needs torch and torchmetrics (``pip install
corefscore[torch]``; ``make test-torch`` installs them and fails without them);
skipped with a message elsewhere.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys
import warnings
from pathlib import Path

import corefscore
import numpy as np
import pytest
from _helpers import import_torch_module

pytestmark = pytest.mark.torch
torch = import_torch_module("torch")
import_torch_module("torchmetrics")

from _ddp_worker import CORPUS  # noqa: E402
from _helpers import TYPED_METRICS  # noqa: E402
from corefscore.torchmetrics import CorefMetric  # noqa: E402
from fixtures.synthetic import synthetic_corpus  # noqa: E402

TESTS = Path(__file__).resolve().parent
WORLD = 2
#: Bound on the whole run (both processes import torch and score ~150 documents each).
TIMEOUT = 240


@pytest.fixture(scope="module")
def ranks(tmp_path_factory):
    """What each of the two processes saved: (arrays, json) per rank."""
    if not torch.distributed.is_available() or not torch.distributed.is_gloo_available():
        pytest.skip("this torch build has no torch.distributed gloo backend")
    tmp = tmp_path_factory.mktemp("ddp")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), str(Path(corefscore.__file__).resolve().parent.parent),
                                         env.get("PYTHONPATH", "")])
    env.setdefault("OMP_NUM_THREADS", "1")
    procs = [subprocess.Popen([sys.executable, str(TESTS / "_ddp_worker.py"), str(rank), str(WORLD),
                               str(tmp / "init"), str(tmp)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
             for rank in range(WORLD)]
    logs = []
    try:
        for p in procs:
            logs.append(p.communicate(timeout=TIMEOUT)[0])
    except subprocess.TimeoutExpired:
        for p in procs:
            p.kill()
        pytest.fail(f"the {WORLD} processes did not finish within {TIMEOUT} s")
    for rank, (p, log) in enumerate(zip(procs, logs)):
        assert p.returncode == 0, f"rank {rank} failed:\n{log}"
    return [(dict(np.load(tmp / f"rank{r}.npz")), json.loads((tmp / f"rank{r}.json").read_text()))
            for r in range(WORLD)]


@pytest.fixture(scope="module")
def whole():
    """One process scoring the whole corpus."""
    corpus = synthetic_corpus(**CORPUS)
    return corpus.score()


def _assert_same_counts(got, want, columns):
    """Integral columns equal exactly; fractional ones (B-cubed, CEAF_e, LEA numerators) to the last bits.

    Float sums depend on the order of addition (per process, then across
    processes), so fractional sums may differ from one process's in the last
    bit; every count that is an integer is identical.
    """
    got, want = np.asarray(got), np.asarray(want)
    integral = want == np.round(want)
    np.testing.assert_array_equal(got[integral], want[integral])
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
    assert integral.sum() > len(columns) // 2


def test_the_processes_shared_the_corpus(ranks):
    shares = [info["mine"] for _, info in ranks]
    assert sorted(shares[0] + shares[1]) == list(range(CORPUS["n_docs"]))
    assert len(shares[0]) != len(shares[1])


@pytest.mark.parametrize("rank", range(WORLD))
def test_torchmetrics_metric_gives_the_whole_corpus_counts(ranks, whole, rank):
    arrays, info = ranks[rank]
    _assert_same_counts(arrays["metric"], whole.total_counts, whole.columns)
    assert tuple(info["metric"]["metrics"]) == whole.metrics
    assert info["metric"]["n_documents"] == whole.n_documents
    assert info["metric"]["processes"] == WORLD


@pytest.mark.parametrize("rank", range(WORLD))
def test_scorer_all_reduce_gives_the_whole_corpus_counts(ranks, whole, rank):
    arrays, info = ranks[rank]
    _assert_same_counts(arrays["scorer"], whole.total_counts, whole.columns)
    np.testing.assert_array_equal(arrays["scorer_again"], arrays["scorer"])  # nothing counted twice
    assert tuple(info["scorer"]["metrics"]) == whole.metrics
    assert info["scorer"]["n_documents"] == whole.n_documents
    assert info["scorer"]["processes"] == WORLD
    assert "rows" in info["per_document_error"]


@pytest.mark.parametrize("rank", range(WORLD))
def test_rows_come_back_in_rank_order_identical(ranks, whole, rank):
    arrays, info = ranks[rank]
    order = ranks[0][1]["mine"] + ranks[1][1]["mine"]
    np.testing.assert_array_equal(arrays["metric_rows"], whole.counts_matrix[order])
    np.testing.assert_array_equal(arrays["scorer_rows"], whole.counts_matrix[order])
    assert info["scorer_rows"]["doc_names"] == [whole.doc_names[i] for i in order]
    assert tuple(info["scorer_rows"]["metrics"]) == whole.metrics


@pytest.mark.parametrize("rank", range(WORLD))
def test_after_a_change_compute_is_local_again(ranks, rank):
    arrays, info = ranks[rank]
    assert info["local_after_n_documents"] == len(info["mine"]) + 1
    assert not np.array_equal(arrays["local_after"], arrays["scorer"])
    assert np.all(arrays["local_after"] >= arrays["local"])


@pytest.mark.parametrize("rank", range(WORLD))
def test_metrics_applied_on_one_process_only_are_left_out(ranks, whole, rank):
    _, info = ranks[rank]
    assert not set(TYPED_METRICS) & set(info["typed"])
    assert tuple(info["typed"]) == whole.metrics


@pytest.mark.parametrize("rank", range(WORLD))
def test_a_process_without_documents_changes_nothing(ranks, rank):
    arrays, info = ranks[rank]
    corpus = synthetic_corpus(**CORPUS)
    want = corefscore.score(corpus.key[0], corpus.response[0])
    np.testing.assert_array_equal(arrays["lonely"], want.total_counts)
    np.testing.assert_array_equal(arrays["lonely_rows"], want.counts_matrix)
    assert tuple(info["lonely"]["metrics"]) == want.metrics
    assert info["lonely"]["n_documents"] == 1


# -- in one process -------------------------------------------------------------


def test_metric_in_one_process_matches_score_corpus():
    corpus = synthetic_corpus(n_docs=30, n_mentions=600, n_entities=150, seed=3)
    metric = CorefMetric(metrics=["muc", "bcub", "ceafe", "blanc"])
    for k, r in zip(corpus.key, corpus.response):
        metric.update(k, r)
    got = metric.result()
    want = corpus.score(metrics=["muc", "bcub", "ceafe", "blanc"])
    _assert_same_counts(got.total_counts, want.total_counts, want.columns)
    assert got.metrics == want.metrics
    assert got.n_documents == 30
    assert got.conll_f1 == pytest.approx(want.conll_f1, rel=1e-12)
    metric.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torchmetrics: compute before update
        empty = metric.result()
    assert empty.n_documents == 0
    assert empty.metrics == corefscore.Scorer(metrics=["muc", "bcub", "ceafe", "blanc"]).compute().metrics


def test_summed_result_refuses_per_document_work():
    metric = CorefMetric()
    metric.update([[1, 2, 3]], [[1, 2], [3]])
    result = metric.result()
    assert isinstance(result, corefscore.SummedResult)
    with pytest.raises(ValueError, match=r"CorefMetric\(rows=True\)"):
        result.per_document()
    with pytest.raises(ValueError, match="per-document work"):
        corefscore.bootstrap(result, n=10)
    assert result.to_dict()["metrics"]["muc"] == corefscore.score([[1, 2, 3]], [[1, 2], [3]])["muc"].to_dict()


def test_forward_returns_the_batch_and_accumulates():
    metric = CorefMetric(metrics="muc")
    batch = metric([[1, 2, 3]], [[1, 2], [3]])
    assert float(batch["muc/recall"]) == 0.5
    metric([[1, 2]], [[1, 2]])
    assert metric.result()["muc"].recall_den == 3.0
    assert float(metric.compute()["muc/recall"]) == 2 / 3


def test_metric_copies_and_pickles_with_its_state():
    metric = CorefMetric(metrics=["muc", "lea"], singletons="exclude")
    metric.update([[1, 2, 3], [7]], [[1, 2], [3, 7]])
    want = metric.result().to_dict()
    assert copy.deepcopy(metric).result().to_dict() == want
    assert metric.clone().result().to_dict() == want
    restored = pickle.loads(pickle.dumps(metric))
    restored.update([[5, 6]], [[5, 6]])
    assert restored.result().n_documents == 2
    assert restored.result().options == metric.result().options


def test_states_stay_float64_whatever_the_module_precision():
    metric = CorefMetric()
    metric.half()
    metric.float()
    assert metric.counts.dtype == torch.float64
    metric.update([[10**9, 2]], [[10**9, 2]])
    assert metric.result()["muc"].f1 == 1.0


def test_options_are_checked_when_the_metric_is_made():
    with pytest.raises(ValueError):
        CorefMetric(singletons="sometimes")


def test_metric_kwargs_go_to_torchmetrics():
    assert CorefMetric(sync_on_compute=False, metrics="muc").sync_on_compute is False


def test_all_reduce_without_a_process_group_says_so():
    if torch.distributed.is_available() and torch.distributed.is_initialized():
        pytest.skip("a process group is initialised in this interpreter")
    scorer = corefscore.Scorer()
    scorer.update([[1, 2]], [[1, 2]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeError, match="init_process_group"):
            scorer.all_reduce()


def test_docstring_examples():
    import doctest

    import corefscore.torchmetrics

    result = doctest.testmod(corefscore.torchmetrics, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0


def test_compute_is_a_flat_dict_of_float_tensors_with_configurable_keys():
    key, response = [[1, 2, 3], [7, 8]], [[1, 2], [3, 7, 8]]
    want = corefscore.score(key, response, metrics=["muc", "bcub", "ceafe"])
    metric = CorefMetric(metrics=["muc", "bcub", "ceafe"])
    metric.update(key, response)
    scores = metric.compute()
    assert set(scores) == {f"{m}/{q}" for m in want.metrics for q in ("recall", "precision", "f1")} | {"conll_f1"}
    assert all(isinstance(v, torch.Tensor) and v.dtype == torch.float64 and v.ndim == 0 for v in scores.values())
    assert float(scores["conll_f1"]) == want.conll_f1
    assert float(scores["bcub/precision"]) == want["bcub"].precision
    custom = CorefMetric(metrics=["muc", "lea"], quantities=["f1"], key_format="val_{metric}_{quantity}",
                         conll_key=None)
    custom.update(key, response)
    assert set(custom.compute()) == {"val_muc_f1", "val_lea_f1"}
    with pytest.raises(TypeError, match="quantities"):
        CorefMetric(quantities="f1")


def test_metric_works_inside_a_metric_collection():
    from torchmetrics import MetricCollection

    key, response = [[1, 2, 3], [7, 8]], [[1, 2], [3, 7, 8]]
    collection = MetricCollection({"coref": CorefMetric(metrics=["muc", "bcub", "ceafe"])}, prefix="val/")
    collection.update(key, response)
    scores = collection.compute()
    want = corefscore.score(key, response, metrics=["muc", "bcub", "ceafe"])
    assert float(scores["val/conll_f1"]) == want.conll_f1
    assert float(scores["val/muc/f1"]) == want["muc"].f1
    assert collection["coref"].result().conll_f1 == want.conll_f1


def test_rows_keep_the_names_given_and_number_the_others():
    metric = CorefMetric(rows=True, metrics="muc")
    metric.update([[1, 2]], [[1, 2]], name="first")
    metric.update([[1, 2]], [[1], [2]])
    metric.update({"ä/b": [[1, 2, 3]], "c": [[4, 5]]}, {"ä/b": [[1, 2], [3]], "c": [[4, 5]]})
    result = metric.result()
    assert result.doc_names == ["first", "1", "ä/b", "c"]
    assert [d["muc"].f1 for d in result.per_document()] == [1.0, 0.0, pytest.approx(2 / 3), 1.0]
    with pytest.raises(TypeError, match="single document"):
        metric.update([[[1, 2]]], [[[1, 2]]], batch=True, name="x")
