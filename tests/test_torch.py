"""PyTorch in a validation loop: tensors anywhere a mention or an array goes give the numbers of plain lists.

Needs torch (``make test-torch`` installs it; CI runs these). A tensor hashes by
its ``id``, so a scorer that interned tensors as mentions would score two
equal documents 0.00: every form here must compare by value.
"""

from __future__ import annotations

import corefscore
import numpy as np
import pytest
from _helpers import import_torch_module

pytestmark = pytest.mark.torch
torch = import_torch_module("torch")

KEY = [[(0, 1), (3, 3), (12, 12)], [(7, 8)], [(14, 15), (27, 27)]]
RESPONSE = [[(0, 1), (3, 3)], [(7, 8), (14, 15)], [(12, 12), (30, 30)]]


def _want(key=KEY, response=RESPONSE):
    return corefscore.score(key, response).to_dict()["metrics"]


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32])
def test_span_tensors_inside_lists(dtype):
    as_tensors = lambda doc: [[torch.tensor(m, dtype=dtype) for m in c] for c in doc]  # noqa: E731
    assert corefscore.score(as_tensors(KEY), as_tensors(KEY)).conll_f1 == 1.0
    assert corefscore.score(as_tensors(KEY), as_tensors(RESPONSE)).to_dict()["metrics"] == _want()


def test_scalar_tensors_as_mentions():
    key = [[torch.tensor(1), torch.tensor(2)], [torch.tensor(3)]]
    response = [[torch.tensor(1), torch.tensor(2), torch.tensor(3)]]
    assert corefscore.score(key, response).to_dict()["metrics"] == _want([[1, 2], [3]], [[1, 2, 3]])


def test_a_scorer_fed_tensors_as_its_batches_come():
    """Per batch: (starts, ends, cluster ids) tensors, int64 and int32, strided, as a model's head emits them."""
    rng = np.random.default_rng(0)
    plain, fed = corefscore.Scorer(), corefscore.Scorer()
    for step in range(20):
        n = int(rng.integers(1, 40))
        starts = np.sort(rng.choice(500, size=n, replace=False))
        spans = np.stack([starts, starts + rng.integers(0, 3, size=n)], axis=1)
        key_c, resp_c = rng.integers(0, 6, size=n), rng.integers(0, 6, size=n)
        plain.update(_clusters(spans, key_c), _clusters(spans, resp_c))
        dtype = torch.int64 if step % 2 else torch.int32
        wide = torch.zeros((n, 4), dtype=dtype)
        wide[:, ::3] = torch.from_numpy(spans)  # columns 0 and 3: a non-contiguous (n, 2) view
        span_view = wide[:, ::3]
        assert not span_view.is_contiguous()
        fed.update(
            corefscore.ArraySide(span_view, torch.from_numpy(key_c).to(dtype)),
            corefscore.ArraySide(span_view, torch.from_numpy(resp_c).to(dtype)),
        )
    np.testing.assert_array_equal(fed.counts_matrix, plain.counts_matrix)
    assert fed.compute().to_dict()["metrics"] == plain.compute().to_dict()["metrics"]


def _clusters(spans, ids):
    out: dict[int, list] = {}
    for (s, e), c in zip(spans.tolist(), ids.tolist()):
        out.setdefault(c, []).append((s, e))
    return list(out.values())


def test_label_tensors():
    true, pred = torch.tensor([0, 0, 1, 1, -1]), torch.tensor([0, 0, 0, -1, 2])
    assert (
        corefscore.score_labels(true, pred).to_dict() == corefscore.score_labels(true.numpy(), pred.numpy()).to_dict()
    )


def test_tuple_of_tensors_as_clusters_compares_values():
    """``update((starts, ends, clusters), ...)`` with tensors: read as three clusters of int mentions, by value."""
    starts, ends, clusters = torch.tensor([0, 3]), torch.tensor([1, 3]), torch.tensor([0, 0])
    scorer = corefscore.Scorer()
    scorer.update((starts, ends, clusters), (starts.clone(), ends.clone(), clusters.clone()))
    assert scorer.compute().conll_f1 == 1.0


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device on this machine")
def test_cuda_tensors_are_copied_to_the_cpu():
    spans = torch.tensor([[0, 1], [3, 3]], device="cuda")
    ids = torch.tensor([0, 0], device="cuda")
    assert corefscore.score(corefscore.ArraySide(spans, ids), corefscore.ArraySide(spans, ids)).conll_f1 == 1.0
