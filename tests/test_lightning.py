"""PyTorch Lightning: a module holding CorefMetric, validated on two DDP CPU processes, reports the corpus counts.

Needs torch, torchmetrics and lightning; skipped with a message without them
(the metric itself is tested without Lightning in test_ddp.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import corefscore
import numpy as np
import pytest

pytest.importorskip("torchmetrics", reason="torchmetrics is not installed (pip install corefscore[torch])")
pytest.importorskip("lightning", reason="lightning is not installed (pip install lightning)")

from _lightning_worker import CORPUS
from fixtures.synthetic import synthetic_corpus

TESTS = Path(__file__).resolve().parent
#: Bound on the run (two processes importing torch and Lightning).
TIMEOUT = 300


def test_lightning_ddp_validation_gives_the_whole_corpus_counts(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), str(Path(corefscore.__file__).resolve().parent.parent),
                                         env.get("PYTHONPATH", "")])
    env.setdefault("OMP_NUM_THREADS", "1")
    out = tmp_path / "out.json"
    run = subprocess.run([sys.executable, str(TESTS / "_lightning_worker.py"), "2", str(out)], env=env,
                         cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT)
    assert run.returncode == 0, run.stdout + run.stderr
    got = json.loads(out.read_text())
    want = synthetic_corpus(**CORPUS).score()
    assert got["world"] == 2
    assert got["n_documents"] == want.n_documents
    assert tuple(got["metrics"]) == want.metrics
    counts, expected = np.array(got["counts"]), want.total_counts
    integral = expected == np.round(expected)
    np.testing.assert_array_equal(counts[integral], expected[integral])
    np.testing.assert_allclose(counts, expected, rtol=1e-12, atol=0)
