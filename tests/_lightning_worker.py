"""The README's Lightning example, run by tests/test_lightning.py: ``python _lightning_worker.py DEVICES OUT_JSON``.

A LightningModule holds two CorefMetric (sums only, and with rows) and
validates a synthetic corpus on DEVICES CPU processes (strategy "ddp" with
gloo relaunches this script for the other ranks): ``validation_step`` updates
the metrics with a batch of named documents, ``on_validation_epoch_end`` logs
``self.coref.compute()`` with ``self.log_dict`` as it is. Each rank reads its
own share of the documents without padding (``use_distributed_sampler=False``):
a DistributedSampler would repeat documents to even out the shares, and they
would be counted twice. Rank 0 writes what Lightning logged (the values
``trainer.validate`` returns) and the Results behind them.
"""

from __future__ import annotations

import json
import sys
import warnings

import lightning as L
import torch
from corefscore.torchmetrics import CorefMetric
from fixtures.synthetic import synthetic_corpus

CORPUS = {"n_docs": 101, "n_mentions": 2000, "n_entities": 500, "seed": 4}


class Validated(L.LightningModule):
    def __init__(self, out: str) -> None:
        super().__init__()
        self.corpus = synthetic_corpus(**CORPUS)
        self.layer = torch.nn.Linear(1, 1)
        self.coref = CorefMetric()
        self.coref_rows = CorefMetric(rows=True)
        self.out = out

    def val_dataloader(self) -> torch.utils.data.DataLoader:
        mine = list(range(self.global_rank, len(self.corpus.key), self.trainer.world_size))
        return torch.utils.data.DataLoader(mine, batch_size=4, collate_fn=list)

    def validation_step(self, batch: list[int], batch_idx: int) -> None:
        c = self.corpus
        key = {c.names[i]: c.key[i] for i in batch}
        response = {c.names[i]: c.response[i] for i in batch}
        self.coref.update(key, response)
        self.coref_rows.update(key, response)

    def on_validation_epoch_end(self) -> None:
        self.log_dict(self.coref.compute())
        summed, rows = self.coref.result(), self.coref_rows.result()
        if self.global_rank == 0:
            with open(self.out + ".results", "w") as f:
                json.dump({"counts": summed.total_counts.tolist(), "metrics": summed.metrics,
                           "n_documents": summed.n_documents, "world": self.trainer.world_size,
                           "row_counts": rows.counts_matrix.tolist(), "row_names": rows.doc_names}, f)
        self.coref.reset()
        self.coref_rows.reset()


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    devices, out = int(sys.argv[1]), sys.argv[2]
    trainer = L.Trainer(accelerator="cpu", devices=devices, strategy="ddp" if devices > 1 else "auto",
                        use_distributed_sampler=False, logger=False, enable_progress_bar=False,
                        enable_model_summary=False, enable_checkpointing=False)
    logged = trainer.validate(Validated(out), verbose=False)
    if trainer.global_rank == 0:
        with open(out + ".results") as f:
            results = json.load(f)
        with open(out, "w") as f:
            json.dump({"logged": logged[0], **results}, f)
