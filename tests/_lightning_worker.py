"""The Lightning check of tests/test_lightning.py: ``python _lightning_worker.py DEVICES OUT_JSON``.

A LightningModule holds a CorefMetric and validates a synthetic corpus on
DEVICES CPU processes (strategy "ddp" relaunches this script for the other
ranks). Each rank reads its own share of the documents without padding
(``use_distributed_sampler=False``): a DistributedSampler would repeat
documents to even out the shares, and they would be counted twice.
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
        self.out = out

    def val_dataloader(self) -> torch.utils.data.DataLoader:
        mine = list(range(self.global_rank, len(self.corpus.key), self.trainer.world_size))
        return torch.utils.data.DataLoader(mine, batch_size=4, collate_fn=list)

    def validation_step(self, batch: list[int], batch_idx: int) -> None:
        self.coref.update([self.corpus.key[i] for i in batch], [self.corpus.response[i] for i in batch], batch=True)

    def on_validation_epoch_end(self) -> None:
        result = self.coref.compute()
        self.log("val_conll_f1", result.conll_f1)
        if self.global_rank == 0:
            with open(self.out, "w") as f:
                json.dump({"counts": result.total_counts.tolist(), "metrics": result.metrics,
                           "n_documents": result.n_documents, "world": self.trainer.world_size}, f)
        self.coref.reset()


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    devices, out = int(sys.argv[1]), sys.argv[2]
    trainer = L.Trainer(accelerator="cpu", devices=devices, strategy="ddp" if devices > 1 else "auto",
                        use_distributed_sampler=False, logger=False, enable_progress_bar=False,
                        enable_model_summary=False, enable_checkpointing=False)
    trainer.validate(Validated(out))
