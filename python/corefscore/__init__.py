"""corefscore: fast, exact coreference scores (MUC, B-cubed, CEAF, BLANC, LEA, ...).

The scoring engine is a Go shared library bundled with the package and loaded
on first use (importing ``corefscore`` does not start it). Key first, response
second, everywhere.

Examples
--------
>>> import corefscore
>>> r = corefscore.score([[(0, 1), (5, 5)]], [[(0, 1), (5, 5)]])
>>> r["muc"].f1, r.conll_f1
(1.0, 1.0)
"""

from __future__ import annotations

__version__ = "0.1.0"

from ._api import (
    DUPLICATES,
    SINGLETONS,
    DuplicateMentionWarning,
    Scorer,
    metric_names,
    score,
    score_arrays,
    score_corpus,
    score_labels,
)
from ._convert import ArraySide
from ._files import score_files
from ._lib import CorefScoreInputError
from ._result import Duplicate, MetricScore, Result

__all__ = [
    "DUPLICATES",
    "SINGLETONS",
    "ArraySide",
    "CorefScoreInputError",
    "Duplicate",
    "DuplicateMentionWarning",
    "MetricScore",
    "Result",
    "Scorer",
    "__version__",
    "metric_names",
    "score",
    "score_arrays",
    "score_corpus",
    "score_files",
    "score_labels",
]
