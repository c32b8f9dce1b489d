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

``compute()`` follows torchmetrics' convention: a flat dict of float64
scalar tensors, ``{"muc/recall": ..., "muc/f1": ..., "conll_f1": ...}``, that
Lightning's ``self.log_dict`` takes as it is and that ``MetricCollection``
flattens with the other metrics. :meth:`CorefMetric.result` gives the
:class:`corefscore.Result` behind it.

Examples
--------
>>> from corefscore.torchmetrics import CorefMetric
>>> metric = CorefMetric(metrics=["muc", "bcub", "ceafe"])
>>> metric.update([[1, 2, 3]], [[1, 2], [3]])
>>> metric.update([[[1, 2]], [[4, 5]]], [[[1, 2]], [[4], [5]]], batch=True)
>>> scores = metric.compute()
>>> sorted(scores)[:4]
['bcub/f1', 'bcub/precision', 'bcub/recall', 'ceafe/f1']
>>> round(float(scores["muc/recall"]), 4), round(float(scores["conll_f1"]), 4)
(0.5, 0.6944)
>>> r = metric.result()
>>> r.n_documents, r["muc"].recall_num, r["muc"].recall_den
(3, 2.0, 4.0)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from . import _lib
from ._api import Scorer
from ._distributed import SummedResult
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


#: Quantities of each metric that ``compute()`` reports by default.
QUANTITIES = ("recall", "precision", "f1")


