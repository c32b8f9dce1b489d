"""Test-only helpers: paths to the shared data and a tiny CoNLL-2012 reader for small files."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
DATA = SHARED / "data"
REFERENCE = DATA / "reference-testcases"
SEEDS = SHARED / "seeds"

#: The CoNLL reference scorer v8.01 (scorer.pl), for the tests that compare with it: named by an
#: environment variable (README, "Tests"); those tests skip with a message when it is unset.
REFERENCE_SCORER_ENV = "COREFSCORE_REFERENCE_SCORER"
REFERENCE_SCORER = Path(os.environ[REFERENCE_SCORER_ENV]) if os.environ.get(REFERENCE_SCORER_ENV) else None
HAVE_PERL = shutil.which("perl") is not None and REFERENCE_SCORER is not None and REFERENCE_SCORER.exists()
NO_PERL_REASON = f"perl or the reference scorer is not available (set {REFERENCE_SCORER_ENV} to scorer.pl)"

#: The metrics that read mention types (the engine leaves them out of the default set on untyped input).
TYPED_METRICS = ("lmuc", "lbcub", "lceafm", "lceafe", "da")
#: The error analyses: counts without scores, computed only when named.
ANALYSES = ("kk", "ms")
#: The CRAC measures that read mention words (CoNLL-U files): left out of the default set on mention arrays.
WORD_METRICS = ("mor", "zero")
#: The Universal Anaphora scores: only CoNLL-UA documents have them (tests/test_ua.py).
UA_METRICS = ("non_referring", "bridging_anaphora", "bridging_markable", "bridging_entity")

_ITEM = re.compile(r"\((\d+)\)|\((\d+)|(\d+)\)")


def read_conll_clusters(path: Path) -> dict[str, list[list[tuple[int, int]]]]:
    """Clusters of (start, end) token spans per document of a small CoNLL-2012 file.

    Token positions count across the whole document; the coreference column
    is the last one; items such as ``(3``, ``3)``, ``(3)`` may be joined by
    ``|`` or written side by side (``(1(3``). A mention opened twice is listed
    twice (the engine reports the repetition). Entities come in the order in
    which their ids are first seen (per line: one-token items, openings,
    closings), as the reference stores them. Test use only.
    """
    docs: dict[str, list[list[tuple[int, int]]]] = {}
    name = None
    pos = 0
    clusters: dict[int, list[tuple[int, int]]] = {}
    open_: dict[int, list[int]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#begin document"):
            name = line[len("#begin document") :].strip()
            pos, clusters, open_ = 0, {}, {}
            continue
        if line.startswith("#end document"):
            assert name is not None
            docs[name] = list(clusters.values())
            name = None
            continue
        cols = line.split()
        if not cols or name is None:
            continue
        items = _ITEM.findall(cols[-1])
        # As the reference does: one-token mentions, then openings, then closings;
        # an entity's place in the output is where its id is first seen.
        for single, _, _ in items:
            if single:
                clusters.setdefault(int(single), []).append((pos, pos))
        for _, opening, _ in items:
            if opening:
                clusters.setdefault(int(opening), [])
                open_.setdefault(int(opening), []).append(pos)
        for _, _, closing in items:
            if closing:
                cid = int(closing)
                start = open_[cid].pop()
                clusters.setdefault(cid, []).append((start, pos))
        pos += 1
    return docs


#: Set by `make test-torch`: the tests marked `torch` must run there, so a missing torch, torchmetrics
#: or lightning is an import error instead of a skip.
TORCH_REQUIRED = os.environ.get("COREFSCORE_TEST_TORCH") == "1"


def import_torch_module(name: str):
    """Import ``name`` (torch, torchmetrics, lightning) for a test marked `torch`.

    Skips with a message when it is missing, except under `make test-torch`
    (COREFSCORE_TEST_TORCH=1), where the import error fails the run.
    """
    import importlib

    import pytest

    if TORCH_REQUIRED:
        return importlib.import_module(name)
    reason = f"{name} is not installed (make test-torch, or pip install corefscore[torch])"
    return pytest.importorskip(name, reason=reason)
