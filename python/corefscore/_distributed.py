"""Summing a Scorer's counts across the processes of a torch.distributed group (:meth:`Scorer.all_reduce`).

Kept apart from the scoring core: only training code on several processes needs it, and it is the only
place that talks to torch.distributed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _engine, _lib
from ._result import Result


class SummedResult(Result):
    """The Result of counts summed across processes: corpus scores without per-document rows.

    What :meth:`Scorer.all_reduce` and ``corefscore.torchmetrics.CorefMetric``
    return. Scores, ``counts``, ``total_counts``, ``conll_f1``, ``to_dict()``
    and ``n_documents`` are those of every document on every process; the
    per-document rows stayed on their processes, so ``counts_matrix``,
    ``per_document()`` (and with them ``bootstrap`` and ``compare``) raise
    instead of treating the sums as one document. ``duplicates`` and
    ``warnings`` hold this process's own records; ``n_duplicates`` counts all.
    """

    def __init__(self, sums: Any, columns: Sequence[str], metrics: Sequence[str], n_documents: int, *,
                 processes: int = 1, n_duplicates: int = 0, blanc_rule: str = "key", duplicates: Sequence = (),
                 warnings: Sequence[str] = (), options: dict[str, Any] | None = None) -> None:
        sums = np.asarray(sums, dtype=np.float64)
        if sums.shape != (len(columns),):
            raise ValueError(f"`sums` must have shape ({len(columns)},); got {sums.shape} instead.")
        label = f"sum of {int(n_documents)} documents on {processes} process{'es' if processes != 1 else ''}"
        super().__init__(sums.reshape(1, -1), columns, [label], metrics, blanc_rule=blanc_rule,
                         duplicates=duplicates, warnings=warnings, options=options, n_duplicates=n_duplicates)
        self._n_summed = int(n_documents)
        self.processes = int(processes)
        self._hint = "use Scorer.all_reduce(rows=True), or gather Scorer.counts_matrix yourself"

    @property
    def counts_matrix(self) -> np.ndarray:
        """Unavailable: the rows stayed on their processes (see the class documentation)."""
        raise ValueError(self._no_rows())

    @counts_matrix.setter
    def counts_matrix(self, value: np.ndarray) -> None:
        self._sums = value

    @property
    def total_counts(self) -> np.ndarray:
        """The summed counts of every document, shape (n_columns,)."""
        return self._sums[0]

    @property
    def n_documents(self) -> int:
        """Number of documents summed, on every process."""
        return self._n_summed

    def _no_rows(self) -> str:
        return (
            f"corefscore: this Result holds the counts of {self._n_summed} documents summed across "
            f"{self.processes} process(es), not one row per document; per-document work (per_document, bootstrap, "
            f"compare) needs the rows: {self._hint}.")

    def per_document(self) -> list[Result]:
        """Unavailable: the rows stayed on their processes (see the class documentation)."""
        raise ValueError(self._no_rows())


def all_reduce(scorer: Any, group: Any = None, *, rows: bool = False) -> Any:
    """:meth:`corefscore.Scorer.all_reduce` (see there); returns ``scorer``."""
    try:
        import torch
        import torch.distributed as dist
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("corefscore: Scorer.all_reduce needs torch; install it with "
                          "`pip install corefscore[torch]`") from exc
    if not (dist.is_available() and dist.is_initialized()):
        raise RuntimeError("corefscore: Scorer.all_reduce needs an initialised torch.distributed process "
                           "group (torch.distributed.init_process_group); got none.")
    state = scorer._state()
    columns = _lib.columns()
    world = dist.get_world_size(group)
    if rows:
        parts: list[Any] = [None] * world
        dist.all_gather_object(parts, state, group=group)
        whole = type(scorer)(**scorer._kwargs)
        for part in parts:
            whole._absorb(*part)
        reduced = whole.compute()
    else:
        all_metrics = _lib.metric_names()
        scored = state[5] is not None
        local = np.concatenate([
            np.concatenate(state[0], axis=0).sum(axis=0) if state[0] else np.zeros(len(columns)),
            [len(state[1]), state[3], float(scored)],
            [float(scored and m in state[5]) for m in all_metrics],  # type: ignore[operator]
        ])
        device = torch.device("cuda", torch.cuda.current_device()) if dist.get_backend(group) == "nccl" \
            else torch.device("cpu")
        tensor = torch.from_numpy(local).to(device)
        dist.all_reduce(tensor, op=dist.ReduceOp.SUM, group=group)
        total = tensor.cpu().numpy()
        ncol = len(columns)
        n_docs, n_dups, n_scored = np.rint(total[ncol:ncol + 3]).astype(np.int64).tolist()
        applied = np.rint(total[ncol + 3:]).astype(np.int64).tolist()
        if n_scored:  # applied on every process that scored: the tally equals the number of such processes
            metrics = tuple(m for m, a in zip(all_metrics, applied) if a == n_scored)
        else:
            metrics = _engine.score_docs([], [], scorer._opts, False).metrics
        reduced = SummedResult(total[:ncol], columns, metrics, n_docs, processes=world, n_duplicates=n_dups,
                               blanc_rule=scorer._opts.blanc_rule, duplicates=state[2], warnings=state[4],
                               options=scorer._opts.values)
    with scorer._lock:
        scorer._reduced = reduced
    return scorer
