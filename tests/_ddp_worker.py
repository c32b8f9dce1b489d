"""One process of the DDP test (tests/test_ddp.py): ``python _ddp_worker.py RANK WORLD INIT_FILE OUT_DIR``.

Every process builds the same seeded synthetic corpus, scores its share of the
documents (``rank::world``, as a DistributedSampler deals them) with
CorefMetric and with Scorer.all_reduce, and saves the Results behind them.
"""

from __future__ import annotations

import json
import sys
import warnings
from datetime import timedelta
from pathlib import Path

import numpy as np
import torch.distributed as dist
from corefscore import ArraySide, Scorer
from corefscore.torchmetrics import CorefMetric
from fixtures.synthetic import synthetic_corpus

#: The corpus: an odd number of documents, so that the shares differ in size.
CORPUS = {"n_docs": 301, "n_mentions": 9000, "n_entities": 2100, "seed": 7}
BATCH = 8


def _typed(side: ArraySide, seed: int) -> ArraySide:
    types = np.random.default_rng(seed).integers(1, 4, size=np.asarray(side.clusters).shape[0])
    return ArraySide(side.mentions, side.clusters, types)


def main(rank: int, world: int, init_file: str, out_dir: str) -> None:
    dist.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank, world_size=world,
                            timeout=timedelta(seconds=90))
    corpus = synthetic_corpus(**CORPUS)
    mine = list(range(rank, len(corpus.key), world))
    metric, with_rows, typed = CorefMetric(), CorefMetric(rows=True), CorefMetric()
    lonely, lonely_rows = CorefMetric(), CorefMetric(rows=True)
    scorer, scorer_rows = Scorer(), Scorer()
    for i in mine[:3]:  # one document per update, then batches
        metric.update(corpus.key[i], corpus.response[i])
        with_rows.update(corpus.key[i], corpus.response[i])
    for start in range(3, len(mine), BATCH):
        chunk = mine[start:start + BATCH]
        metric.update([corpus.key[i] for i in chunk], [corpus.response[i] for i in chunk], batch=True)
        with_rows.update([corpus.key[i] for i in chunk], [corpus.response[i] for i in chunk], batch=True)
    for start in range(0, len(mine), BATCH):
        chunk = mine[start:start + BATCH]
        keys = {corpus.names[i]: corpus.key[i] for i in chunk}
        responses = {corpus.names[i]: corpus.response[i] for i in chunk}
        scorer.update(keys, responses)
        scorer_rows.update(keys, responses)
    # Types on rank 0 only: the metrics that read them apply there, not on rank 1.
    for i in mine[:10]:
        if rank == 0:
            typed.update(_typed(corpus.key[i], i), _typed(corpus.response[i], i + 1000))
        else:
            typed.update(corpus.key[i], corpus.response[i])
    if rank == 0:  # metrics that saw nothing on rank 1
        lonely.update(corpus.key[0], corpus.response[0])
        lonely_rows.update(corpus.key[0], corpus.response[0])

    local_counts = scorer.counts
    first = scorer.all_reduce().compute()
    again = scorer.all_reduce().compute()  # summed afresh from the local rows, not from the sums
    rows_result = scorer_rows.all_reduce(rows=True).compute()
    from_metric = metric.result()
    from_metric_rows = with_rows.result()
    typed_result, lonely_result, lonely_rows_result = typed.result(), lonely.result(), lonely_rows.result()
    # After a change, compute() is local again.
    scorer.update(corpus.key[mine[0]], corpus.response[mine[0]])
    local_after = scorer.compute()

    try:
        first.per_document()
        per_document_error = ""
    except ValueError as exc:
        per_document_error = str(exc)
    out = Path(out_dir)
    np.savez(out / f"rank{rank}.npz",
             metric=from_metric.total_counts, metric_rows=from_metric_rows.counts_matrix,
             scorer=first.total_counts, scorer_again=again.total_counts, scorer_rows=rows_result.counts_matrix,
             local=local_counts, local_after=local_after.total_counts, lonely=lonely_result.total_counts,
             lonely_rows=lonely_rows_result.counts_matrix)
    (out / f"rank{rank}.json").write_text(json.dumps({
        "mine": mine,
        "metric": {"metrics": from_metric.metrics, "n_documents": from_metric.n_documents,
                   "processes": from_metric.processes},
        "metric_rows": {"metrics": from_metric_rows.metrics, "n_documents": from_metric_rows.n_documents},
        "scorer": {"metrics": first.metrics, "n_documents": first.n_documents, "processes": first.processes},
        "scorer_rows": {"metrics": rows_result.metrics, "doc_names": rows_result.doc_names},
        "local_after_n_documents": local_after.n_documents,
        "typed": typed_result.metrics,
        "lonely": {"metrics": lonely_result.metrics, "n_documents": lonely_result.n_documents},
        "per_document_error": per_document_error,
    }))
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    warnings.simplefilter("ignore")  # torchmetrics' notes on compute before update, in the ranks' logs
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4])
