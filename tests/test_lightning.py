"""PyTorch Lightning: the README's LightningModule, validated on two DDP CPU processes (gloo), logs the corpus scores.

Needs torch, torchmetrics and lightning (marked `torch`: ``make test-torch``
installs them and fails without them; skipped with a message elsewhere).
The metric itself is tested without Lightning in test_ddp.py.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import corefscore
import numpy as np
import pytest
from _helpers import import_torch_module

pytestmark = pytest.mark.torch
torch = import_torch_module("torch")
import_torch_module("torchmetrics")
L = import_torch_module("lightning")

from _lightning_worker import CORPUS  # noqa: E402
from corefscore.torchmetrics import CorefMetric  # noqa: E402
from fixtures.synthetic import synthetic_corpus  # noqa: E402

TESTS = Path(__file__).resolve().parent
#: Bound on the run (two processes importing torch and Lightning).
TIMEOUT = 300


def _expected_logs(result: corefscore.Result) -> dict[str, float]:
    """What CorefMetric's compute() should hold for ``result``: every metric's three quantities and the CoNLL F1."""
    want = {f"{m}/{q}": getattr(s, q) for m, s in result.items() for q in ("recall", "precision", "f1")}
    want["conll_f1"] = result.conll_f1
    return want


def test_lightning_ddp_validation_logs_the_whole_corpus_scores(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), str(Path(corefscore.__file__).resolve().parent.parent),
                                         env.get("PYTHONPATH", "")])
    env.setdefault("OMP_NUM_THREADS", "1")
    out = tmp_path / "out.json"
    run = subprocess.run([sys.executable, str(TESTS / "_lightning_worker.py"), "2", str(out)], env=env,
                         cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT)
    assert run.returncode == 0, run.stdout + run.stderr
    got = json.loads(out.read_text())
    corpus = synthetic_corpus(**CORPUS)
    want = corpus.score()
    assert got["world"] == 2
    # What Lightning logged: the whole corpus's scores, as score_corpus gives them.
    logged = got["logged"]
    assert logged["conll_f1"] == pytest.approx(want.conll_f1, rel=1e-12)
    assert logged == pytest.approx(_expected_logs(want), rel=1e-12)
    # The summed counts behind them.
    assert got["n_documents"] == want.n_documents
    assert tuple(got["metrics"]) == want.metrics
    counts, expected = np.array(got["counts"]), want.total_counts
    integral = expected == np.round(expected)
    np.testing.assert_array_equal(counts[integral], expected[integral])
    np.testing.assert_allclose(counts, expected, rtol=1e-12, atol=0)
    # With rows: every document once, under its own name, with its own counts (rank 0's share first).
    names = got["row_names"]
    assert sorted(names) == sorted(corpus.names)
    by_name = dict(zip(want.doc_names, want.counts_matrix.tolist()))
    np.testing.assert_allclose(np.array(got["row_counts"]), np.array([by_name[n] for n in names]), rtol=1e-12)
    assert names[:3] == [corpus.names[0], corpus.names[2], corpus.names[4]]


class _LogsTheMetric(L.LightningModule):
    """One process: validation_step updates the metric, the epoch end logs ``self.coref.compute()`` as it is."""

    def __init__(self, corpus) -> None:
        super().__init__()
        self.corpus = corpus
        self.layer = torch.nn.Linear(1, 1)
        self.coref = CorefMetric(metrics=["muc", "bcub", "ceafe", "lea"])

    def val_dataloader(self):
        return torch.utils.data.DataLoader(list(range(len(self.corpus.key))), batch_size=3, collate_fn=list)

    def validation_step(self, batch, batch_idx):
        self.coref.update([self.corpus.key[i] for i in batch], [self.corpus.response[i] for i in batch], batch=True)

    def on_validation_epoch_end(self):
        self.log_dict(self.coref.compute())
        self.coref.reset()


def test_log_dict_takes_compute_as_it_is():
    corpus = synthetic_corpus(n_docs=7, n_mentions=120, n_entities=40, seed=11)
    trainer = L.Trainer(accelerator="cpu", devices=1, logger=False, enable_progress_bar=False,
                        enable_model_summary=False, enable_checkpointing=False)
    (logged,) = trainer.validate(_LogsTheMetric(corpus), verbose=False)
    want = _expected_logs(corpus.score(metrics=["muc", "bcub", "ceafe", "lea"]))
    assert set(logged) == set(want)
    assert logged == pytest.approx(want, rel=1e-12)
    assert not math.isnan(logged["conll_f1"])
