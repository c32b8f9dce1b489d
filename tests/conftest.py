"""Shared fixtures of the corefscore test suite."""

from __future__ import annotations

import pytest
from _helpers import DATA, REFERENCE


@pytest.fixture
def reference_dir():
    """The reference scorer's test cases in ../shared (skipped when ../shared is absent)."""
    if not (REFERENCE / "expected.json").exists():
        pytest.skip(f"shared data not found at {DATA} (the tests read ../shared beside the repository)")
    return REFERENCE