class CorefMetric(Metric):
    """Coreference scores as a ``torchmetrics.Metric``: ``compute()`` gives a flat dict of float tensors.

    Parameters
    ----------
    rows : bool
        False (default): the state is the counts' column sums only, and
        :meth:`result` is a :class:`corefscore.SummedResult` (corpus scores,
        counts and ``n_documents``; ``per_document``, ``bootstrap`` and
        ``compare`` raise, the rows were not kept). True: the per-document
        rows and names are kept too (list states reduced by concatenation,
        memory of every row on every process) and :meth:`result` is a full
        Result, rows in rank order. Documents named by a mapping or by
        ``update(..., name=...)`` keep their names across processes; the
        others are named by their position in that order.
    quantities : sequence of str
        Which quantities of each scored metric ``compute()`` reports
        (default ``("recall", "precision", "f1")``).
    key_format : str
        The key of each quantity, formatted with ``metric`` and ``quantity``
        (default ``"{metric}/{quantity}"``: ``"muc/f1"``).
    conll_key : str or None
        The key of the CoNLL F1 (default ``"conll_f1"``; None leaves it out).
        It is reported when MUC, B-cubed and CEAF_e all are.
    **options
        Scoring options as in :func:`corefscore.score` (``metrics``,
        ``singletons``, ``duplicates``, ``blanc_rule``, ...), checked now; and
        the keyword arguments of ``torchmetrics.Metric`` (:data:`METRIC_KWARGS`,
        e.g. ``process_group``, ``sync_on_compute``).

    Notes
    -----
    The states are float64 (counts are exact integers up to 2**53): fine on
    CPU and CUDA; Apple's MPS has no float64, keep the metric on the CPU there.
    In Lightning: ``self.coref.update(...)`` in ``validation_step``, then
    ``self.log_dict(self.coref.compute())`` and ``self.coref.reset()`` in
    ``on_validation_epoch_end``. A metric with nothing to count gives NaN.
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False

    def __init__(self, rows: bool = False, *, quantities: Sequence[str] = QUANTITIES,
                 key_format: str = "{metric}/{quantity}", conll_key: str | None = "conll_f1",
                 **options: Any) -> None:
        metric_kwargs = {k: options.pop(k) for k in METRIC_KWARGS if k in options}
        super().__init__(**metric_kwargs)
        self._scorer = Scorer(**options)  # checks the options once
        self._rows = bool(rows)
        if isinstance(quantities, str):
            raise TypeError(f"`quantities` must be a sequence of quantity names; got the string {quantities!r}.")
        self._quantities = tuple(quantities)
        self._key_format = key_format
        self._conll_key = conll_key
        self._columns = _lib.columns()
        self._metric_names = _lib.metric_names()
        self._result: Result | None = None
        f64 = torch.float64
        self.add_state("counts", torch.zeros(len(self._columns), dtype=f64), dist_reduce_fx="sum")
        self.add_state("n_documents", torch.zeros((), dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("n_duplicates", torch.zeros((), dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("n_updates", torch.zeros((), dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("applied", torch.zeros(len(self._metric_names), dtype=torch.int64), dist_reduce_fx="sum")
        if self._rows:
            # Flattened rows, and the document names as UTF-8 bytes with one length per row (-1: unnamed).
            # All float64: a process with no update syncs an empty 1-d tensor of the metric's dtype, and
            # the gather concatenates every process's tensors, so they must share one dtype.
            self.add_state("rows", default=[], dist_reduce_fx="cat")
            self.add_state("name_bytes", default=[], dist_reduce_fx="cat")
            self.add_state("name_lengths", default=[], dist_reduce_fx="cat")
        self.set_dtype(f64)

    def update(self, key: Any, response: Any, mention_types: Any = None, *, batch: bool = False,
               name: str | None = None) -> None:
        """Score one document, or a batch (``batch=True``, or two mappings paired by name), and add its counts.

        Documents take every form :meth:`corefscore.Scorer.update` accepts
        (lists of clusters, :class:`corefscore.ArraySide` of tensors, ...);
        ``name`` names a single document (kept with ``rows=True``).
        """
        scorer = self._scorer
        scorer.reset()
        if batch or isinstance(key, Mapping) or isinstance(response, Mapping):
            if name is not None:
                raise TypeError("`name` names a single document; a batch's documents are named by a mapping.")
            scorer.update(key, response, batch=batch, mention_types=mention_types)
            named = isinstance(key, Mapping)
        else:
            scorer.update(key, response, name=name, mention_types=mention_types)
            named = name is not None
        result = scorer.compute()
        device = self.counts.device
        self.counts += torch.from_numpy(result.total_counts).to(device)
        self.n_documents += result.n_documents
        self.n_duplicates += result.n_duplicates
        self.n_updates += 1
        applied = [m in result.metrics for m in self._metric_names]
        self.applied += torch.tensor(applied, dtype=torch.int64, device=device)
        if self._rows:
            f64 = torch.float64
            self.rows.append(torch.from_numpy(result.counts_matrix.reshape(-1)).to(device))
            encoded = [n.encode("utf-8") for n in result.doc_names] if named else [b""] * result.n_documents
            lengths = [len(b) for b in encoded] if named else [-1] * result.n_documents
            self.name_bytes.append(torch.tensor(list(b"".join(encoded)), dtype=f64, device=device))
            self.name_lengths.append(torch.tensor(lengths, dtype=f64, device=device))

    def _cat(self, state: Any) -> np.ndarray:
        """A list state (one process) or its gathered tensor (after sync) as one float64 array."""
        if isinstance(state, torch.Tensor):
            flat = state
        else:
            flat = torch.cat(state) if state else torch.zeros(0, dtype=torch.float64)
        return flat.detach().cpu().numpy().astype(np.float64).reshape(-1)

    def _doc_names(self) -> list[str]:
        data = self._cat(self.name_bytes).astype(np.uint8).tobytes()
        names, at = [], 0
        for i, length in enumerate(np.rint(self._cat(self.name_lengths)).astype(np.int64).tolist()):
            if length < 0:
                names.append(str(i))
            else:
                names.append(data[at:at + length].decode("utf-8"))
                at += length
        return names

    def _compute_result(self) -> Result:
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
            matrix = self._cat(self.rows).reshape(-1, len(self._columns))
            return Result(matrix, self._columns, self._doc_names(), metrics,
                          blanc_rule=blanc_rule, options=options, n_duplicates=n_dups)
        processes = 1
        dist = torch.distributed
        if getattr(self, "_is_synced", False) and dist.is_available() and dist.is_initialized():
            processes = dist.get_world_size(self.process_group)
        result = SummedResult(self.counts.detach().cpu().numpy(), self._columns, metrics, int(self.n_documents),
                              processes=processes, n_duplicates=n_dups, blanc_rule=blanc_rule, options=options)
        result._hint = "create the metric with CorefMetric(rows=True) to keep them"
        return result

    def _scores(self, result: Result) -> dict[str, torch.Tensor]:
        out: dict[str, float] = {}
        for metric, score in result.items():
            for quantity in self._quantities:
                value = getattr(score, quantity)
                out[self._key_format.format(metric=metric, quantity=quantity)] = \
                    math.nan if value is None else float(value)
        if self._conll_key is not None and result.conll_f1 is not None:
            out[self._conll_key] = float(result.conll_f1)
        device = self.counts.device
        return {k: torch.tensor(v, dtype=torch.float64, device=device) for k, v in out.items()}

    def compute(self) -> dict[str, torch.Tensor]:
        """The scores of every document since the last ``reset`` (of every process, when distributed).

        A flat dict of float64 scalar tensors, keyed ``key_format`` per metric
        and quantity plus ``conll_key``: what ``self.log_dict`` takes.
        """
        self._result = self._compute_result()
        return self._scores(self._result)

    def result(self) -> Result:
        """The :class:`corefscore.Result` behind :meth:`compute` (synced across processes like it).

        A :class:`corefscore.SummedResult` unless the metric keeps rows.
        """
        self.compute()  # torchmetrics' wrapper: syncs, or returns the cached value of an unchanged state
        if self._result is None:  # the cached value came from a copy (e.g. a MetricCollection's)
            self._result = self._compute_result()
        return self._result

    def reset(self) -> None:
        """Forget every document (torchmetrics' reset) and the last Result."""
        super().reset()
        self._result = None
