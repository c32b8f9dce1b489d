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

from ._version import __version__

# typing costs ~20 ms of import time that the command line need not pay.
TYPE_CHECKING = False

# The public names are imported on first use (PEP 562), so that `import corefscore`
# (and the command line's drop-in path) does not import NumPy or load the library.
_EXPORTS = {
    "Analysis": "._analysis",
    "ErrorRecord": "._analysis",
    "analyze": "._api",
    "analyze_files": "._api",
    "DuplicateMentionWarning": "._api",
    "Scorer": "._api",
    "SummedResult": "._distributed",
    "metric_names": "._api",
    "score": "._api",
    "score_arrays": "._api",
    "score_corpus": "._api",
    "score_files": "._api",
    "score_labels": "._api",
    "score_ua": "._ua",
    "ArraySide": "._convert",
    "CorefScoreInputError": "._engine",
    "Duplicate": "._engine",
    "ForkedProcessError": "._lib",
    "MetricScore": "._result",
    "Result": "._result",
    "bootstrap": ".stats",
    "compare": ".stats",
    "compare_files": ".stats",
}
_SUBMODULES = ("stats", "plotting", "report", "cli", "torchmetrics", "dask")

if TYPE_CHECKING:
    from typing import Any

    from ._analysis import Analysis, ErrorRecord
    from ._api import (
        DuplicateMentionWarning,
        Scorer,
        analyze,
        analyze_files,
        metric_names,
        score,
        score_arrays,
        score_corpus,
        score_files,
        score_labels,
    )
    from ._convert import ArraySide
    from ._distributed import SummedResult
    from ._engine import CorefScoreInputError, Duplicate
    from ._lib import ForkedProcessError
    from ._result import MetricScore, Result
    from ._ua import score_ua
    from .stats import bootstrap, compare, compare_files


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None and name not in _SUBMODULES:
        raise AttributeError(f"module 'corefscore' has no attribute {name!r}")
    import importlib  # here: the command line's imports of submodules never get this far

    if module is None:  # `corefscore.stats` without `import corefscore.stats`
        return importlib.import_module("." + name, __name__)
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "Analysis",
    "ArraySide",
    "CorefScoreInputError",
    "Duplicate",
    "DuplicateMentionWarning",
    "ErrorRecord",
    "ForkedProcessError",
    "MetricScore",
    "Result",
    "Scorer",
    "SummedResult",
    "__version__",
    "analyze",
    "analyze_files",
    "bootstrap",
    "compare",
    "compare_files",
    "metric_names",
    "score",
    "score_arrays",
    "score_corpus",
    "score_files",
    "score_labels",
    "score_ua",
]
