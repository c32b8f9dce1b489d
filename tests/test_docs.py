"""The docstring examples of the public API run and print what they say."""

from __future__ import annotations

import doctest

import corefscore
import pytest
from corefscore import _api, _convert, _result, _ua

MODULES = [corefscore, _api, _convert, _result, _ua]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted > 0


def test_public_names_are_documented():
    for name in corefscore.__all__:
        obj = getattr(corefscore, name)
        if callable(obj) and not name.startswith("_"):
            assert obj.__doc__ and len(obj.__doc__.strip()) > 20, name


def test_readme_examples():
    from _helpers import REPO

    result = doctest.testfile(
        str(REPO / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )
    assert result.failed == 0 and result.attempted > 10
