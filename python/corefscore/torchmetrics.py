"""A ``torchmetrics.Metric`` for coreference: corpus scores that reduce across processes by summing counts.

Needs ``torch`` and ``torchmetrics`` (``pip install corefscore[torch]``);
``import corefscore`` never imports them, this module does.

The state is the column sums of the counts matrix (float64), reduced with
``dist_reduce_fx="sum"``, so the metric works unchanged in a plain loop, in
PyTorch Lightning and under DDP: ``compute()`` syncs the sums of every process
and gives the corpus result on each.

Which metrics applied (those that read mention types apply only when types are
given) is tracked with two more summed states: the number of updates, and per
metric the number of updates in which it applied. A metric is reported when
the two are equal, i.e. when it applied to every update on every process (the
rule :class:`corefscore.Scorer` follows across batches). A tally reduced by sum
rather than a bitmask reduced by min, so that every state reduces the same way
(also in ``forward``, which merges a batch's state into the running one by the
state's reduction) and a process that saw no document changes nothing.

Examples
--------
>>> from corefscore.torchmetrics import CorefMetric
>>> metric = CorefMetric(metrics=["muc", "bcub", "ceafe"])
>>> metric.update([[1, 2, 3]], [[1, 2], [3]])
>>> metric.update([[[1, 2]], [[4, 5]]], [[[1, 2]], [[4], [5]]], batch=True)
>>> r = metric.compute()
>>> r.n_documents, r["muc"].recall_num, r["muc"].recall_den
(3, 2.0, 4.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _lib
from ._api import Scorer, SummedResult
from ._result import Result

try:
    import torch
    from torchmetrics import Metric
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "corefscore.torchmetrics needs torch and torchmetrics; install them with `pip install corefscore[torch]`"
    ) from exc

#: Keyword arguments that go to ``torchmetrics.Metric`` rather than to the scorer.
METRIC_KWARGS = ("compute_on_cpu", "dist_sync_on_step", "process_group", "dist_sync_fn",
                 "distributed_available_fn", "sync_on_compute", "compute_with_cache")


class CorefMetric(Metric):
    """Coreference scores as a ``torchmetrics.Metric``; ``compute()`` returns a :class:`corefscore.Result`.

    Parameters
    ----------
    rows : bool
        False (default): the state is the counts' column sums only, and
        ``compute()`` returns a :class:`corefscore.SummedResult` (corpus
        scores, counts and ``n_documents``; ``per_document``, ``bootstrap`` and
        ``compare`` raise, the rows were not kept). True: the per-document
        rows are kept too (a list state reduced by concatenation, memory of
        every row on every process) and ``compute()`` returns a full Result
        whose documents are named by position, in rank order.
    **options
        Scoring options as in :func:`corefscore.score` (``metrics``,
        ``singletons``, ``duplicates``, ``blanc_rule``, ...), checked now; and
        the keyword arguments of ``torchmetrics.Metric`` (:data:`METRIC_KWARGS`,
        e.g. ``process_group``, ``sync_on_compute``).

    Notes
    -----
    The states are float64 (counts are exact integers up to 2**53): fine on
    CPU and CUDA; Apple's MPS has no float64, keep the metric on the CPU there.
    Lightning's ``self.log`` takes numbers, not Results: log the scores of the
    computed Result (``r.conll_f1``, ``r["muc"].f1``) in
    ``on_validation_epoch_end`` and ``reset()`` the metric.
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False

    def __init__(self, rows: bool = False, **options: Any) -> None:
        metric_kwargs = {k: options.pop(k) for k in METRIC_KWARGS if k in options}
        super().__init__(**metric_kwargs)
        self._scorer = Scorer(**options)  # checks the options once
        self._rows = bool(rows)
        self._columns = _lib.columns()
        self._metric_names = _lib.metric_names()
        f64 = torch.float64
        self.add_state("counts", torch.zeros(len(self._columns), dtype=f64), dist_reduce_fx="sum")
        self.add_state("n_documents", torch.zeros((), dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("n_duplicates", torch.zeros((), dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("n_updates", torch.zeros((), dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("applied", torch.zeros(len(self._metric_names), dtype=torch.int64), dist_reduce_fx="sum")
        if self._rows:
            # Flattened rows: a process with no update syncs an empty 1-d tensor of the metric's dtype.
            self.add_state("rows", default=[], dist_reduce_fx="cat")
        self.set_dtype(f64)

    def update(self, key: Any, response: Any, mention_types: Any = None, *, batch: bool = False) -> None:
        """Score one document, or a batch (``batch=True``, or two mappings paired by name), and add its counts.

        Documents take every form :meth:`corefscore.Scorer.update` accepts
        (lists of clusters, :class:`corefscore.ArraySide` of tensors, ...).
        """
        scorer = self._scorer
        scorer.reset()
        scorer.update(key, response, batch=batch, mention_types=mention_types)
        result = scorer.compute()
        device = self.counts.device
        self.counts += torch.from_numpy(result.total_counts).to(device)
        self.n_documents += result.n_documents
        self.n_duplicates += result.n_duplicates
        self.n_updates += 1
        applied = [m in result.metrics for m in self._metric_names]
        self.applied += torch.tensor(applied, dtype=torch.int64, device=device)
        if self._rows:
            self.rows.append(torch.from_numpy(result.counts_matrix.reshape(-1)).to(device))

    def compute(self) -> Result:
        """The Result of every document since the last ``reset`` (of every process, when distributed)."""
        n_updates = int(self.n_updates)
        if n_updates:
            applied = self.applied.tolist()
            metrics = tuple(m for m, a in zip(self._metric_names, applied) if a == n_updates)
        else:  # nothing scored: the engine's default set for these options
            self._scorer.reset()
            metrics = self._scorer.compute().metrics
        options = self._scorer._opts.values
        blanc_rule = self._scorer._opts.blanc_rule
        n_dups = int(self.n_duplicates)
        if self._rows:
            flat = self.rows if isinstance(self.rows, torch.Tensor) else \
                (torch.cat(self.rows) if self.rows else torch.zeros(0, dtype=torch.float64))
            matrix = flat.detach().cpu().numpy().astype(np.float64).reshape(-1, len(self._columns))
            return Result(matrix, self._columns, [str(i) for i in range(len(matrix))], metrics,
                          blanc_rule=blanc_rule, options=options, n_duplicates=n_dups)
        processes = 1
        dist = torch.distributed
        if getattr(self, "_is_synced", False) and dist.is_available() and dist.is_initialized():
            processes = dist.get_world_size(self.process_group)
        result = SummedResult(self.counts.detach().cpu().numpy(), self._columns, metrics, int(self.n_documents),
                              processes=processes, n_duplicates=n_dups, blanc_rule=blanc_rule, options=options)
        result._hint = "create the metric with CorefMetric(rows=True) to keep them"
        return result
